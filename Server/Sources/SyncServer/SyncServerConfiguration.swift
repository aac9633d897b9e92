import Foundation
import SyncProtocol

/// What a sync server needs besides its database: the schema that says what syncs, the token
/// verifier, the limits and the clock skew allowed.
public struct SyncServerConfiguration: Sendable {
    /// The synced tables and columns (from `--schema`).
    public var schema: SyncSchema
    /// Verifies bearer tokens (from `--jwks`).
    public var verifier: TokenVerifier
    /// How far ahead of the server's clock a request's clock or an edit's HLC may be (default 5 minutes).
    public var maximumClockSkewMilliseconds: Int64 = 300_000
    /// The decoder's limits: 8 MiB on the wire, 32 MiB inflated, 5,000 rows per batch by default.
    public var limits: SyncLimits = .standard
    /// The most cells an answer pulls when the request asks for no limit (its `limit` is 0).
    public var defaultPullLimit: Int = 10_000
    /// The most cells an answer pulls, whatever the request asks.
    public var maximumPullLimit: Int = 100_000
    /// How long a request may wait for the database (a connection, then its transaction) before
    /// it is answered 503: when PostgreSQL is down, the pool keeps trying, and the device retries.
    public var databaseTimeoutSeconds: Double = 15
    /// How long a pull-only request waits for a read replica before the primary answers it.
    public var replicaTimeoutSeconds: Double = 2
    /// The server's clock in milliseconds since 1970 (a test may set its own).
    public var clock: @Sendable () -> Int64 = { SyncServerConfiguration.systemMilliseconds() }

    /// A configuration with the defaults of docs/Sync.md.
    public init(schema: SyncSchema, verifier: TokenVerifier) {
        self.schema = schema
        self.verifier = verifier
    }

    /// The system clock in milliseconds since 1970.
    public static func systemMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
