import Foundation

/// Reads a script file and splits it into lines the way the sqlite3 shell's `local_getline`
/// does: lines end at `\n`; a `\r` just before the `\n` is dropped (CRLF scripts).
enum ScriptReader {
    /// The lines of `data`, without terminators.
    static func lines(of data: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        let count = data.count
        while index < count {
            if data[index] == 0x0A {
                var end = index
                if end > start, data[end - 1] == 0x0D { end -= 1 }
                result.append(data[start..<end])
                start = index + 1
            }
            index += 1
        }
        if start < count { result.append(data[start..<count]) }
        return result
    }

    /// Every item of a script: complete SQL chunks and dot-commands, in order, with the
    /// pending SQL at the end (if any) last.
    static func items(of data: [UInt8]) -> [ScriptItem] {
        var splitter = ScriptStatementSplitter()
        var items: [ScriptItem] = []
        for (index, line) in lines(of: data).enumerated() {
            if let item = splitter.feed(Array(line), lineNumber: index + 1) { items.append(item) }
        }
        if let item = splitter.finish() { items.append(item) }
        return items
    }
}
