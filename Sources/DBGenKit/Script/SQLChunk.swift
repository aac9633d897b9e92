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
