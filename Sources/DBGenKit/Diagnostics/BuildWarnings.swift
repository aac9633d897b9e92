/// The warnings of one build as the summary keeps them: the lines reported (so a flood of
/// per-row `.import` warnings is there as its first few and the line summing it up, never
/// millions of entries), how many warnings there were in all, and per imported file and kind
/// how many rows had one.
struct BuildWarnings {
    /// Warnings as printed (`PATH:LINE: warning: MESSAGE`).
    private(set) var lines: [String] = []
    /// Every warning, the ones only counted included.
    private(set) var count = 0
    /// Per imported file and kind of per-row warning, in the order first met.
    private(set) var importCounts: [ImportWarningCount] = []
    private var importIndex: [Key: Int] = [:]

    private struct Key: Hashable {
        var file: String
        var kind: ImportWarningKind
    }

    /// Records a warning reported to the user.
    mutating func add(_ warning: Diagnostic) {
        lines.append(warning.description)
        let stands = warning.foldedCount > 0 ? warning.foldedCount : 1
        count += stands
        guard let kind = warning.importWarning, let location = warning.location else { return }
        let key = Key(file: location.path, kind: kind)
        if let index = importIndex[key] {
            importCounts[index].count += stands
        } else {
            importIndex[key] = importCounts.count
            importCounts.append(
                ImportWarningCount(file: location.path, kind: kind, count: stands, firstLine: location.line))
        }
    }
}
