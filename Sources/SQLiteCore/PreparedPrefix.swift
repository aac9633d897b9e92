import CSQLite

/// One statement compiled from the front of a longer SQL text (see
/// ``Connection/prepareFirst(of:byteCount:)``).
package struct PreparedPrefix {
    /// The statement, or nil when the text held only whitespace or comments.
    package let statement: Statement?
    /// How many bytes of the text the statement (with its leading trivia) took.
    package let consumedBytes: Int
}
