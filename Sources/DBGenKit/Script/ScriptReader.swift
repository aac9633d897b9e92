/// Reads a script the way the sqlite3 shell's `process_input` does, one item at a time: lines
/// split as its `local_getline` splits them (a line ends at `\n`; a `\r` just before the `\n`
/// is dropped, so CRLF scripts read as LF ones), grouped by ``ScriptStatementSplitter`` into
/// complete SQL chunks and dot-commands, with the SQL still pending at the end (if any) last.
///
/// ``ScriptRunner`` runs the items as they are read (a `.quit` stops the reading there).
struct ScriptReader: Sequence, IteratorProtocol {
    private let data: [UInt8]
    private var start = 0
    private var lineNumber = 0
    private var splitter = ScriptStatementSplitter()
    private var finished = false

    /// A reader of the script `data`.
    init(_ data: [UInt8]) {
        self.data = data
    }

    /// The next complete SQL chunk or dot-command, or nil at the end of the script.
    mutating func next() -> ScriptItem? {
        while let line = nextLine() {
            if let item = splitter.feed(line, lineNumber: lineNumber) { return item }
        }
        guard !finished else { return nil }
        finished = true
        return splitter.finish()
    }

    /// The next line without its terminator, or nil at the end of the data.
    private mutating func nextLine() -> [UInt8]? {
        let count = data.count
        guard start < count else { return nil }
        var index = start
        while index < count, data[index] != 0x0A { index += 1 }
        var end = index
        if index < count, end > start, data[end - 1] == 0x0D { end -= 1 }
        let line = Array(data[start..<end])
        start = index + 1
        lineNumber += 1
        return line
    }
}
