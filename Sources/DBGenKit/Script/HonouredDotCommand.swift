import SQLiteCore

/// A honoured dot-command's arguments, the name left out, as the shell's tokenizer gives them.
struct DotCommandArguments {
    /// The exact bytes (escapes such as `\377` may give bytes that are not UTF-8).
    let bytes: [[UInt8]]
    /// The same as text.
    let strings: [String]

    init(bytes: [[UInt8]]) {
        self.bytes = bytes
        strings = bytes.map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The parsers of the honoured dot-commands, each named by its ``DotCommandCatalog`` entry:
/// they check the arguments as the sqlite3 3.40.1 shell does (a usage error stops dbgen where
/// the shell carries on) and say what ``ScriptRunner`` is to do.
enum HonouredDotCommand {
    static func bail(_ arguments: DotCommandArguments) throws -> DotCommand {
        try OutputOnlyCommandCheck.requireBoolean("bail", arguments.strings)
        return .outputOnly("bail") // dbgen always stops at the first error
    }

    static func changeDirectory(_ arguments: DotCommandArguments) throws -> DotCommand {
        guard arguments.strings.count == 1 else { throw DotCommandParser.usage(".cd DIRECTORY") }
        return .changeDirectory(arguments.strings[0])
    }

    static func exit(_ arguments: DotCommandArguments) throws -> DotCommand {
        let status = arguments.strings.first.map(ShellArgumentValue.integer) ?? 0
        guard status == 0 else {
            throw DBGenError(.dotCommand, ".exit \(status) ends the script with a failure status")
        }
        return .quit
    }

    static func quit(_ arguments: DotCommandArguments) throws -> DotCommand {
        .quit
    }

    static func importFile(_ arguments: DotCommandArguments) throws -> DotCommand {
        .importFile(try ImportArguments.parse(arguments.strings))
    }

    static func mode(_ arguments: DotCommandArguments) throws -> DotCommand {
        .mode(arguments.strings)
    }

    static func read(_ arguments: DotCommandArguments) throws -> DotCommand {
        let args = arguments.strings
        guard args.count == 1 else { throw DotCommandParser.usage(".read FILE") }
        if args[0].hasPrefix("|") {
            throw DotCommandParser.refusal(".read \(args[0])", DotCommandCatalog.runsProgram)
        }
        return .read(args[0])
    }

    static func restore(_ arguments: DotCommandArguments) throws -> DotCommand {
        let args = arguments.strings
        guard args.count == 1 || args.count == 2 else { throw DotCommandParser.usage(".restore ?DB? FILE") }
        return .restore(schema: args.count == 2 ? args[0] : "main", file: args[args.count - 1])
    }

    /// The exact bytes: escapes resolved, and single-quoted text taken as written.
    static func separator(_ arguments: DotCommandArguments) throws -> DotCommand {
        let args = arguments.bytes
        guard args.count == 1 || args.count == 2 else { throw DotCommandParser.usage(".separator COL ?ROW?") }
        return .separator(column: args[0], row: args.count == 2 ? args[1] : nil)
    }

    static func databaseOption(_ arguments: DotCommandArguments) throws -> DotCommand {
        let args = arguments.strings
        guard let name = args.first else { return .outputOnly("dbconfig") }
        guard let option = DatabaseOption.named(name) else {
            throw DBGenError(
                .dotCommand,
                "unknown dbconfig \"\(name)\" (one of: "
                    + DatabaseOption.all.map(\.name).joined(separator: " ") + ")")
        }
        guard args.count >= 2 else { return .databaseOption(option, enabled: nil) }
        guard let enabled = ShellArgumentValue.boolean(args[1]) else { throw DotCommandParser.notBoolean(args[1]) }
        if option == .loadExtension && enabled {
            throw DotCommandParser.refusal(".dbconfig load_extension on", "it lets SQL load code")
        }
        return .databaseOption(option, enabled: enabled)
    }

    static func limit(_ arguments: DotCommandArguments) throws -> DotCommand {
        let args = arguments.strings
        guard let name = args.first else { return .outputOnly("limit") }
        guard args.count <= 2 else { throw DotCommandParser.usage(".limit NAME ?NEW-VALUE?") }
        let matching = RuntimeLimit.all.filter { $0.name.lowercased().hasPrefix(name.lowercased()) }
        guard matching.count <= 1 else { throw DBGenError(.dotCommand, "ambiguous limit: \"\(name)\"") }
        guard let limit = matching.first else {
            throw DBGenError(
                .dotCommand,
                "unknown limit: \"\(name)\" (one of: "
                    + RuntimeLimit.all.map(\.name).joined(separator: " ") + ")")
        }
        return .limit(limit, value: args.count == 2 ? ShellArgumentValue.integer(args[1]) : nil)
    }

    static func parameter(_ arguments: DotCommandArguments) throws -> DotCommand {
        let args = arguments.strings
        switch (args.first, args.count) {
        case ("clear", 1): return .parameter(.clear)
        case ("list", 1): return .parameter(.list)
        case ("init", 1): return .parameter(.initialize)
        case ("set", 3): return .parameter(.set(key: args[1], value: args[2]))
        case ("unset", 2): return .parameter(.unset(args[1]))
        default:
            throw DotCommandParser.usage(".parameter init|list|clear, .parameter set NAME VALUE, .parameter unset NAME")
        }
    }
}
