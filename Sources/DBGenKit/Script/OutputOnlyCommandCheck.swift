/// The argument checks of the dot-commands that only print: what the sqlite3 3.40.1 shell
/// reports as a usage error is an error; the forms that would write a file (`.log FILE`,
/// `.trace FILE`, `.output FILE`, `.once FILE`) or run a program are refused.
enum OutputOnlyCommandCheck {
    static func check(_ name: String, _ args: [String]) throws {
        switch name {
        case "auth", "binary", "changes", "echo", "headers", "scanstats", "timer":
            try requireBoolean(name, args)
        case "nullvalue":
            guard args.count == 1 else { throw DotCommandParser.usage(".nullvalue STRING") }
        case "eqp":
            // `trace` exists only in SQLITE_DEBUG builds of the shell.
            guard args.count == 1 else { throw DotCommandParser.usage(".eqp on|off|full|trigger") }
            try requireBoolean(args[0], except: ["full", "trigger"])
        case "explain":
            // The shell reads the first argument and ignores the rest.
            try args.first.map { try requireBoolean($0, except: ["auto"]) }
        case "stats":
            guard args.count <= 1 else { throw DotCommandParser.usage(".stats ?on|off|stmt|vmstep?") }
            try args.first.map { try requireBoolean($0, except: ["stmt", "vmstep"]) }
        case "show":
            guard args.isEmpty else { throw DotCommandParser.usage(".show") }
        case "indexes", "indices":
            guard args.count <= 1 else { throw DotCommandParser.usage(".indexes ?LIKE-PATTERN?") }
        case "fullschema":
            guard args.isEmpty || args == ["--indent"] else { throw DotCommandParser.usage(".fullschema ?--indent?") }
        case "lint":
            // The options are case-insensitive prefixes of at least two characters.
            let options = args.dropFirst().map { $0.lowercased() }
            guard let first = args.first, !first.isEmpty, "fkey-indexes".hasPrefix(first),
                  options.allSatisfy({ $0.count > 1 && ("-verbose".hasPrefix($0) || "-groupbyparent".hasPrefix($0)) })
            else {
                throw DotCommandParser.usage(".lint fkey-indexes ?-verbose? ?-groupbyparent?")
            }
        default:
            try checkOptionsAndFiles(name, args)
        }
    }

    /// The commands with `--options` and a pattern or a file.
    private static func checkOptionsAndFiles(_ name: String, _ args: [String]) throws {
        switch name {
        case "schema":
            try checkOptions(".schema", args, known: ["indent", "nosys", "debug"], patterns: 1,
                             usage: ".schema ?--indent? ?--nosys? ?LIKE-PATTERN?")
        case "dump":
            try checkOptions(".dump", args, known: ["preserve-rowids", "newlines", "data-only", "nosys"],
                             patterns: Int.max, usage: ".dump ?OPTIONS? ?OBJECTS?")
        case "sha3sum":
            try checkOptions(".sha3sum", args, known: ["schema", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "debug"],
                             patterns: 1, usage: ".sha3sum ?OPTIONS? ?LIKE-PATTERN?")
        case "log":
            guard args.count == 1 else { throw DotCommandParser.usage(".log FILENAME") }
            try requireConsole(".log", args[0])
        case "trace":
            let files = try checkOptions(".trace", args, known: ["expanded", "plain", "profile", "row", "stmt", "close"],
                                         patterns: Int.max, usage: ".trace ?OPTIONS? ?FILE?")
            // The shell opens its first argument whenever there is a file argument, even when
            // that first argument is an option (`.trace --plain off` writes a file "--plain").
            if !files.isEmpty { try requireConsole(".trace", args[0]) }
        case "output", "once":
            try checkOutput(".\(name)", args)
        case "connection":
            guard args.isEmpty else {
                throw DotCommandParser.refusal(".connection \(args.joined(separator: " "))", DotCommandCatalog.otherDatabase)
            }
        case "progress":
            try checkProgress(args)
        default:
            break // .print .prompt .width .help .databases .dbinfo .recover .tables .timeout .version .vfs* …
        }
    }

