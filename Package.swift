// swift-tools-version:5.9
import PackageDescription

// Shipyard: build-time tools for apps that ship data.
//
// Layout: system-library targets (CSQLite, CGit2, CLibXML2, CZlib, CBZip2) wrap the system's
// libraries; the libraries hold all logic; the executables (dbgen, versionstamp) only parse
// arguments and call them. ARCHITECTURE.md's layers table lists every target with what it is
// (the first words of the comment above each target here) and what it depends on; a test
// (DocumentationTests' TargetTableTests) holds the three together. dbgen links
// sqlite3 (and zlib, and libbz2 for the feed) only — never libgit2 or libxml2. The plugins
// built from source run dbgen-plugin-tool, dbgen without the over-the-air commands (see its target).
//
// What each product links:
// - LayeredDatabase: what an APP links (iOS, macOS, tvOS, watchOS, visionOS). The system's
//   sqlite3 only (libsqlite3 of the SDK; Debian: libsqlite3-dev), and only API that Apple's
//   sqlite3.h declares, guarded by `#available` where newer than the platforms below. It
//   re-exports SQLiteCore's public API (Connection, Statement, Row, DatabaseValue,
//   SQLiteError, ResultCode, SQLiteLibrary). Through FileSystemKit it hashes with SHA-256 but
//   links no cryptographic package: CryptoKit on Apple platforms (a system framework, nothing
//   compiled in), FileSystemKit's own SHA256Hasher elsewhere (the CPU's SHA instructions through
//   CSHA256 where it has them, portable Swift otherwise; see swift-crypto below).
// - DBGenKit, dbgen: build tools (macOS, Linux). sqlite3 and zlib (libz of the SDK; Debian:
//   zlib1g-dev); the session extension through SQLiteSession. dbgen's feed commands
//   (FeedPublisher) also link TUF, and so swift-crypto (Ed25519 signatures), and libbz2 (libbz2
//   of the SDK; Debian: libbz2-dev): the feed's targets are bzip2 streams by default.
// - VersionStampKit, versionstamp: build tools (macOS, Linux). libgit2 (Homebrew's on a Mac:
//   `brew install libgit2 pkg-config`; Debian: libgit2-dev) and libxml2 (libxml2-dev).
// A library's privacy manifest (PrivacyInfo.xcprivacy) is a resource on Apple platforms, where
// Xcode merges it into the app's privacy report. A resource makes SwiftPM generate a Bundle
// accessor, which imports Foundation (Bundle is not FoundationEssentials'), and every tool that
// links the target would then load Foundation when it starts. So a Linux host leaves the file
// out (no Linux app has a privacy report), and the tools link FoundationEssentials only.
#if os(Linux)
let privacyManifest = (exclude: ["PrivacyInfo.xcprivacy"], resources: [Resource]())
#else
let privacyManifest = (exclude: [String](), resources: [Resource.copy("PrivacyInfo.xcprivacy")])
#endif

// On Linux libgit2 is opened at its first call (CGit2Loader), so nothing may link it there:
// pkg-config's `-lgit2` is asked for on the other platforms only.
#if os(Linux)
let libgit2PkgConfig: String? = nil
#else
let libgit2PkgConfig: String? = "libgit2"
#endif

