import Foundation
import Logging
import PostgresNIO
import SyncProtocol

/// The sync endpoint without HTTP: a request's headers and body in, a status and body out.
/// ``SyncRoutes`` puts it on a Hummingbird router. Every refusal happens before the
/// transaction, or rolls it back: a refused request writes nothing.
public struct SyncService: Sendable {
    /// The configuration.
    public let configuration: SyncServerConfiguration
    private let databases: SpacePartition
    private let replicas: SpacePartition?
    private let logger: Logger

    /// A service over one database per entry of `clients` (spaces spread by a hash of their
    /// name; one entry for one database), and optionally a streaming replica of each, in the same
    /// order, that answers pull-only requests once it has caught up with the device
    /// (docs/Sync.md, "Scaling past one Postgres"). Each client must be running
    /// (`PostgresClient.run()`).
    public init(
        configuration: SyncServerConfiguration, clients: [PostgresClient], replicas: [PostgresClient] = [],
        logger: Logger
    ) {
        precondition(!clients.isEmpty, "a sync service needs a database")
        precondition(replicas.isEmpty || replicas.count == clients.count, "one replica per database, or none")
        self.configuration = configuration
        self.databases = SpacePartition(clients: clients)
        self.replicas = replicas.isEmpty ? nil : SpacePartition(clients: replicas)
        self.logger = logger
    }

    /// Creates or migrates the server's tables in every database.
    public func migrate() async throws {
        for client in databases.clients { try await StoreMigrations.migrate(client, logger: logger) }
    }

    /// The index of the database `space` lives in, among `count` databases (FNV-1a of its name,
    /// modulo `count`): every server process given the same list maps a space to the same one.
    public static func databaseIndex(ofSpace space: String, among count: Int) -> Int {
        SpacePartition.index(of: space, among: count)
    }

    /// The space a request may use: the one its token grants, which an optional `Shipyard-Space`
    /// header must name exactly.
    public func authorize(authorization: String?, requestedSpace: String?) async throws -> String {
        let space = try await configuration.verifier.space(authorization: authorization)
        if let requestedSpace, requestedSpace != space {
            throw SyncServerError.forbidden("the token does not grant space '\(requestedSpace)' (it grants '\(space)')")
        }
        return space
    }

    /// Answers the body of an authorized request for `space`.
    public func answer(space: String, body: [UInt8]) async throws -> [UInt8] {
        try await answerSayingWhere(space: space, body: body).answer
    }

    /// The answer, and whether a read replica gave it (``SyncRoutes`` says so in a header).
    func answerSayingWhere(space: String, body: [UInt8]) async throws -> (answer: [UInt8], fromReplica: Bool) {
        let request: SyncRequest
        do {
            request = try SyncRequest(decoding: body, limits: configuration.limits)
        } catch let error as SyncDecodingError {
            throw error.kind == .overLimit
                ? SyncServerError.tooLarge("\(error)") : SyncServerError.badRequest("\(error)")
        }
        let now = configuration.clock()
        let skew = configuration.maximumClockSkewMilliseconds
        if request.clock > UInt64(max(now + skew, 0)) {
            throw SyncServerError.badRequest(
                "request.clock: the device's clock is \(Int64(clamping: request.clock) - now) ms ahead of the server's "
                    + "(at most \(skew) ms allowed; server clock \(now))")
        }
        var checked: CheckedBatch? = nil
        if let batch = request.batch {
            guard batch.id <= UInt64(Int64.max) else {
                throw SyncServerError.badRequest("request.batch: id \(batch.id) is past 2^63 - 1")
            }
            checked = try CheckedBatch(
                batch, schema: configuration.schema, nowMilliseconds: now, maximumSkewMilliseconds: skew)
        }
        let limit =
            request.limit == 0
            ? configuration.defaultPullLimit : Int(min(request.limit, UInt64(configuration.maximumPullLimit)))
        let schema = configuration.schema
        if checked == nil, let replicas {
            // A replica that is behind, down or slow leaves the request to the primary.
            let replica = SyncStore(client: replicas.client(for: space), logger: logger)
            do {
                if let answer = try await Self.within(
                    seconds: configuration.replicaTimeoutSeconds,
                    {
                        try await replica.pullFromReplica(
                            space: space, request: request, schema: schema, pullLimit: limit, clock: now)
                    })
                {
                    return (answer.encoded(), true)
                }
            } catch {
                logger.warning("sync: the read replica failed, the primary answers: \(error)")
            }
        }
        let store = SyncStore(client: databases.client(for: space), logger: logger)
        let batch = checked
        let answer = try await Self.within(seconds: configuration.databaseTimeoutSeconds) {
            try await store.sync(
                space: space, request: request, batch: batch, schema: schema, pullLimit: limit, clock: now)
        }
        return (answer.encoded(), false)
    }

    /// `body`'s result, or a 503 when it takes longer than `seconds`. The answer does not wait
    /// for `body` to notice its cancellation (a connection lease of a pool whose database is down
    /// may not): the request is answered, and an open transaction rolls back with its connection.
    static func within<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T
    {
        let race = Race<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let work = Task {
                do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
            }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                if race.finish(
                    .failure(SyncServerError(status: 503, "the database did not answer within \(seconds) s; retry")))
                {
                    work.cancel()
                }
            }
        }
    }
}

/// The first of two outcomes resumes the continuation; the other is dropped.
private final class Race<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        lock.withLock { self.continuation = continuation }
    }

    /// Resumes with `result` if nothing did; returns whether it did.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let waiting = lock.withLock { () -> CheckedContinuation<T, any Error>? in
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: result)
        return waiting != nil
    }
}

/// Spaces spread across databases by a hash of their name (FNV-1a, 64 bits): every request
/// touches one space, so each database holds whole spaces (docs/Sync.md, "Scaling past one Postgres").
struct SpacePartition: Sendable {
    let clients: [PostgresClient]

    static func index(of space: String, among count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in space.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return Int(hash % UInt64(count))
    }

    func client(for space: String) -> PostgresClient { clients[Self.index(of: space, among: clients.count)] }
}
