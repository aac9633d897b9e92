import Foundation

/// Splits a dot-command line into arguments the way the sqlite3 3.40 shell does:
/// whitespace separates arguments; `'…'` is taken literally; `"…"` and bare words have
/// C-style backslash escapes resolved (`\t`, `\n`, `\\`, `\"`, octal `\NNN`, …); an unclosed
/// quote runs to the end of the line.
public enum DotCommandTokenizer {
    /// The arguments of `line` (which starts with `.`); the first is the command name.
    public static func tokenize(_ line: String) -> [String] {
        tokenizeBytes(Array(line.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The arguments as raw bytes (escapes such as `\377` may produce bytes that are not UTF-8).
    public static func tokenizeBytes(_ line: [UInt8]) -> [[UInt8]] {
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
    public static func resolveBackslashes(_ input: [UInt8]) -> [UInt8] {
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

/// A dot-command as dbgen understands it, parsed from its arguments.
public enum DotCommand: Equatable {
    case mode([String])
    case separator(column: String, row: String?)
    case importFile(ImportArguments)
    case read(String)
    /// `.bail`, `.headers`, `.nullvalue`, `.echo`, …: accepted, no effect on the database.
    case ignored(String)
    /// `.quit` / `.exit`: stop reading input.
    case quit

    /// The arguments of `.import` before the file is resolved.
    public struct ImportArguments: Equatable {
        public var file: String
        public var table: String
        public var schema: String?
        public var skip: Int
        /// `--csv` / `--ascii`, or nil to use the `.mode`/`.separator` settings
        /// (resolved by ``ShellOutputSettings/formatForImport(forcing:)``).
        public var forcedQuoting: ImportFormat.Quoting?
    }

    /// Commands that would run a program or write files: refused, never run.
    static let unsafeCommands: Set<String> = [
        "shell", "system", "output", "once", "excel", "backup", "save", "log", "load",
        "open", "clone", "archive", "ar", "restore", "cd", "iotrace", "trace", "edit",
        "dump", "recover", "sha3sum", "testcase", "testctrl", "selftest", "import-pipe",
    ]

    /// Names accepted as no-ops (they only change how the shell prints).
    static let harmlessCommands: [(name: String, minimum: Int)] = [
        ("bail", 3), ("headers", 2), ("header", 2), ("nullvalue", 2), ("echo", 2),
        ("timer", 2), ("changes", 3), ("width", 1), ("explain", 3), ("print", 2),
        ("prompt", 2), ("eqp", 2), ("stats", 3), ("show", 3), ("binary", 3),
    ]

    /// The shell's rule: an abbreviation of at least `minimum` characters names `full`.
    static func matches(_ name: String, _ full: String, minimum: Int) -> Bool {
        name.count >= minimum && full.hasPrefix(name)
    }

    /// Parses the arguments produced by ``DotCommandTokenizer``. Throws a message (no location).
    public static func parse(_ arguments: [String]) throws -> DotCommand? {
        guard let name = arguments.first else { return nil }
        let args = Array(arguments.dropFirst())
        if matches(name, "import", minimum: 2) { return .importFile(try parseImport(args)) }
        if matches(name, "mode", minimum: 2) { return .mode(args) }
        if matches(name, "separator", minimum: 3) {
            guard args.count == 1 || args.count == 2 else { throw Message("Usage: .separator COL ?ROW?") }
            return .separator(column: args[0], row: args.count > 1 ? args[1] : nil)
        }
        if matches(name, "read", minimum: 3) {
            guard args.count == 1 else { throw Message("Usage: .read FILE") }
            if args[0].hasPrefix("|") { throw Message("refusing to run a program: .read \(args[0])") }
            return .read(args[0])
        }
        if matches(name, "quit", minimum: 1) || matches(name, "exit", minimum: 2) { return .quit }
        if unsafeCommands.contains(name) {
            throw Message("refusing .\(name): dbgen never runs programs or writes files other than its output")
        }
        for (full, minimum) in harmlessCommands where matches(name, full, minimum: minimum) {
            // The shell rejects these without exactly one argument (and carries on); dbgen stops.
            if ["bail", "headers", "header", "nullvalue"].contains(full), args.count != 1 {
                throw Message("Usage: .\(full) \(full == "nullvalue" ? "STRING" : "on|off")")
            }
            return .ignored(full)
        }
        throw Message("unknown or unsupported dot-command: .\(name)")
    }

    static func parseImport(_ args: [String]) throws -> ImportArguments {
        var file: String?, table: String?, schema: String?
        var skip = 0
        var forcedQuoting: ImportFormat.Quoting?
        var index = 0
        while index < args.count {
            var option = args[index]
            if option.hasPrefix("--") { option.removeFirst() }
            if !option.hasPrefix("-") {
                if file == nil { file = args[index] } else if table == nil { table = args[index] } else {
                    throw Message("extra argument to .import: \"\(args[index])\"")
                }
            } else if option == "-v" {
                // verbose: no effect
            } else if option == "-schema", index + 1 < args.count {
                index += 1
                schema = args[index]
            } else if option == "-skip", index + 1 < args.count {
                index += 1
                guard let value = Int(args[index].trimmingCharacters(in: .whitespaces)) else {
                    throw Message("invalid --skip count: \"\(args[index])\"")
                }
                skip = value
            } else if option == "-ascii" {
                forcedQuoting = .ascii
            } else if option == "-csv" {
                forcedQuoting = .csv
            } else {
                throw Message("unknown option to .import: \"\(args[index])\"")
            }
            index += 1
        }
        guard let file else { throw Message("missing FILE argument. Usage: .import FILE TABLE") }
        guard let table else { throw Message("missing TABLE argument. Usage: .import FILE TABLE") }
        if file.hasPrefix("|") { throw Message("refusing to run a program: .import \(file)") }
        return ImportArguments(file: file, table: table, schema: schema, skip: skip, forcedQuoting: forcedQuoting)
    }

    /// A plain error message, given a location by the caller.
    public struct Message: Error, Equatable {
        public var text: String
        public init(_ text: String) { self.text = text }
    }
}
