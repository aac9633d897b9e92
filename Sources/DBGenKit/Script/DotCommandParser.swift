import SQLiteCore

/// Turns a dot-command's arguments (from ``DotCommandTokenizer``) into a ``DotCommand``,
/// checking them as the sqlite3 3.40.1 shell does. Where the shell reports a usage error (and
/// carries on), dbgen stops: the ``DBGenError`` thrown has no location, the caller adds the
/// script line.
enum DotCommandParser {
    /// The command, or nil for a line holding just `.`.
    static func parse(_ arguments: [String]) throws -> DotCommand? {
        guard let written = arguments.first else { return nil }
        let args = Array(arguments.dropFirst())
        guard let entry = DotCommandCatalog.entry(named: written) else {
            throw DBGenError(.dotCommand, "unknown or unsupported dot-command: .\(written)")
        }
        switch entry.treatment {
        case .refused(let reason):
            throw refusal(".\(entry.name)", reason)
        case .unavailable(let reason):
            throw DBGenError(.dotCommand, ".\(entry.name) is not available: \(reason)")
        case .honoured:
            return try parseHonoured(entry.name, args)
        case .outputOnly:
            try OutputOnlyCommandCheck.check(entry.name, args)
            return .outputOnly(entry.name)
        }
    }

    /// The error for a refused command.
    static func refusal(_ what: String, _ reason: String) -> DBGenError {
        DBGenError(.refused, "refusing \(what): \(reason); dbgen builds the output database and nothing else")
    }

    private static func parseHonoured(_ name: String, _ args: [String]) throws -> DotCommand {
        switch name {
        case "bail":
            try OutputOnlyCommandCheck.requireBoolean("bail", args)
            return .outputOnly(name) // dbgen always stops at the first error
        case "cd":
            guard args.count == 1 else { throw usage(".cd DIRECTORY") }
            return .changeDirectory(args[0])
        case "dbconfig":
            return try parseDatabaseOption(args)
        case "exit":
            let status = args.first.map(ShellArgumentValue.integer) ?? 0
            guard status == 0 else {
                throw DBGenError(.dotCommand, ".exit \(status) ends the script with a failure status")
            }
            return .quit
        case "quit":
            return .quit
        case "import":
            return .importFile(try ImportArguments.parse(args))
        case "limit":
            return try parseLimit(args)
        case "mode":
            return .mode(args)
        case "parameter":
            return .parameter(try parseParameter(args))
        case "read":
            guard args.count == 1 else { throw usage(".read FILE") }
            if args[0].hasPrefix("|") { throw refusal(".read \(args[0])", DotCommandCatalog.runsProgram) }
            return .read(args[0])
        case "restore":
            guard args.count == 1 || args.count == 2 else { throw usage(".restore ?DB? FILE") }
            return .restore(schema: args.count == 2 ? args[0] : "main", file: args[args.count - 1])
        default: // separator
            guard args.count == 1 || args.count == 2 else { throw usage(".separator COL ?ROW?") }
            return .separator
        }
    }

    private static func parseDatabaseOption(_ args: [String]) throws -> DotCommand {
        guard let name = args.first else { return .outputOnly("dbconfig") }
        guard let option = DatabaseOption.named(name) else {
            throw DBGenError(.dotCommand, "unknown dbconfig \"\(name)\" (one of: "
                             + DatabaseOption.all.map(\.name).joined(separator: " ") + ")")
        }
        guard args.count >= 2 else { return .databaseOption(option, enabled: nil) }
        guard let enabled = ShellArgumentValue.boolean(args[1]) else { throw notBoolean(args[1]) }
        if option == .loadExtension && enabled {
            throw refusal(".dbconfig load_extension on", "it lets SQL load code")
        }
        return .databaseOption(option, enabled: enabled)
    }

    private static func parseLimit(_ args: [String]) throws -> DotCommand {
        guard let name = args.first else { return .outputOnly("limit") }
        guard args.count <= 2 else { throw usage(".limit NAME ?NEW-VALUE?") }
        let matching = RuntimeLimit.all.filter { $0.name.lowercased().hasPrefix(name.lowercased()) }
        guard matching.count <= 1 else { throw DBGenError(.dotCommand, "ambiguous limit: \"\(name)\"") }
        guard let limit = matching.first else {
            throw DBGenError(.dotCommand, "unknown limit: \"\(name)\" (one of: "
                             + RuntimeLimit.all.map(\.name).joined(separator: " ") + ")")
        }
        return .limit(limit, value: args.count == 2 ? ShellArgumentValue.integer(args[1]) : nil)
    }

    private static func parseParameter(_ args: [String]) throws -> ParameterCommand {
        switch (args.first, args.count) {
        case ("clear", 1): return .clear
        case ("list", 1): return .list
        case ("init", 1): return .initialize
        case ("set", 3): return .set(key: args[1], value: args[2])
        case ("unset", 2): return .unset(args[1])
        default:
            throw usage(".parameter init|list|clear, .parameter set NAME VALUE, .parameter unset NAME")
        }
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
