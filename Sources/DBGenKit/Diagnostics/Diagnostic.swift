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
    /// The kind of `.import` warning this is, for the warnings a file can give once per row
    /// (nil for every other diagnostic): per import and kind, the first few are reported one
    /// by one and the rest summed up in one warning (see ``foldedCount``).
    public var importWarning: ImportWarningKind?
    /// For the warning that sums up a flood (`lineitem.tbl:1: warning: 6001215 rows had 17
    /// fields, expected 16 - extras ignored (first at line 1)`): how many warnings of its kind
    /// it stands for that were not reported one by one. 0 for every other diagnostic.
    public var foldedCount = 0

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

    /// A warning `.import` may give once per row, of `kind`.
    static func importWarning(_ kind: ImportWarningKind, _ message: String, at location: SourceLocation) -> Diagnostic {
        var warning = Diagnostic(.warning, message, at: location)
        warning.importWarning = kind
        return warning
    }

    /// `PATH:LINE[:COL]: severity: message`, or `dbgen: severity: message` without a location.
    public var description: String {
        "\(location?.prefix ?? "dbgen"): \(severity.rawValue): \(message)"
    }
}
