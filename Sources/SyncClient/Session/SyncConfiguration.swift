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

/// How a ``UserDatabaseSync`` talks to the server.
public struct SyncConfiguration: Sendable {
    /// The most rows of local edits in one request's batch (the server takes at most 5,000).
    public var batchRows = 1_000
    /// The most cells the server puts in one answer (0: the server's default).
    public var pullLimit: UInt64 = 0
    /// How long a request may go without progress, in seconds (at least 1).
    public var idleTimeout: TimeInterval = 30
    /// How long one request may take in all, in seconds.
    public var requestDeadline: TimeInterval = 120
    /// The most bytes of an answer's body (a longer answer fails the sync, nothing applied).
    public var maximumAnswerBytes = 32 << 20
    /// The most requests of one sync (a safety net against a server that always says `more`).
    public var maximumRequests = 100_000

    /// The defaults.
    public init() {}
}
