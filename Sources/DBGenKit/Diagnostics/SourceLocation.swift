/// A place in an input file: a schema script, an included script or a CSV file.
public struct SourceLocation: Hashable, Sendable {
    /// The path as it should be shown to the user (as written, resolved against the script).
    public var path: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column (in characters of the line), when known.
    public var column: Int?

    /// A location; `column` nil when only the line is known.
    public init(path: String, line: Int, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `PATH:LINE[:COL]`.
    var prefix: String {
        "\(path):\(line)" + (column.map { ":\($0)" } ?? "")
    }
}
