/// Why a message could not be decoded: the field that failed and what is wrong with it.
public struct SyncDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Whether the message is malformed or over a limit (a server answers 400 or 413).
    public enum Kind: Hashable, Sendable {
        /// The bytes do not follow the format.
        case malformed
        /// The message is larger than a ``SyncLimits`` allows.
        case overLimit
    }

    /// Malformed or over a limit.
    public var kind: Kind
    /// The field, as a path from the message: `request.batch.rows[3].cells[0].column`.
    public var field: String
    /// What is wrong with it.
    public var problem: String

    /// The failure of `field`.
    public init(_ kind: Kind, field: String, problem: String) {
        self.kind = kind
        self.field = field
        self.problem = problem
    }

    /// `FIELD: PROBLEM`.
    public var description: String { "\(field): \(problem)" }
}
