#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Syncs a user database with a Shipyard sync server: what an app links beside LayeredDatabase
/// (docs/Sync.md has the model and the rules).
///
/// ```swift
/// let sync = UserDatabaseSync(
///     databasePath: documents + "/user.sqlite",
///     serverURL: URL(string: "https://sync.example.com")!,
///     token: { try await session.freshToken() })
/// let report = try await sync.sync()   // report.sent, report.received, report.conflicts
/// ```
///
/// The user database must declare what syncs (`shipyard_sync`); a template built by `dbgen`
/// from such a script carries the capture from the first launch, so every write, by any
/// connection, is queued. Each ``sync()`` opens its own connection: the app goes on reading
/// and writing through its own meanwhile (the database is in WAL mode once it has synced), and
/// writes made during a sync are sent by the next. Calls of ``sync()`` run one after another.
/// Cancelling the task stops between two requests; nothing local is ever lost
/// (``SyncClientError``).
public actor UserDatabaseSync {
    /// The user database file.
    public nonisolated let databasePath: String
    /// The server's base URL (requests go to `v1/sync` under it).
    public nonisolated let serverURL: URL
    private let token: @Sendable () async throws -> String
    private let configuration: SyncConfiguration
    private let transport: any SyncTransport
    private let clock: @Sendable () -> Int64
    /// The last sync started: the next waits for it.
    private var last: Task<Void, Never>?

    /// A sync of the user database at `databasePath` with the server at `serverURL`.
    ///
    /// - Parameters:
    ///   - databasePath: The user database file (its schema declares what syncs).
    ///   - serverURL: The server's base URL; requests go to `v1/sync` under it.
    ///   - token: Called before each request for the bearer token (a JWT whose `sub` is the
    ///     user); throw to stop the sync.
    ///   - configuration: Batch sizes, timeouts, caps.
    public init(
        databasePath: String, serverURL: URL, configuration: SyncConfiguration = SyncConfiguration(),
        token: @escaping @Sendable () async throws -> String
    ) {
        self.init(
            databasePath: databasePath, serverURL: serverURL, configuration: configuration, token: token,
            transport: HTTPSyncTransport(), clock: Self.systemClock)
    }

    /// A sync over another transport and clock (tests).
    package init(
        databasePath: String, serverURL: URL, configuration: SyncConfiguration = SyncConfiguration(),
        token: @escaping @Sendable () async throws -> String, transport: any SyncTransport,
        clock: @escaping @Sendable () -> Int64
    ) {
        self.databasePath = databasePath
        self.serverURL = serverURL
        self.configuration = configuration
        self.token = token
        self.transport = transport
        self.clock = clock
    }

    /// Milliseconds since 1970 by the system's clock.
    package static let systemClock: @Sendable () -> Int64 = {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Runs one sync: sends every local change made up to now, receives every change the server
    /// has, applies them, and reports what it did.
    ///
    /// - Throws: ``SyncClientError``; every change not acknowledged is still queued, and what was
    ///   applied before the error stays.
    public func sync() async throws -> SyncReport {
        let previous = last
        let run = SyncRun(
            databasePath: databasePath, serverURL: serverURL, token: token, configuration: configuration,
            transport: transport, clock: clock)
        let task = Task {
            await previous?.value
            return try await run.run()
        }
        last = Task { _ = try? await task.value }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
