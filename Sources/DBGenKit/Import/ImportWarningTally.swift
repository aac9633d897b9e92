/// Counts one import's warnings per kind so a flood costs nothing: the first
/// ``reportedPerKind`` of a kind are reported one by one, with their lines, as sqlite3 prints
/// them; the rest only counted, and summed up in one warning when the import ends
/// (`lineitem.tbl:1: warning: 6001215 rows had 17 fields, expected 16 - extras ignored (first
/// at line 1)`). Memory and time per warned row are a few integer operations. An import that
/// stops with an error prints no summing-up line: the build failed, and the error is what to
/// fix first.
struct ImportWarningTally: Sendable {
    /// Warnings of one kind reported one by one in an import before they are only counted.
    static let reportedPerKind = 5

    private struct Entry: Sendable {
        var count = 0
        var firstLine = 0
        /// Fields found in the rows warned about (missing and extra fields), smallest and largest.
        var fewestFields = Int.max
        var mostFields = 0
        /// When this kind was first met, to sum kinds up in the order they appeared.
        var order = 0
    }

    /// The table's column count (what the rows were expected to have), once known.
    var expectedFields = 0
    private var entries = [Entry](repeating: Entry(), count: ImportWarningKind.allCases.count)
    private var kindsSeen = 0

    /// Every warning counted so far.
    var total: Int { entries.reduce(0) { $0 + $1.count } }

    /// Counts a warning of `kind` at `line` (for field-count warnings, a row of `fields`
    /// fields); true when it is to be reported on its own.
    @inline(__always)
    mutating func count(_ kind: ImportWarningKind, line: Int, fields: Int = 0) -> Bool {
        let index = Self.index(kind)
        if entries[index].count == 0 {
            entries[index].firstLine = line
            entries[index].order = kindsSeen
            kindsSeen += 1
        }
        entries[index].count += 1
        if fields < entries[index].fewestFields { entries[index].fewestFields = fields }
        if fields > entries[index].mostFields { entries[index].mostFields = fields }
        return entries[index].count <= Self.reportedPerKind
    }

    /// The warnings that sum up the kinds with more than ``reportedPerKind``, in the order the
    /// kinds first appeared, located at their first line.
    func summaries(file: String) -> [Diagnostic] {
        ImportWarningKind.allCases
            .filter { entries[Self.index($0)].count > Self.reportedPerKind }
            .sorted { entries[Self.index($0)].order < entries[Self.index($1)].order }
            .map { kind in
                let entry = entries[Self.index(kind)]
                var summary = Diagnostic.warning(
                    message(kind, entry), at: SourceLocation(path: file, line: entry.firstLine))
                summary.importWarning = kind
                summary.foldedCount = entry.count - Self.reportedPerKind
                return summary
            }
    }

    private func message(_ kind: ImportWarningKind, _ entry: Entry) -> String {
        let first = "(first at line \(entry.firstLine))"
        let fields =
            entry.fewestFields == entry.mostFields
            ? "\(entry.mostFields) field\(entry.mostFields == 1 ? "" : "s")"
            : "\(entry.fewestFields) to \(entry.mostFields) fields"
        switch kind {
        case .missingFields:
            return "\(entry.count) rows had \(fields), expected \(expectedFields) - filling the rest with NULL \(first)"
        case .extraFields:
            return "\(entry.count) rows had \(fields), expected \(expectedFields) - extras ignored \(first)"
        case .unescapedQuote:
            return "\(entry.count) unescaped \" characters \(first)"
        }
    }

    @inline(__always)
    private static func index(_ kind: ImportWarningKind) -> Int {
        switch kind {
        case .missingFields: return 0
        case .extraFields: return 1
        case .unescapedQuote: return 2
        }
    }
}
