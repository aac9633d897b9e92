// swift-tools-version:5.9
import PackageDescription

// Shipyard: build-time tools for apps that ship data.
//
// Layout: system-library targets (CSQLite, CGit2, CLibXML2) wrap Debian's -dev packages;
// the libraries (DBGenKit, LayeredDatabase, VersionStampKit) hold all logic; the
// executables (dbgen, versionstamp) only parse arguments and call them. dbgen links
// sqlite3 only — never libgit2 or libxml2.
let package = Package(
    name: "Shipyard",
    products: [
        .executable(name: "dbgen", targets: ["dbgen"]),
        .executable(name: "versionstamp", targets: ["versionstamp"]),
        .library(name: "DBGenKit", targets: ["DBGenKit"]),
        .library(name: "LayeredDatabase", targets: ["LayeredDatabase"]),
        .library(name: "VersionStampKit", targets: ["VersionStampKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // MARK: System libraries
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CGit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),

        // MARK: Libraries
        .target(name: "DBGenKit", dependencies: ["CSQLite"]),
        .target(name: "LayeredDatabase", dependencies: ["CSQLite"]),
        .target(name: "VersionStampKit", dependencies: ["CGit2", "CLibXML2"]),

        // MARK: Executables (thin)
        .executableTarget(
            name: "dbgen",
            dependencies: [
                "DBGenKit", "LayeredDatabase",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "versionstamp",
            dependencies: [
                "VersionStampKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        .testTarget(name: "SystemLibraryTests", dependencies: ["CSQLite", "CGit2", "CLibXML2"]),
        .testTarget(name: "DBGenKitTests", dependencies: ["DBGenKit"]),
        .testTarget(name: "LayeredDatabaseTests", dependencies: ["LayeredDatabase"]),
        .testTarget(name: "VersionStampKitTests", dependencies: ["VersionStampKit"], exclude: ["Fixtures"]),
        .testTarget(name: "EndToEndTests", dependencies: ["dbgen", "versionstamp"]),
    ]
)
