/// The part of the sqlite3 shell's state that `.mode` and `.separator` change and that
/// `.import` reads: the output mode and the column and row separators, in the order given.
public struct ShellOutputSettings: Equatable, Sendable {
    public init() {}

    /// Applies `.mode NAME` as the 3.40 shell does (each mode resets some separators).
    public mutating func setMode(_ name: String) throws {
        throw Diagnostic.error("`.mode` is not implemented yet")
    }

    /// Applies `.separator COL [ROW]` (backslash escapes such as `\t`, `\n` resolved).
    public mutating func setSeparator(column: String, row: String?) {}

    /// The format `.import` uses with no `--csv`/`--ascii`, or an error as the shell gives one
    /// ("multi-character column separators not allowed for import", …).
    public func importFormat() throws -> ImportFormat {
        throw Diagnostic.error("`.import` is not implemented yet")
    }
}
