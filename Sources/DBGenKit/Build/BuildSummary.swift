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

/// What a build did, printed by `--json` and kept in the fingerprint sidecar.
public struct BuildSummary: Codable, Equatable, Sendable {
    /// One table of the output and its row count.
    public struct Table: Codable, Equatable, Sendable {
        /// The table's name.
        public var name: String
        /// Its row count.
        public var rows: Int
    }

    /// The output path as given (or defaulted).
    public var output: String
    /// True when the inputs were unchanged and nothing was written.
    public var upToDate: Bool
    /// Wall-clock seconds the command took.
    public var seconds: Double
    /// Every ordinary table of the output, by name.
    public var tables: [Table]
    /// Warnings as printed (`PATH:LINE: warning: MESSAGE`): a warning `.import` gives once
    /// per row (``ImportWarningKind``) is there at most five times per import and kind, then
    /// as the one line that sums the rest up.
    public var warnings: [String]
    /// Every warning the build gave, those only counted included.
    public var warningCount = 0
    /// Per imported file and kind of per-row warning, how many rows had it.
    public var importWarnings: [ImportWarningCount] = []
    /// Every input file, as shown to the user.
    public var inputs: [String]

    /// The summary as pretty, key-sorted JSON.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
