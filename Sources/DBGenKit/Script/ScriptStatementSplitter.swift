import SQLiteCore

/// Groups script lines into SQL statements and dot-commands the way the sqlite3 3.40 shell's
/// `process_input` does: a quick scan tracks quotes and comments across lines; text is handed
/// to SQL once a line ends, outside any quote or comment, with a `;` and `sqlite3_complete`
/// agrees; `.`/`#` lines count only when no SQL is pending; lines of only whitespace and
/// comments are dropped when nothing is pending; a line holding just `/` or `go` ends a statement.
struct ScriptStatementSplitter {
    private var pending: [UInt8] = []
    private var lines: [(offset: Int, line: Int, removedColumns: Int)] = []
    private var state = QuickScanState()

    init() {}

    /// Feeds one line (without its line terminator; a trailing `\r` already removed).
    mutating func feed(_ rawLine: [UInt8], lineNumber: Int) -> ScriptItem? {
        var line = rawLine
        if state.inPlain && Self.isCommandTerminator(line) && Self.isCompleteWithSemicolon(pending) {
            line = [UInt8(ascii: ";")]
        }
        state.scan(line)
        if state.isPlainWhite && pending.isEmpty {
            state = QuickScanState()
            return nil
        }
        if pending.isEmpty, let first = line.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "#") {
            state = QuickScanState()
            if first == UInt8(ascii: "#") { return nil }
            return .dotCommand(String(decoding: line, as: UTF8.self), line: lineNumber)
        }
        if pending.isEmpty {
            var start = 0
            while start < line.count, DotCommandTokenizer.isSpace(line[start]) { start += 1 }
            lines = [(0, lineNumber, start)]
            pending.append(contentsOf: line[start...])
        } else {
            pending.append(0x0A)
            lines.append((pending.count, lineNumber, 0))
            pending.append(contentsOf: line)
        }
        if state.endsWithSemicolon && Self.isComplete(pending) {
            return takePending(complete: true)
        } else if state.isPlainWhite {
            // A multi-line comment that closed with nothing else: dropped, as the shell does.
            _ = takePending(complete: true)
            return nil
        }
        return nil
    }

    /// Whatever SQL is still pending at end of input (the shell hands it to sqlite3 anyway).
    mutating func finish() -> ScriptItem? {
        guard !pending.isEmpty else { return nil }
        let complete = Self.isComplete(pending)
        return takePending(complete: complete)
    }

    private mutating func takePending(complete: Bool) -> ScriptItem {
        let chunk = SQLChunk(text: pending, lines: lines)
        pending = []
        lines = []
        state = QuickScanState()
        return .sql(chunk, complete: complete)
    }

    /// `sqlite3_complete` on raw bytes.
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        SQLiteLibrary.isComplete(bytes)
    }

    static func isCompleteWithSemicolon(_ bytes: [UInt8]) -> Bool {
        if bytes.isEmpty { return true }
        return isComplete(bytes + [UInt8(ascii: ";")])
    }

    /// A line holding only `/` or `go` (any case), with optional surrounding whitespace.
    static func isCommandTerminator(_ line: [UInt8]) -> Bool {
        var index = 0
        while index < line.count, DotCommandTokenizer.isSpace(line[index]) { index += 1 }
        guard index < line.count else { return false }
        if line[index] == UInt8(ascii: "/") {
            index += 1
        } else if index + 1 < line.count, line[index] | 0x20 == UInt8(ascii: "g"),
            line[index + 1] | 0x20 == UInt8(ascii: "o")
        {
            index += 2
        } else {
            return false
        }
        while index < line.count, DotCommandTokenizer.isSpace(line[index]) { index += 1 }
        return index == line.count
    }
}

/// The shell's `quickscan`: whether a line leaves us inside a quote or block comment, whether it
/// held any SQL text ("dark" characters) and whether it ended with a semicolon.
struct QuickScanState {
    /// The character that closes the open quote or comment (`*` for `*/`), or 0.
    var waitingFor: UInt8 = 0
    var hasDark = false
    var endsWithSemicolon = false

    var inPlain: Bool { waitingFor == 0 }
    var isPlainWhite: Bool { waitingFor == 0 && !hasDark }

    mutating func scan(_ line: [UInt8]) {
        var index = 0
        let count = line.count
        while index < count {
            let c = line[index]
            index += 1
            if waitingFor == 0 {
                if DotCommandTokenizer.isSpace(c) { continue }
                switch c {
                case UInt8(ascii: "-") where index < count && line[index] == UInt8(ascii: "-"):
                    return // the rest of the line is a comment
                case UInt8(ascii: ";"):
                    endsWithSemicolon = true
                    continue
                case UInt8(ascii: "/") where index < count && line[index] == UInt8(ascii: "*"):
                    index += 1
                    waitingFor = UInt8(ascii: "*")
                    continue
                case UInt8(ascii: "["):
                    waitingFor = UInt8(ascii: "]")
                    hasDark = true
                    endsWithSemicolon = false
                    continue
                case UInt8(ascii: "`"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                    waitingFor = c
                    hasDark = true
                    endsWithSemicolon = false
                    continue
                default:
                    break
                }
                endsWithSemicolon = false
                hasDark = true
            } else if c == waitingFor {
                switch waitingFor {
                case UInt8(ascii: "*"):
                    if index < count && line[index] == UInt8(ascii: "/") {
                        index += 1
                        waitingFor = 0
                    }
                case UInt8(ascii: "]"):
                    waitingFor = 0
                default:
                    if index < count && line[index] == waitingFor {
                        index += 1 // doubled quote
                    } else {
                        waitingFor = 0
                    }
                }
            }
        }
    }
}
