import Foundation

/// A dot-command as dbgen understands it, parsed from its arguments.
enum DotCommand: Equatable {
    case mode([String])
    case separator(column: String, row: String?)
    case importFile(ImportArguments)
    case read(String)
    /// `.bail`, `.headers`, `.nullvalue`, `.echo`, …: accepted, no effect on the database.
    case ignored(String)
    /// `.quit` / `.exit`: stop reading input.
    case quit

    /// The arguments of `.import` before the file is resolved.
    struct ImportArguments: Equatable {
        var file: String
        var table: String
        var schema: String?
        var skip: Int
        /// `--csv` / `--ascii`, or nil to use the `.mode`/`.separator` settings
        /// (resolved by ``ShellOutputSettings/formatForImport(forcing:)``).
        var forcedQuoting: ImportFormat.Quoting?
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

    /// Parses the arguments produced by ``DotCommandTokenizer``. Throws a ``DBGenError`` without a location (the caller adds the line).
    static func parse(_ arguments: [String]) throws -> DotCommand? {
        guard let name = arguments.first else { return nil }
        let args = Array(arguments.dropFirst())
        if matches(name, "import", minimum: 2) { return .importFile(try parseImport(args)) }
        if matches(name, "mode", minimum: 2) { return .mode(args) }
        if matches(name, "separator", minimum: 3) {
            guard args.count == 1 || args.count == 2 else { throw DBGenError(.dotCommand, "Usage: .separator COL ?ROW?") }
            return .separator(column: args[0], row: args.count > 1 ? args[1] : nil)
        }
        if matches(name, "read", minimum: 3) {
            guard args.count == 1 else { throw DBGenError(.dotCommand, "Usage: .read FILE") }
            if args[0].hasPrefix("|") { throw DBGenError(.refused, "refusing to run a program: .read \(args[0])") }
            return .read(args[0])
        }
        if matches(name, "quit", minimum: 1) || matches(name, "exit", minimum: 2) { return .quit }
        if unsafeCommands.contains(name) {
            throw DBGenError(.refused, "refusing .\(name): dbgen never runs programs or writes files other than its output")
        }
        for (full, minimum) in harmlessCommands where matches(name, full, minimum: minimum) {
            // The shell rejects these without exactly one argument (and carries on); dbgen stops.
            if ["bail", "headers", "header", "nullvalue"].contains(full), args.count != 1 {
                throw DBGenError(.dotCommand, "Usage: .\(full) \(full == "nullvalue" ? "STRING" : "on|off")")
            }
            return .ignored(full)
        }
        throw DBGenError(.dotCommand, "unknown or unsupported dot-command: .\(name)")
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
                    throw DBGenError(.dotCommand, "extra argument to .import: \"\(args[index])\"")
                }
            } else if option == "-v" {
                // verbose: no effect
            } else if option == "-schema", index + 1 < args.count {
                index += 1
                schema = args[index]
            } else if option == "-skip", index + 1 < args.count {
                index += 1
                guard let value = Int(args[index].trimmingCharacters(in: .whitespaces)) else {
                    throw DBGenError(.dotCommand, "invalid --skip count: \"\(args[index])\"")
                }
                skip = value
            } else if option == "-ascii" {
                forcedQuoting = .ascii
            } else if option == "-csv" {
                forcedQuoting = .csv
            } else {
                throw DBGenError(.dotCommand, "unknown option to .import: \"\(args[index])\"")
            }
            index += 1
        }
        guard let file else { throw DBGenError(.dotCommand, "missing FILE argument. Usage: .import FILE TABLE") }
        guard let table else { throw DBGenError(.dotCommand, "missing TABLE argument. Usage: .import FILE TABLE") }
        if file.hasPrefix("|") { throw DBGenError(.refused, "refusing to run a program: .import \(file)") }
        return ImportArguments(file: file, table: table, schema: schema, skip: skip, forcedQuoting: forcedQuoting)
    }
}
