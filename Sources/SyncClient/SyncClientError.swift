/// Why a sync stopped. Whatever the error, nothing local is lost: every change not yet
/// acknowledged by the server is still queued (in the outbox, or in the batch in flight that the
/// next sync sends again), and what was applied before the error stays applied.
///
/// ``description`` is `WHAT: error: WHY`, as `dbgen sync` prints it.
public enum SyncClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The user database declares nothing that syncs, or its declarations are refused.
    case declarations(String)
    /// Reading or writing the user database failed.
    case database(String)
    /// The token provider failed.
    case token(String)
    /// The request could not be made or its answer not read (no connection, a timeout, an answer
    /// over the size cap).
    case transport(String)
    /// The server refused the request: its HTTP status and the reason it gave.
    case refused(status: Int, reason: String)
    /// The server's answer is not a valid answer to the request.
    case invalidAnswer(String)
    /// The sync was cancelled between two requests.
    case cancelled

    /// What failed: the user database, the server, or the sync.
    public var subject: String {
        switch self {
        case .declarations, .database: return "user database"
        case .transport, .refused, .invalidAnswer: return "server"
        case .token: return "token"
        case .cancelled: return "sync"
        }
    }

    /// Why.
    public var reason: String {
        switch self {
        case .declarations(let reason), .database(let reason), .transport(let reason), .invalidAnswer(let reason),
            .token(let reason):
            return reason
        case .refused(let status, let reason): return "HTTP \(status): \(reason)"
        case .cancelled: return "cancelled (what was applied stays; the batch in flight is sent again next time)"
        }
    }

    /// `WHAT: error: WHY`.
    public var description: String { "\(subject): error: \(reason)" }
}
