// libFuzzer target for the script reader: line splitting, the statement splitter (quotes,
// comments, `/` and `go` terminators, dot-commands), SQL chunk positions, dot-command
// tokenizing and parsing, and the `.mode`/`.separator` state `.import` reads.
// Compiled into the DBGenKit module by scripts/fuzz.sh.
//
// Invariants: every script byte outside line terminators ends up in exactly one item
// (SQL text or a dot-command line) or is dropped as blank/comment — checked loosely as
// "items never hold more bytes than the input"; every SQL byte maps to a line inside the
// script and a column >= 1; items come in script order.
import Foundation

private func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("FuzzScriptReader invariant broken: \(message)\n".utf8))
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScriptReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The reader's lines: each ends at `\n`, and a last line without one counts too.
    let lineCount = bytes.lazy.filter { $0 == 0x0A }.count + (bytes.last.map { $0 != 0x0A ? 1 : 0 } ?? 0)

    var settings = ShellOutputSettings()
    var lastLine = 0
    for item in ScriptReader(bytes) {
        switch item {
        case let .sql(chunk, _):
            // A `/` or `go` line becomes `;`, so a chunk may hold a byte the script does not.
            if chunk.text.count > size + lineCount { fail("SQL chunk longer than the script") }
            _ = chunk.string
            for offset in stride(from: 0, to: chunk.text.count, by: max(1, chunk.text.count / 64)) {
                let (line, column) = chunk.position(ofByte: offset)
                if line < 1 || line > max(lineCount, 1) { fail("SQL byte \(offset) on line \(line) of \(lineCount)") }
                if column < 1 { fail("SQL byte \(offset) at column \(column)") }
                if line < lastLine { fail("SQL went back from line \(lastLine) to \(line)") }
            }
            if let first = chunk.lines.first { lastLine = max(lastLine, first.line) }
        case let .dotCommand(text, line):
            if line < 1 || line > max(lineCount, 1) { fail("dot-command on line \(line) of \(lineCount)") }
            if line < lastLine { fail("dot-command went back from line \(lastLine) to \(line)") }
            lastLine = line
            _ = DotCommandTokenizer.tokenizeBytes(Array(text.utf8))
            let arguments = DotCommandTokenizer.tokenize(text)
            for argument in arguments { _ = DotCommandTokenizer.resolveBackslashes(Array(argument.utf8)) }
            switch try? DotCommandParser.parse(arguments) {
            case let .mode(modeArguments)?: try? settings.setMode(arguments: modeArguments)
            case .separator?: settings.setSeparator(column: arguments[1], row: arguments.count > 2 ? arguments[2] : nil)
            default: break
            }
            _ = try? settings.importFormat()
        }
    }
    return 0
}
