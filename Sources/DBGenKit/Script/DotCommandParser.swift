#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore

/// Turns a dot-command's arguments (from ``DotCommandTokenizer``) into a ``DotCommand``,
/// checking them as the sqlite3 3.40.1 shell does: the ``DotCommandCatalog`` entry the name
/// names says how (a honoured command's entry carries its parser). Where the shell reports a
/// usage error (and carries on), dbgen stops: the ``DBGenError`` thrown has no location, the
/// caller adds the script line.
enum DotCommandParser {
    /// The command, or nil for a line holding just `.`. `arguments` are the line's tokens as
    /// ``DotCommandTokenizer/tokenizeBytes(_:)`` gives them; the first is the command name.
    static func parse(_ arguments: [[UInt8]]) throws -> DotCommand? {
        guard let first = arguments.first else { return nil }
        let written = String(decoding: first, as: UTF8.self)
        let args = DotCommandArguments(bytes: Array(arguments.dropFirst()))
        guard let entry = DotCommandCatalog.entry(named: written) else {
            throw DBGenError(.dotCommand, "unknown or unsupported dot-command: .\(written)")
        }
        switch entry.treatment {
        case .refused(let reason):
            throw refusal(".\(entry.name)", reason)
        case .unavailable(let reason):
            throw DBGenError(.dotCommand, ".\(entry.name) is not available: \(reason)")
        case .honoured(let parse):
            return try parse(args)
        case .outputOnly:
            try OutputOnlyCommandCheck.check(entry.name, args.strings)
            return .outputOnly(entry.name)
        }
    }

    /// The command named by text arguments (the first is the name).
    static func parse(_ arguments: [String]) throws -> DotCommand? {
        try parse(arguments.map { Array($0.utf8) })
    }

    /// The error for a refused command.
    static func refusal(_ what: String, _ reason: String) -> DBGenError {
        DBGenError(.refused, "refusing \(what): \(reason); dbgen builds the output database and nothing else")
    }

    /// A usage error, worded as the shell's.
    static func usage(_ text: String) -> DBGenError {
        DBGenError(.dotCommand, "Usage: \(text)")
    }

    /// The shell's "Not a boolean value" (it assumes "no" and carries on; dbgen stops).
    static func notBoolean(_ text: String) -> DBGenError {
        DBGenError(.dotCommand, "not a boolean value: \"\(text)\" (on, off, yes, no or a number)")
    }
}

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
                            (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(input[index + 1])
                        else { break }
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

/// How the sqlite3 3.40 shell reads the values of dot-command arguments: booleans
/// (`on`/`off`/`yes`/`no`/a number) and integers (decimal or `0x` hex, an optional sign and a
/// size suffix such as `KiB` or `M`).
enum ShellArgumentValue {
    /// The shell's `booleanValue`, or nil where the shell says "Not a boolean value" (and
    /// assumes "no").
    static func boolean(_ text: String) -> Bool? {
        let bytes = Array(text.utf8)
        let digits: Int
        if bytes.starts(with: Array("0x".utf8)) {
            digits = 2 + bytes.dropFirst(2).prefix { hexDigitValue($0) != nil }.count
        } else {
            digits = bytes.prefix { (0x30...0x39).contains($0) }.count
        }
        if digits > 0 && digits == bytes.count { return integer(text) & 0xFFFF_FFFF != 0 }
        switch text.lowercased() {
        case "on", "yes": return true
        case "off", "no": return false
        default: return nil
        }
    }

    /// The shell's `integerValue`: what it does not understand counts as 0 (`abc` is 0,
    /// `12abc` is 12), as in the shell.
    static func integer(_ text: String) -> Int64 {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        } else if bytes.first == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        var value: Int64 = 0
        if bytes.starts(with: Array("0x".utf8)) {
            bytes = bytes.dropFirst(2)
            while let first = bytes.first, let digit = hexDigitValue(first) {
                value = (value &<< 4) &+ Int64(digit)
                bytes = bytes.dropFirst()
            }
        } else {
            while let first = bytes.first, (0x30...0x39).contains(first) {
                value = value &* 10 &+ Int64(first - 0x30)
                bytes = bytes.dropFirst()
            }
        }
        let suffix = String(decoding: bytes, as: UTF8.self).lowercased()
        if let multiplier = multipliers.first(where: { $0.suffix.lowercased() == suffix })?.factor {
            value = value &* multiplier
        }
        return negative ? -value : value
    }

    private static let multipliers: [(suffix: String, factor: Int64)] = [
        ("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024),
        ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000),
        ("K", 1000), ("M", 1_000_000), ("G", 1_000_000_000),
    ]

    private static func hexDigitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        default: return nil
        }
    }
}
