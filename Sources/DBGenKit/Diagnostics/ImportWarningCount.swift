/// How many rows of one imported file had one kind of warning: what `--json` carries where
/// the output shows only the first five and a count.
public struct ImportWarningCount: Codable, Hashable, Sendable {
    /// The file, as shown in its warnings.
    public var file: String
    /// The kind of warning.
    public var kind: ImportWarningKind
    /// How many times it was given (those reported one by one included).
    public var count: Int
    /// The line of the first.
    public var firstLine: Int

    /// A count.
    public init(file: String, kind: ImportWarningKind, count: Int, firstLine: Int) {
        self.file = file
        self.kind = kind
        self.count = count
        self.firstLine = firstLine
    }
}
