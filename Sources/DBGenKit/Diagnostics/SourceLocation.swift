/// A place in an input file: a schema script, an included script, a CSV file, or a whole file
/// (a database `diff` reads).
public struct SourceLocation: Hashable, Sendable {
    /// The path as it should be shown to the user (as written, resolved against the script).
    public var path: String
    /// 1-based line number; 0 for the file as a whole.
    public var line: Int
    /// 1-based column (in characters of the line), when known.
    public var column: Int?

    /// A location; `column` nil when only the line is known.
    public init(path: String, line: Int, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// The file at `path` as a whole (line 0, no column): shown as `PATH`.
    public init(file path: String) {
        self.init(path: path, line: 0)
    }

    /// `PATH:LINE[:COL]`, or `PATH` for a whole file.
    var prefix: String {
        guard line > 0 else { return path }
        return "\(path):\(line)" + (column.map { ":\($0)" } ?? "")
    }
}
