// swift-tools-version:5.9
import PackageDescription

// An app-like package that uses Shipyard from the outside, by path:
// - DBGenBuildToolPlugin builds Sources/FoodExample/*.dbgen.txt into SQLite resources at build time;
// - VersionConstantsBuildToolPlugin generates BuildVersion.swift from the git revision;
// - the LayeredDatabase library opens the user database with the shipped one attached;
// - GRDBExample: the same through GRDB, with an update diffed, installed and picked up;
// - FeedExample: an update over the air from a signed feed (FeedClient), then the new data.
let package = Package(
    name: "ShipyardExamples",
    // Shipyard's own minimums (its Package.swift; GRDB 7 declares the same), so the package
    // resolves on a Mac: without them SwiftPM assumes macOS 10.13, below Shipyard's 10.15.
    platforms: [
        .iOS(.v13),
        .macOS(.v10_15),
        .tvOS(.v13),
        .watchOS(.v7),
        .visionOS(.v1),
    ],
    dependencies: [
        // A path dependency's identity is its directory's name, which differs from clone to
        // clone; `name:` pins it so that `package: "Shipyard"` below always resolves.
        .package(name: "Shipyard", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "FoodExample",
            dependencies: [.product(name: "LayeredDatabase", package: "Shipyard")],
            plugins: [
                .plugin(name: "DBGenBuildToolPlugin", package: "Shipyard"),
                .plugin(name: "VersionConstantsBuildToolPlugin", package: "Shipyard"),
            ]
        ),
        // Over the air: the bundled release 1, a feed that Feed/publish.sh writes and nginx serves,
        // checked and installed by FeedClient, then read through LayeredDatabase.
        .executableTarget(
            name: "FeedExample",
            dependencies: [
                .product(name: "FeedClient", package: "Shipyard"),
                .product(name: "LayeredDatabase", package: "Shipyard"),
            ],
            plugins: [.plugin(name: "DBGenBuildToolPlugin", package: "Shipyard")]
        ),
        // The GRDB recipe: the shipped database attached in Configuration.prepareDatabase,
        // an update diffed, installed and picked up by new connections.
        .executableTarget(
            name: "GRDBExample",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "LayeredDatabase", package: "Shipyard"),
                .product(name: "DBGenKit", package: "Shipyard"),
            ],
            plugins: [.plugin(name: "DBGenBuildToolPlugin", package: "Shipyard")]
        ),
    ]
)