let package = Package(
    name: "Shipyard",
    // The OS versions apps still support, as GRDB 7 declares them: what LayeredDatabase needs.
    // Anything newer is guarded with `#available` (SQLiteCoreTests checks every sqlite3_* call).
    platforms: [
        .iOS(.v13),
        .macOS(.v10_15),
        .tvOS(.v13),
        .watchOS(.v7),
        .visionOS(.v1),
    ],
    products: [
        .executable(name: "dbgen", targets: ["dbgen"]),
        .executable(name: "versionstamp", targets: ["versionstamp"]),
        .executable(name: "tuf-client", targets: ["tuf-client"]),
        .library(name: "DBGenKit", targets: ["DBGenKit"]),
        .library(name: "LayeredDatabase", targets: ["LayeredDatabase"]),
        .library(name: "VersionStampKit", targets: ["VersionStampKit"]),
        .library(name: "TUF", targets: ["TUF"]),
        .library(name: "FeedClient", targets: ["FeedClient"]),
        .library(name: "SyncProtocol", targets: ["SyncProtocol"]),
        .library(name: "SyncClient", targets: ["SyncClient"]),
        .plugin(name: "DBGenCommandPlugin", targets: ["DBGenCommandPlugin"]),
        .plugin(name: "VersionStampCommandPlugin", targets: ["VersionStampCommandPlugin"]),
        .plugin(name: "DBGenWriteCommandPlugin", targets: ["DBGenWriteCommandPlugin"]),
        .plugin(name: "VersionStampWriteCommandPlugin", targets: ["VersionStampWriteCommandPlugin"]),
        .plugin(name: "DBGenBuildToolPlugin", targets: ["DBGenBuildToolPlugin"]),
        .plugin(name: "VersionConstantsBuildToolPlugin", targets: ["VersionConstantsBuildToolPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target NAME` builds each library's DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Only TUF uses swift-crypto: the over-the-air feed's signatures (TUF metadata, Ed25519)
        // need `Crypto`: CryptoKit on Apple platforms
        // (macOS 10.15, iOS 13, tvOS 13, watchOS 6, within this package's minimums), BoringSSL
        // compiled from source elsewhere. Only the target that verifies signatures may depend on
        // it, so that an app that only reads the shipped data (LayeredDatabase) never compiles
        // BoringSSL on Linux (about 790 C files, 5,000 symbols). FileSystemKit's SHA-256 (file
        // checksums) needs no such library: CryptoKit on Apple platforms, its own FIPS 180-4
        // SHA256Hasher elsewhere (CSHA256's CPU instructions, or portable Swift), tested against python3's hashlib. Neither 3.x nor 4.x
        // declares `platforms:`; 4.x needs tools 6.1, so an older toolchain resolves 3.12.3 or
        // later 3.x.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // MARK: System libraries
        // The system's sqlite3 (the SDK's on Apple platforms), as a module: linked with `link
        // "sqlite3"` in its module map and no pkg-config, as GRDB's GRDBSQLite is, so on Apple
        // platforms always the SDK's library (Homebrew's keg-only sqlite flags would point an iOS
        // build at a macOS dylib).
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The system's libgit2, as a module: Debian's libgit2-dev, Homebrew's libgit2 (in no Apple SDK).
        .systemLibrary(
            name: "CGit2",
            pkgConfig: libgit2PkgConfig,
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
        ),
        // libgit2 opened with dlopen at its first call (Linux only), in C: a definition of every
        // libgit2 function Shipyard calls, generated from git2.h (scripts/gen-git2-loader.py), each
        // calling the library's own, so that a versionstamp command that reads no repository never
        // maps libgit2 and the libraries it links. Apple platforms link libgit2 as usual.
        .target(
            name: "CGit2Loader", dependencies: ["CGit2"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // The system's zlib, as a module: the feed's targets of earlier feeds (and `--compression
        // zlib`) are zlib streams. In every Apple SDK; Debian: zlib1g-dev.
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The system's libbz2, as a module: the feed's default compression (`dbgen publish
        // --compression`; a dbgen patch is about a third smaller than deflated). libbz2 of the SDK on
        // Apple platforms; Debian: libbz2-dev.
        .systemLibrary(
            name: "CBZip2",
            providers: [.apt(["libbz2-dev"])]
        ),
        // The system's libxml2, as a module, with ICU switched off (its shim), which would clash
        // with Foundation's; versionstamp's in-place plist editor is its one caller.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),

        // MARK: Libraries
        // The sqlite3 3.40.1 shell's own SQL functions and virtual tables, in C (and its
        // collations), which dbgen honours as the shell does; it links zlib for the zip functions.
        .target(
            name: "CShellExtensions",
            dependencies: ["CSQLite"],
            linkerSettings: [.linkedLibrary("z")]
        ),
        // Shipyard's version number, defined once for every tool and library (and the User-Agent).
        .target(name: "ShipyardVersion"),
        // What the libraries use that Foundation has and FoundationEssentials lacks (NSString's path
        // text, trimming, printf numbers, a lock, a condition, a thread), so that on Linux no tool
        // loads Foundation, CoreFoundation or ICU when it starts; on Apple platforms each helper is
        // the Foundation API it stands for. No dependency.
        .target(name: "EssentialsSupport"),
        // The reader of the tools' option files, dbgen.json and versionstamp.json, read when the
        // tools run: one reader, errors naming file, line and key. Package-internal API only.
        .target(name: "ToolConfiguration", dependencies: ["EssentialsSupport"]),
        // The one SQLite layer: connections, statements, values, errors, the authorizer (Connection,
        // Statement, SQLiteError, ResultCode, identifier quoting). Nothing else imports CSQLite (but
        // the C shell extensions and the session extension below).
        // App-facing API is public; what only Shipyard's tools use is `package`.
        .target(name: "SQLiteCore", dependencies: ["CSQLite", "EssentialsSupport"]),
        // SQLite's session extension (changesets), for the tools only: Apple's sqlite3.h does not
        // declare it, so it is part of the SQLite layer that never reaches what an app links.
        .target(name: "SQLiteSession", dependencies: ["SQLiteCore", "CSQLite"]),
        // The one file-system layer: atomic files, durable sync, locks, hashes, checked names (no
        // product; `package` API): atomic replace, atomic output files, durable sync (F_FULLFSYNC on
        // Darwin), sidecar locks, file stamps, content hashes, and the checked names through which
        // alone a string from signed metadata names a file.
        // Every durable write and every lock of the libraries goes through it. No dependency: its
        // SHA-256 is CryptoKit or its own (swift-crypto above says why), so LayeredDatabase, which
        // links it, compiles no cryptographic library on any platform.
        .target(
            name: "FileSystemKit",
            dependencies: [.target(name: "CSHA256", condition: .when(platforms: [.linux, .android]))]),
        // SHA-256's compression function on the CPU's SHA instructions, in C (x86-64 SHA-NI, ARMv8
        // SHA2), detected at run time: FileSystemKit's fast path on Linux (Apple platforms use CryptoKit, so
        // no Apple build compiles it). One C function and a CPU query, not a cryptographic library.
        .target(name: "CSHA256"),
        // Everything dbgen does to a database: build, check, diff; prints nothing (diagnostics go to
        // handlers). LayeredDatabase: `dbgen diff` writes the patch header with the type that reads
        // it (`PatchHeader`), so the format has one definition. It links nothing DBGenKit does not
        // link already (SQLiteCore, FileSystemKit).
        .target(
            name: "DBGenKit",
            dependencies: [
                "SQLiteCore", "SQLiteSession", "CShellExtensions", "ShipyardVersion",
                "FileSystemKit", "ToolConfiguration", "LayeredDatabase", "EssentialsSupport",
            ]),
        // The user database with the shipped one attached read-only, and updates in the field: what
        // an app links. PrivacyInfo.xcprivacy: the required-reason APIs that LayeredDatabase and what it links
        // (SQLiteCore, FileSystemKit) call, declared for the app that links them (Xcode merges
        // it into the app's privacy report); LayeredDatabaseTests' PrivacyManifestTests keeps it
        // true to the sources.
        // SyncProtocol: the capture (Sync/) reads the declarations of what syncs into its model
        // (SyncSchema, SyncRule); pure Swift and zlib, no networking (that is SyncClient's).
        .target(
            name: "LayeredDatabase",
            dependencies: ["SQLiteCore", "FileSystemKit", "SyncProtocol", "EssentialsSupport"],
            exclude: privacyManifest.exclude, resources: privacyManifest.resources),
        // Everything versionstamp does: read the history, format, stamp; prints nothing
        // (VersionStampError has a code). libgit2 reads the repository, libxml2 edits plists.
        .target(
            name: "VersionStampKit",
            dependencies: [
                "CGit2", "CLibXML2", "ShipyardVersion", "FileSystemKit", "ToolConfiguration", "EssentialsSupport",
                .byName(name: "CGit2Loader", condition: .when(platforms: [.linux])),
            ],
            linkerSettings: [.linkedLibrary("git2", .when(platforms: [.macOS]))]),
        // The Update Framework 1.0: metadata, signatures, the client workflow; no networking.
        // Canonical JSON, the four roles and delegations, Ed25519
        // signing, the client workflow (trusted metadata set, updater) over a fetcher protocol.
        // Foundation, Crypto (Ed25519: CryptoKit on Apple platforms, BoringSSL elsewhere: the one
        // target that needs swift-crypto) and FileSystemKit for atomic writes; no networking:
        // what a signed feed's publisher and its client share.
        .target(
            name: "TUF",
            dependencies: ["FileSystemKit", "EssentialsSupport", .product(name: "Crypto", package: "swift-crypto")]),
        // curl.h's types and the dlopen of libcurl at the first request (Linux only), in C: libcurl
        // for HTTPTransport on Linux, loaded with dlopen at the first request, so that a
        // command that makes none (most of dbgen's) never maps libcurl or what it links. curl.h
        // (Debian: libcurl4-openssl-dev) gives the types and constants; nothing links libcurl.
        // Linux only: Apple platforms use URLSession, and their SDKs have no curl.h.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // The raw HTTP client: a capped, streamed GET with a deadline; no TUF, no Crypto (no product;
        // public API for the package's clients): a GET with header fields (Range, If-Range,
        // If-None-Match) or a POST of a body (the sync's requests; no redirect followed), the
        // answer's body streamed to a handler, a cap fixed
        // before the request on every byte accepted, `Accept-Encoding: identity` and compressed
        // answers refused, a total deadline and a stall timeout on every request. libcurl (CCurl)
        // on Linux, driven from a thread of its own that sleeps while the server is silent;
        // URLSession's delegate API on Apple platforms. It links neither TUF nor Crypto: FeedClient
        // and the user database's sync client share it (scripts/check-app-links.sh checks it).
        .target(
            name: "HTTPTransport",
            dependencies: [
                "ShipyardVersion", "EssentialsSupport", .byName(name: "CCurl", condition: .when(platforms: [.linux])),
            ]),
        // The over-the-air client an app links: check a signed feed, download, verify, install;
        // beside LayeredDatabase, so that an app that does not
        // update over the air links no networking: Transport/ is its HTTP over HTTPTransport
        // (URLSession on Apple platforms, libcurl loaded at the first request on Linux): TUF's
        // metadata fetcher and the resumable, capped, hashed download of a target.
        // PrivacyInfo.xcprivacy: the required-reason APIs that FeedClient and what it links call
        // (FeedClientTests' PrivacyManifestTests keeps it true); the Apple APIs it and HTTPTransport
        // call, with their OS versions, are in its DocC catalog (URLLoadingAvailabilityTests).
        // LayeredDatabase: UpdateInstaller installs what the feed's client verified (Update/).
        .target(
            name: "FeedClient",
            dependencies: [
                "TUF", "HTTPTransport", "FileSystemKit", "CZlib", "CBZip2", "LayeredDatabase", "EssentialsSupport",
            ],
            exclude: privacyManifest.exclude, resources: privacyManifest.resources),
        // The sync client an app links beside LayeredDatabase: one sync of the user database through
        // the server (an app that does not sync links no networking): freezes batches of the captured edits, POSTs them through HTTPTransport
        // (URLSession on Apple platforms, libcurl loaded at the first request on Linux: never
        // FoundationNetworking, so dbgen, which links it, loads no HTTP library at start), applies
        // the answers in one transaction each, keeps the cursor, records conflicts.
        // PrivacyInfo.xcprivacy: the required-reason APIs it and what it links call
        // (SyncClientTests' PrivacyManifestTests keeps it true); the Apple APIs it calls, with their
        // OS versions, are in its DocC catalog (URLLoadingAvailabilityTests; HTTPTransport's are
        // FeedClient's table).
        .target(
            name: "SyncClient",
            dependencies: ["LayeredDatabase", "SQLiteCore", "SyncProtocol", "HTTPTransport", "EssentialsSupport"],
            exclude: privacyManifest.exclude, resources: privacyManifest.resources),
        // The release side of the feed: keys, publish, pull, verify, rotate, renew, prune
        // (`dbgen keys`, `dbgen feed`, `dbgen publish`): keys, signed
        // metadata, whole databases and `dbgen diff` patches as deflated targets, each patch applied
        // by LayeredDatabase's updater while publishing; the feed check a device makes. A build tool's
        // library: an app never links it.
        .target(
            name: "FeedPublisher",
            dependencies: ["TUF", "FeedClient", "DBGenKit", "LayeredDatabase", "FileSystemKit", "EssentialsSupport"]),

        // The sync's wire format: values, rules, the hybrid logical clock, the schema model, the
        // messages and their codec (docs/Sync.md), shared by the device library and the server (the
        // Server/ package): values, rules, the hybrid logical clock, the declared-schema model, the
        // messages and their binary codec. Pure Swift and the system's zlib (a message may deflate
        // itself): no Foundation, no networking, so an app and a server link the same few files.
        .target(name: "SyncProtocol", dependencies: ["CZlib"]),

        // The error printer and exit path both executables share: compiler-style lines on standard
        // error, the exit status from ArgumentParser's error types (usage 64, failures 1), counts said
        // with their nouns.
        .target(
            name: "CommandLineDiagnostics",
            dependencies: ["FileSystemKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // dbgen's subcommands that need no network and no signatures, and its printer (build, check,
        // attach, diff, update; the progress bar): no product, `package` API. Two executables
        // list them: `dbgen` (with the over-the-air commands, which link TUF, FeedClient and so
        // swift-crypto) and `dbgen-plugin-tool` (these only).
        .target(
            name: "DBGenCommandLine",
            dependencies: [
                "DBGenKit", "LayeredDatabase", "SQLiteCore", "CommandLineDiagnostics", "FileSystemKit",
                "EssentialsSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Executables (thin)
        // The dbgen command: argument parsing, output, and the over-the-air subcommands (keys, feed,
        // publish, fetch), which link TUF, FeedClient and so swift-crypto.
        .executableTarget(
            name: "dbgen",
            dependencies: [
                "DBGenCommandLine", "CommandLineDiagnostics", "SQLiteCore", "FeedPublisher", "FeedClient", "TUF",
                "SyncClient", "FileSystemKit", "EssentialsSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // dbgen without the over-the-air commands, for the plugins built from source: what the dbgen
        // plugins run when a consumer builds Shipyard from source (no product). A plugin's tool is compiled in the consumer's
        // build, and SwiftPM compiles its C code again each time it plans that build (issue 28,
        // docs/Plugins.md): linking swift-crypto would add BoringSSL's ~790 C files to every plan
        // on Linux. So this one links no TUF, FeedClient or Crypto (scripts/check-app-links.sh
        // checks its closure, EndToEndTests that its help reads as dbgen's). The plugins look it
        // up first and fall back to `dbgen`, the binary the prebuilt ShipyardPlugins package ships.
        .executableTarget(
            name: "dbgen-plugin-tool",
            dependencies: [
                "DBGenCommandLine", "SQLiteCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The versionstamp command: argument parsing and output.
        .executableTarget(
            name: "versionstamp",
            dependencies: [
                "VersionStampKit", "CommandLineDiagnostics",
                .byName(name: "CGit2Loader", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the benchmark scripts time that no command isolates (the SHA-256 of a file, with
        // either compression): scripts/bench-sha256.sh. No product, never installed.
        .executableTarget(name: "shipyard-bench", dependencies: ["FileSystemKit"]),
        // The TUF conformance suite's client-under-test command (theupdateframework/tuf-conformance).
        .executableTarget(name: "tuf-client", dependencies: ["TUF", "FeedClient"]),

        // MARK: Plugins (thin: locate the tool, forward arguments / declare build commands)
        // `swift package dbgen`: runs dbgen with no permission to write. The command plugins
        // declare no permission, so read-only commands (`dbgen check`, `dbgen diff`, `versionstamp
        // print`) run with no flag and no prompt; a writing command passes
        // `--allow-writing-to-package-directory`, which SwiftPM grants to any plugin. The `-write`
        // twins declare the permission: Xcode grants a plugin only what it declares.
        .plugin(
            name: "DBGenCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "dbgen",
                    description:
                        "Run dbgen (check and diff need no permission; a command that writes into the package needs --allow-writing-to-package-directory, or use dbgen-write)"
                )),
            dependencies: ["dbgen-plugin-tool"]
        ),
        // `swift package dbgen-write`: runs dbgen with permission to write.
        .plugin(
            name: "DBGenWriteCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "dbgen-write",
                    description: "Run dbgen with permission to write into the package (build, update, attach)"),
                permissions: [
                    .writeToPackageDirectory(reason: "dbgen writes the database it builds or updates into the package")
                ]
            ),
            dependencies: ["dbgen-plugin-tool"]
        ),
        // `swift package versionstamp`: runs versionstamp with no permission to write.
        .plugin(
            name: "VersionStampCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "versionstamp",
                    description:
                        "Print the git-derived build version (stamp needs --allow-writing-to-package-directory, or use versionstamp-write)"
                )),
            dependencies: ["versionstamp"]
        ),
        // `swift package versionstamp-write`: runs versionstamp with permission to write.
        .plugin(
            name: "VersionStampWriteCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "versionstamp-write",
                    description: "Run versionstamp with permission to write into the package (stamp plists)"),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "versionstamp stamp writes the build version into the plists you name")
                ]
            ),
            dependencies: ["versionstamp"]
        ),
        // Builds each NAME.dbgen.txt into NAME.sqlite during the build (a resource of the target).
        .plugin(name: "DBGenBuildToolPlugin", capability: .buildTool(), dependencies: ["dbgen-plugin-tool"]),
        // Generates BuildVersion.swift from the git revision during the build (`versionstamp stamp --swift`).
        .plugin(name: "VersionConstantsBuildToolPlugin", capability: .buildTool(), dependencies: ["versionstamp"]),

        // MARK: Tests
        // What the test targets share: processes, temporary directories, oracles, servers (one
        // process runner; sqlite3, sqldiff, git, python3; nginx and a fault-injecting HTTP server;
        // seeded generators).
        .target(name: "ShipyardTestSupport", path: "Tests/ShipyardTestSupport"),
        .testTarget(
            name: "SystemLibraryTests",
            dependencies: [
                "CSQLite", "CGit2", "CLibXML2", "ShipyardTestSupport",
                .byName(name: "CGit2Loader", condition: .when(platforms: [.linux])),
            ],
            linkerSettings: [.linkedLibrary("git2", .when(platforms: [.macOS]))]),
        .testTarget(
            name: "ShellExtensionsTests", dependencies: ["CShellExtensions", "CSQLite", "ShipyardTestSupport"]),
        .testTarget(name: "SQLiteCoreTests", dependencies: ["SQLiteCore", "ShipyardTestSupport"]),
        .testTarget(name: "FileSystemKitTests", dependencies: ["FileSystemKit", "ShipyardTestSupport"]),
        // Foundation is the oracle: each helper gives what the Foundation API it replaces gives.
        .testTarget(
            name: "EssentialsSupportTests",
            dependencies: ["EssentialsSupport", "ToolConfiguration", "ShipyardTestSupport"]),
        .testTarget(
            name: "DBGenKitTests",
            dependencies: ["DBGenKit", "FileSystemKit", "SQLiteCore", "SQLiteSession", "ShipyardTestSupport"]),
        // CSQLite: only to emulate Apple's SQLite build defaults on every connection
        // (SHIPYARD_APPLE_SQLITE_DEFAULTS=1), and to open a connection as GRDB does: Support/OtherSQLiteBuilds.swift.
        .testTarget(
            name: "LayeredDatabaseTests",
            dependencies: ["LayeredDatabase", "SyncProtocol", "CSQLite", "ShipyardTestSupport"]),
        // SyncProtocol builds the server's answers the apply logic is tested with (no server).
        .testTarget(
            name: "SyncClientTests",
            dependencies: ["SyncClient", "LayeredDatabase", "SQLiteCore", "SyncProtocol", "ShipyardTestSupport"]),
        // DBGenKit: the tests' own feed writer makes patches with `dbgen diff`'s code; dbgen: `dbgen fetch`
        // killed with SIGKILL mid-download and mid-install.
        .testTarget(
            name: "FeedClientTests",
            dependencies: [
                "FeedClient", "FileSystemKit", "DBGenKit", "LayeredDatabase", "TUF", "dbgen", "ShipyardTestSupport",
            ]),
        // The HTTP client against the fault-injecting server: caps in every framing, refused encodings,
        // deadlines and stalls, redirects, cancellation.
        .testTarget(
            name: "HTTPTransportTests", dependencies: ["HTTPTransport", "ShipyardVersion", "ShipyardTestSupport"]),
        // python-tuf reads every feed the publisher writes; sqlite3 applies its patches.
        .testTarget(
            name: "FeedPublisherTests",
            dependencies: ["FeedPublisher", "FeedClient", "TUF", "DBGenKit", "LayeredDatabase", "ShipyardTestSupport"]),
        .testTarget(
            name: "VersionStampKitTests", dependencies: ["VersionStampKit", "ShipyardTestSupport"],
            exclude: ["Fixtures"]),
        // python-tuf (PyPI `tuf`, installed by scripts/setup.sh) is the oracle both ways.
        .testTarget(name: "TUFTests", dependencies: ["TUF", "FeedClient", "tuf-client", "ShipyardTestSupport"]),
        // SyncProtocol: `dbgen sync`'s tests build the server's answers and read its requests.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["dbgen", "dbgen-plugin-tool", "versionstamp", "SyncProtocol", "ShipyardTestSupport"]),
        // python3 decodes what SyncProtocol encodes, with a decoder written from docs/Sync.md.
        .testTarget(name: "SyncProtocolTests", dependencies: ["SyncProtocol", "ShipyardTestSupport"]),
        // Read from the sources: every library's folders form a one-way stack; no source is too long.
        .testTarget(name: "SourceLayoutTests", dependencies: ["ShipyardTestSupport"]),
        // The documentation checked against what it describes: every Swift block of the README and
        // the DocC articles type-checked against the built modules (which these dependencies build;
        // versionstamp generates BuildVersion.swift), ARCHITECTURE.md's target table against
        // `swift package describe`. AppleStubs/ is compiled by the tests, not by SwiftPM.
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "LayeredDatabase", "FeedClient", "TUF", "DBGenKit", "VersionStampKit", "SQLiteCore", "versionstamp",
                "ShipyardTestSupport",
            ],
            exclude: ["AppleStubs"]),
    ]
)
