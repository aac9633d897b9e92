// swift-tools-version:5.9
import PackageDescription

// An app-like package that uses Shipyard from the outside, by path:
// - DBGenBuildToolPlugin builds Sources/FoodExample/*.dbgen.txt into SQLite resources at build time;
// - VersionConstantsBuildToolPlugin generates BuildVersion.swift from the git revision;
// - the LayeredDatabase library opens the user database with the shipped one attached.
let package = Package(
    name: "ShipyardExamples",
    dependencies: [
        // A path dependency's identity is its directory's name, which differs from clone to
        // clone; `name:` pins it so that `package: "Shipyard"` below always resolves.
        .package(name: "Shipyard", path: ".."),
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
    ]
)
