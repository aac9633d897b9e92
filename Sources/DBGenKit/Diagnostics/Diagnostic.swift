/// A compiler-style message for the user: `PATH:LINE[:COL]: warning: MESSAGE` (or `error:`),
/// so editors and Xcode jump to it.
///
/// A build hands its warnings to ``BuildOptions/diagnosticHandler`` as they happen; errors are
/// thrown as ``DBGenError`` (whose ``DBGenError/diagnostic`` renders them the same way).
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious the message is.
    public enum Severity: String, Hashable, Sendable {
        /// The build stops.
        case error
        /// The build goes on (`--strict` turns warnings into errors).
        case warning
    }

    /// How serious the message is.
    public var severity: Severity
    /// Where its cause is, when it has one.
    public var location: SourceLocation?
    /// What happened, phrased for the user.
    public var message: String

    /// A diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// Shorthand for a warning.
    static func warning(_ message: String, at location: SourceLocation? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    /// `PATH:LINE[:COL]: severity: message`, or `dbgen: severity: message` without a location.
    public var description: String {
        "\(location?.prefix ?? "dbgen"): \(severity.rawValue): \(message)"
    }
}
