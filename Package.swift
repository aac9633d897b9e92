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
        .library(name: "SQLiteCore", targets: ["SQLiteCore"]),
        .library(name: "VersionStampKit", targets: ["VersionStampKit"]),
        .plugin(name: "DBGenCommandPlugin", targets: ["DBGenCommandPlugin"]),
        .plugin(name: "VersionStampCommandPlugin", targets: ["VersionStampCommandPlugin"]),
        .plugin(name: "DBGenBuildToolPlugin", targets: ["DBGenBuildToolPlugin"]),
        .plugin(name: "VersionConstantsBuildToolPlugin", targets: ["VersionConstantsBuildToolPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target NAME` builds each library's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // SHA-256 for the updater's checksums (FileSystemKit): `Crypto` is CryptoKit on Apple
        // platforms (macOS 10.15, iOS 13, tvOS 13, watchOS 6, within this package's minimums) and
        // BoringSSL elsewhere. Neither 3.x nor 4.x declares `platforms:`; 4.x needs tools 6.1,
        // so an older toolchain resolves 3.12.3 or later 3.x.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
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
        // The sqlite3 3.40.1 shell's own SQL functions, collations and virtual tables (C).
        .target(
            name: "CShellExtensions",
            dependencies: ["CSQLite"],
            linkerSettings: [.linkedLibrary("z")]
        ),
        // Shipyard's version number, defined once for every tool and library.
        .target(name: "ShipyardVersion"),
        // The one SQLite layer: Connection, Statement, SQLiteError, values, identifier quoting.
        // Nothing else calls sqlite3 directly.
        .target(name: "SQLiteCore", dependencies: ["CSQLite"]),
        // The one file-system layer (no product; `package` API): atomic replace, atomic output
        // files, durable sync (F_FULLFSYNC on Darwin), sidecar locks, file stamps, content hashes.
        // Every durable write and every lock of the libraries goes through it.
        .target(name: "FileSystemKit", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "DBGenKit", dependencies: ["SQLiteCore", "CShellExtensions", "ShipyardVersion", "FileSystemKit"]),
        .target(name: "LayeredDatabase", dependencies: ["SQLiteCore", "CSQLite", "FileSystemKit"]),
        .target(name: "VersionStampKit", dependencies: ["CGit2", "CLibXML2", "ShipyardVersion", "FileSystemKit"]),

        // MARK: Executables (thin)
        .executableTarget(
            name: "dbgen",
            dependencies: [
                "DBGenKit", "LayeredDatabase", "SQLiteCore",
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

        // MARK: Plugins (thin: locate the tool, forward arguments / declare build commands)
        .plugin(
            name: "DBGenCommandPlugin",
            capability: .command(
                intent: .custom(verb: "dbgen", description: "Build a SQLite database from a schema script with dbgen"),
                permissions: [.writeToPackageDirectory(reason: "dbgen writes the database it builds into the package")]
            ),
            dependencies: ["dbgen"]
        ),
        .plugin(
            name: "VersionStampCommandPlugin",
            capability: .command(
                intent: .custom(verb: "versionstamp", description: "Print the git-derived build version or stamp it into plists")
                // No declared permission, so `swift package versionstamp print` runs without a flag.
                // `stamp` writes: `--allow-writing-to-package-directory` grants that whether or not
                // a permission is declared (SwiftPM adds the package directory to the writable set).
            ),
            dependencies: ["versionstamp"]
        ),
        .plugin(name: "DBGenBuildToolPlugin", capability: .buildTool(), dependencies: ["dbgen"]),
        .plugin(name: "VersionConstantsBuildToolPlugin", capability: .buildTool(), dependencies: ["versionstamp"]),

        // MARK: Tests
        // Shared by every test target: one process runner, temporary directories, the oracles
        // (sqlite3, sqldiff, git, python3) and seeded generators.
        .target(name: "ShipyardTestSupport", path: "Tests/ShipyardTestSupport"),
        .testTarget(name: "SystemLibraryTests", dependencies: ["CSQLite", "CGit2", "CLibXML2", "ShipyardTestSupport"]),
        .testTarget(name: "ShellExtensionsTests", dependencies: ["CShellExtensions", "CSQLite", "ShipyardTestSupport"]),
        .testTarget(name: "SQLiteCoreTests", dependencies: ["SQLiteCore", "ShipyardTestSupport"]),
        .testTarget(name: "FileSystemKitTests", dependencies: ["FileSystemKit", "ShipyardTestSupport"]),
        .testTarget(name: "DBGenKitTests", dependencies: ["DBGenKit", "FileSystemKit", "SQLiteCore", "ShipyardTestSupport"]),
        .testTarget(name: "LayeredDatabaseTests", dependencies: ["LayeredDatabase", "ShipyardTestSupport"]),
        .testTarget(name: "VersionStampKitTests", dependencies: ["VersionStampKit", "ShipyardTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "EndToEndTests", dependencies: ["dbgen", "versionstamp", "ShipyardTestSupport"]),
    ]
)
