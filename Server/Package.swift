// swift-tools-version:6.2
import PackageDescription

// The sync server (docs/Sync.md, "The server"): its own package, so that an app depending on
// Shipyard never resolves Hummingbird, PostgresNIO or JWTKit.
//
// - SyncServer: the library (runs inside an app's own Hummingbird server too: SyncRoutes adds
//   the routes to a router; SyncServerApplication is a ready-made Application). Shipyard's
//   SyncProtocol is the wire format; DBGenKit builds the user schema script into a temporary
//   SQLite database, which LayeredDatabase's SQLite layer reads the declarations from.
// - shipyard-sync-server: the executable, argument parsing only.
// - SyncServerTestSupport: a PostgreSQL 15 cluster of a test's own (initdb/pg_ctl from Debian's
//   postgresql package, on 127.0.0.1 and a free port) and the server beside it, in-process or as a
//   process, for this package's tests and the end-to-end tests of devices against the server.
let package = Package(
    name: "ShipyardSyncServer",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "SyncServer", targets: ["SyncServer"]),
        .library(name: "SyncServerTestSupport", targets: ["SyncServerTestSupport"]),
        .executable(name: "shipyard-sync-server", targets: ["shipyard-sync-server"]),
    ],
    dependencies: [
        .package(name: "Shipyard", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // The tests' HTTP client (Hummingbird's own testing library builds it already).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // jwt-kit 5.8 needs swift-crypto 4.1 or later (the root package allows 3.12.3..<5.0.0).
        .package(url: "https://github.com/apple/swift-crypto", "4.1.0"..<"5.0.0"),
    ],
    targets: [
        .target(
            name: "SyncServer",
            dependencies: [
                .product(name: "SyncProtocol", package: "Shipyard"),
                .product(name: "DBGenKit", package: "Shipyard"),
                .product(name: "LayeredDatabase", package: "Shipyard"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .executableTarget(
            name: "shipyard-sync-server",
            dependencies: [
                "SyncServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The throughput benchmark (scripts/bench-sync-server.sh): starts the server as a process and
        // drives it with concurrent simulated devices.
        .executableTarget(
            name: "shipyard-sync-bench",
            dependencies: [
                "SyncServerTestSupport",
                .product(name: "SyncProtocol", package: "Shipyard"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "SyncServerTestSupport",
            dependencies: [
                "SyncServer",
                .product(name: "SyncProtocol", package: "Shipyard"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            // Tests and their helpers share mutable fixtures across tasks (a device per task, the
            // cluster per class): Swift 5 mode, where XCTest's non-Sendable test cases may be captured.
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "SyncServerTests",
            dependencies: [
                "SyncServer", "SyncServerTestSupport", "shipyard-sync-server",
                .product(name: "SyncProtocol", package: "Shipyard"),
                // The convergence test's devices: SyncClient, the library an app links, on user
                // databases dbgen's builder (DBGenKit) makes from the template script.
                .product(name: "SyncClient", package: "Shipyard"),
                .product(name: "DBGenKit", package: "Shipyard"),
                .product(name: "LayeredDatabase", package: "Shipyard"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
