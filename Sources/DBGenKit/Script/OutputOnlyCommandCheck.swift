/// The argument checks of the dot-commands that only print: what the sqlite3 3.40.1 shell
/// reports as a usage error is an error; the forms that would write a file (`.log FILE`,
/// `.trace FILE`, `.output FILE`) or run a program are refused.
enum OutputOnlyCommandCheck {
    static func check(_ name: String, _ args: [String]) throws {
        switch name {
        case "auth", "binary", "changes", "echo", "headers", "scanstats", "timer":
            try requireBoolean(name, args)
        case "nullvalue":
            guard args.count == 1 else { throw DotCommandParser.usage(".nullvalue STRING") }
        case "eqp":
            guard args.count == 1 else { throw DotCommandParser.usage(".eqp on|off|full|trigger") }
            try requireBoolean(args[0], except: ["full", "trigger", "trace"])
        case "explain":
            guard args.count <= 1 else { throw DotCommandParser.usage(".explain ?on|off|auto?") }
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
            guard let first = args.first, !first.isEmpty, "fkey-indexes".hasPrefix(first) else {
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
                                         patterns: 1, usage: ".trace ?OPTIONS? ?FILE?")
            try files.forEach { try requireConsole(".trace", $0) }
        case "output":
            try checkOutput(args)
        case "connection":
            guard args.isEmpty else {
                throw DotCommandParser.refusal(".connection \(args.joined(separator: " "))", DotCommandCatalog.otherDatabase)
            }
        case "progress":
            if args.contains(where: { $0 == "--limit" || $0 == "-limit" }) {
                throw DotCommandParser.refusal(".progress --limit", "it interrupts statements the shell would finish")
            }
        default:
            break // .print .prompt .width .help .databases .dbinfo .recover .tables .timeout .version .vfs* …
        }
    }

    /// Checks `--option`s against `known` and counts the other arguments; returns those.
    @discardableResult
    private static func checkOptions(_ command: String, _ args: [String], known: Set<String>, patterns: Int,
                                     usage: String) throws -> [String] {
        var others: [String] = []
        for argument in args {
            if argument.hasPrefix("-") && argument != "-" {
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

    private static func checkOutput(_ args: [String]) throws {
        for argument in args {
            if argument == "-e" || argument == "-x" {
                throw DotCommandParser.refusal(".output \(argument)", DotCommandCatalog.runsProgram)
            } else if argument == "--bom" || argument == "-bom" {
                continue
            } else if argument.hasPrefix("|") {
                throw DotCommandParser.refusal(".output \(argument)", DotCommandCatalog.runsProgram)
            } else {
                try requireConsole(".output", argument, alsoAllowed: ["off"])
            }
        }
    }

    /// `off`, `stdout`, `stderr` (and `-` for stdout) write no file; anything else is a file.
    private static func requireConsole(_ command: String, _ target: String, alsoAllowed: Set<String> = []) throws {
        guard ["off", "stdout", "stderr", "-"].contains(target) || alsoAllowed.contains(target) else {
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
