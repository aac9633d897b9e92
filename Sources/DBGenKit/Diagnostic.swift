/// A place in an input file: a schema script, an included script or a CSV file.
public struct SourceLocation: Hashable, Sendable {
    /// The path as it should be shown to the user (as written, resolved against the script).
    public var path: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column (in characters of the line), when known.
    public var column: Int?

    public init(path: String, line: Int, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }
}

/// A compiler-style message: `PATH:LINE[:COL]: error: MESSAGE`, so editors and Xcode jump to it.
///
/// Errors are thrown as `Diagnostic` values with `severity == .error`; warnings are passed to a
/// ``DiagnosticHandler`` and the build goes on (unless `--strict` turns them into errors).
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        case error
        case warning
    }

    public var severity: Severity
    public var location: SourceLocation?
    public var message: String

    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// Shorthand for an error diagnostic.
    public static func error(_ message: String, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    /// Shorthand for a warning diagnostic.
    public static func warning(_ message: String, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    /// `PATH:LINE[:COL]: severity: message`, or `dbgen: severity: message` without a location.
    public var description: String {
        guard let location else { return "dbgen: \(severity.rawValue): \(message)" }
        var prefix = "\(location.path):\(location.line)"
        if let column = location.column { prefix += ":\(column)" }
        return "\(prefix): \(severity.rawValue): \(message)"
    }
}

/// Receives warnings as they happen. Throwing from it (as `--strict` does) stops the build.
public typealias DiagnosticHandler = (Diagnostic) throws -> Void
