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

/// What one step of reading a script produced.
enum ScriptItem: Equatable {
    /// SQL that `sqlite3_complete` calls complete (or, at end of input, whatever was pending).
    case sql(SQLChunk, complete: Bool)
    /// A dot-command line (starting with `.` in column 1 while no SQL is pending).
    case dotCommand(String, line: Int)
}

/// SQL text collected from one or more script lines, ready for `sqlite3_prepare`, with what is
/// needed to map a byte offset in it back to a line and column of the script.
struct SQLChunk: Equatable {
    /// The SQL: lines joined with `\n`, leading whitespace of the first line removed (as the shell does).
    var text: [UInt8]
    /// For each line in `text`: where it starts in `text`, its line number in the file, and
    /// how many characters were removed from its start.
    var lines: [(offset: Int, line: Int, removedColumns: Int)]

    static func == (a: SQLChunk, b: SQLChunk) -> Bool {
        a.text == b.text && a.lines.map(\.offset) == b.lines.map(\.offset)
            && a.lines.map(\.line) == b.lines.map(\.line)
    }

    /// The line and 1-based column (in characters) of byte `offset` of `text`.
    func position(ofByte offset: Int) -> (line: Int, column: Int) {
        let clamped = max(0, min(offset, text.count))
        var entry = lines[0]
        for candidate in lines where candidate.offset <= clamped { entry = candidate }
        var characters = 0
        for byte in text[entry.offset..<clamped] where byte & 0xC0 != 0x80 { characters += 1 }
        return (entry.line, entry.removedColumns + characters + 1)
    }

    /// The SQL as a string.
    var string: String { String(decoding: text, as: UTF8.self) }
}
