/// What one step of reading a script produced.
enum ScriptItem: Equatable {
    /// SQL that `sqlite3_complete` calls complete (or, at end of input, whatever was pending).
    case sql(SQLChunk, complete: Bool)
    /// A dot-command line (starting with `.` in column 1 while no SQL is pending).
    case dotCommand(String, line: Int)
}