    /// `.progress ?N? ?--quiet|-q? ?--reset? ?--once? ?--limit N?`: `--limit` interrupts
    /// statements (refused); an unknown option or a `--limit` without its value is an error.
    private static func checkProgress(_ args: [String]) throws {
        for (index, argument) in args.enumerated() where argument.hasPrefix("-") {
            let option = argument.hasPrefix("--") ? String(argument.dropFirst(2)) : String(argument.dropFirst())
            switch option {
            case "quiet", "q", "reset", "once":
                continue
            case "limit":
                guard index + 1 < args.count else { throw DBGenError(.dotCommand, "missing argument on --limit") }
                throw DotCommandParser.refusal(".progress --limit", "it interrupts statements the shell would finish")
            default:
                throw DBGenError(.dotCommand, "unknown option \"\(argument)\" on \".progress\"")
            }
        }
    }

    /// Checks `--option`s against `known` and counts the other arguments; returns those.
    @discardableResult
    private static func checkOptions(_ command: String, _ args: [String], known: Set<String>, patterns: Int,
                                     usage: String) throws -> [String] {
        var others: [String] = []
        for argument in args {
            if argument.hasPrefix("-") { // "-" alone too: an unknown option in the shell
                let option = String(argument.drop { $0 == "-" })
                guard known.contains(option) else {
                    throw DBGenError(.dotCommand, "unknown option \"\(argument)\" on \"\(command)\"")
                }
            } else {
                others.append(argument)
            }
        }
        guard others.count <= patterns else { throw DotCommandParser.usage(usage) }
        return others
    }

    /// `.output` and `.once` as the 3.40.1 shell reads them: `--bom`; `-x`/`-e` and `|cmd` run a
    /// program; one target, where `stdout` and `stderr` write no file, and `off` fails (the
    /// shell keeps stdout and reports an error status).
    private static func checkOutput(_ command: String, _ args: [String]) throws {
        var target: String?
        for argument in args {
            if argument.hasPrefix("-") {
                let option = argument.hasPrefix("--") ? String(argument.dropFirst()) : argument
                if option == "-bom" { continue }
                if option == "-x" || option == "-e" {
                    throw DotCommandParser.refusal("\(command) \(argument)", DotCommandCatalog.runsProgram)
                }
                throw DBGenError(.dotCommand, "unknown option \"\(argument)\" on \"\(command)\"")
            } else if target == nil {
                if argument.hasPrefix("|") {
                    throw DotCommandParser.refusal("\(command) \(argument)", DotCommandCatalog.runsProgram)
                }
                target = argument
            } else {
                throw DBGenError(.dotCommand, "extra parameter \"\(argument)\" on \"\(command)\"")
            }
        }
        if target == "off" {
            throw DBGenError(.dotCommand, "\(command) off: the shell keeps writing to stdout and fails")
        }
        if let target { try requireConsole(command, target) }
    }

    /// `stdout` and `stderr` write no file (nor does `off` where the command takes it);
    /// anything else, `-` included, is a file.
    private static func requireConsole(_ command: String, _ target: String) throws {
        guard ["off", "stdout", "stderr"].contains(target) else {
            throw DotCommandParser.refusal("\(command) \(target)", DotCommandCatalog.writesFile)
        }
    }

    /// Exactly one argument, a boolean as the shell reads it.
    static func requireBoolean(_ name: String, _ args: [String]) throws {
        guard args.count == 1 else { throw DotCommandParser.usage(".\(name) on|off") }
        try requireBoolean(args[0], except: [])
    }

    private static func requireBoolean(_ value: String, except words: Set<String>) throws {
        guard words.contains(value) || ShellArgumentValue.boolean(value) != nil else {
            throw DotCommandParser.notBoolean(value)
        }
    }
}
