/// Why a document is not JSON this client accepts.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The byte offset where reading stopped.
    public let offset: Int
    /// What was wrong there.
    public let reason: String

    /// An error at a byte offset.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
