import Foundation

/// Splits a dot-command line into arguments the way the sqlite3 3.40 shell does:
/// whitespace separates arguments; `'…'` is taken literally; `"…"` and bare words have
/// C-style backslash escapes resolved (`\t`, `\n`, `\\`, `\"`, octal `\NNN`, …); an unclosed
/// quote runs to the end of the line.
enum DotCommandTokenizer {
    /// The arguments of `line` (which starts with `.`); the first is the command name.
    static func tokenize(_ line: String) -> [String] {
        tokenizeBytes(Array(line.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The arguments as raw bytes (escapes such as `\377` may produce bytes that are not UTF-8).
    static func tokenizeBytes(_ line: [UInt8]) -> [[UInt8]] {
        var bytes = line
        if bytes.first == UInt8(ascii: ".") { bytes.removeFirst() }
        var arguments: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            if index >= bytes.count { break }
            let first = bytes[index]
            var token: [UInt8] = []
            if first == UInt8(ascii: "'") || first == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.count, bytes[index] != first {
                    if first == UInt8(ascii: "\""), bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                        token.append(bytes[index])
                        index += 1
                    }
                    token.append(bytes[index])
                    index += 1
                }
                if index < bytes.count { index += 1 } // closing quote
                if first == UInt8(ascii: "\"") { token = resolveBackslashes(token) }
            } else {
                while index < bytes.count, !isSpace(bytes[index]) {
                    token.append(bytes[index])
                    index += 1
                }
                token = resolveBackslashes(token)
            }
            arguments.append(token)
        }
        return arguments
    }

    /// Resolves C-style escapes as the shell's `resolve_backslashes` does: a backslash
    /// before an unknown character is dropped, a trailing backslash is kept.
    static func resolveBackslashes(_ input: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            var c = input[index]
            if c == UInt8(ascii: "\\"), index + 1 < input.count {
                index += 1
                c = input[index]
                switch c {
                case UInt8(ascii: "a"): c = 0x07
                case UInt8(ascii: "b"): c = 0x08
                case UInt8(ascii: "t"): c = 0x09
                case UInt8(ascii: "n"): c = 0x0A
                case UInt8(ascii: "v"): c = 0x0B
                case UInt8(ascii: "f"): c = 0x0C
                case UInt8(ascii: "r"): c = 0x0D
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(c - UInt8(ascii: "0"))
                    for _ in 0..<2 {
                        guard index + 1 < input.count,
                              (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(input[index + 1]) else { break }
                        index += 1
                        value = (value << 3) + Int(input[index] - UInt8(ascii: "0"))
                    }
                    c = UInt8(truncatingIfNeeded: value)
                default: break // \" \' \\ and anything else: the character itself
                }
            }
            output.append(c)
            index += 1
        }
        return output
    }

    static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || (0x09...0x0D).contains(c)
    }
}
