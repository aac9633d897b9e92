import Foundation
import Hummingbird
import Logging
import SyncServer

/// The sync server run inside the test process on 127.0.0.1 and a free port, over databases
/// given by URL; ``stop()`` shuts it down.
public final class InProcessSyncServer: Sendable {
    /// The port it listens on.
    public let port: Int
    private let task: Task<Void, any Error>

    /// The base URL, `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts a server with `configuration` over the databases at `postgresURLs` (and their
    /// read replicas at `replicaURLs`: none, or one each).
    public init(
        configuration: SyncServerConfiguration, postgresURLs: [String], replicaURLs: [String] = [],
        connections: Int = 8
    ) async throws {
        let databases = try postgresURLs.map { try PostgresURL($0).configuration }
        let replicas = try replicaURLs.map { try PostgresURL($0).configuration }
        var logger = Logger(label: "sync-server-test")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = SyncServerApplication.make(
            configuration: configuration, databases: databases, replicas: replicas, host: "127.0.0.1", port: 0,
            connectionsPerDatabase: connections, logger: logger
        ) { port in
            continuation.yield(port)
        }
        let task = Task {
            defer { continuation.finish() }
            try await application.runService(gracefulShutdownSignals: [])
        }
        self.task = task
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            let reason: String
            do {
                try await task.value
                reason = "it stopped"
            } catch {
                reason = "\(error)"
            }
            throw TestSupportError("the sync server did not start: \(reason)")
        }
        self.port = port
    }

    /// Stops the server and waits until it has.
    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
