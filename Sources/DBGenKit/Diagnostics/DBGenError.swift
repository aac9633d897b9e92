/// Why a build (or a check) stopped: what kind of failure, where its cause is and what happened.
///
/// Match on ``code`` to react to a kind of failure; ``location`` names the script or data line
/// (with a column for SQL errors) when the failure has one; ``description`` is the
/// compiler-style line `PATH:LINE[:COL]: error: MESSAGE` a command-line tool prints.
public struct DBGenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: String, Hashable, Sendable {
        /// A SQL statement of the script failed to compile or to run.
        case sql
        /// A dot-command is unknown or its arguments are wrong.
        case dotCommand
        /// The script asked for something dbgen never does: run a program, write a file other
        /// than the output, load code.
        case refused
        /// A file the build reads (schema, `.read` script, `.import` data) is missing or unreadable.
        case input
        /// An `.import`'s data cannot be loaded (unterminated quote, a row the table rejects).
        case importData
        /// The output (or a file beside it: depfile, temporary) cannot be written.
        case output
        /// A warning, made an error by ``BuildOptions/strict``.
        case warningAsError
        /// A database to compare cannot be read (`check`).
        case unreadableDatabase
        /// The configuration file (``BuildOptions/configurationFile``, `dbgen.json`) cannot be
        /// read, is not a JSON object, or holds an unknown key or a value of the wrong type.
        case configuration
        /// The script read a file outside the directories the build system watches
        /// (``BuildOptions/inputRoots``): a change to it would not make the build run again.
        case unwatchedInput
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, phrased for the user.
    public var message: String
    /// Where the cause is, when known.
    public var location: SourceLocation?

    /// An error.
    public init(_ code: Code, _ message: String, at location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// The error as a diagnostic (severity `.error`).
    public var diagnostic: Diagnostic { Diagnostic(.error, message, at: location) }

    /// `PATH:LINE[:COL]: error: MESSAGE`, or `dbgen: error: MESSAGE` without a location.
    public var description: String { diagnostic.description }

    /// The same error, located at `location` unless it already has a location.
    func located(at location: SourceLocation) -> DBGenError {
        var copy = self
        if copy.location == nil { copy.location = location }
        return copy
    }
}
