/// What a subcommand throws when it fails after reporting nothing yet: the errors to write, and
/// the exit status unless they are all usage errors (see
/// ``DiagnosticPrinter/exit(_:root:in:isUsageError:)``).
public struct CommandFailure: Error {
    /// The errors, written one line each in this order.
    public var errors: [Error]
    /// The exit status: 1, or what the subcommand documents (`versionstamp stamp --check`: 2).
    public var status: Int32

    /// A failure reporting `errors`, exiting with `status`.
    public init(errors: [Error], status: Int32 = 1) {
        self.errors = errors
        self.status = status
    }
}
