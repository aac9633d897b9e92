/// What dbgen does with one dot-command of the sqlite3 3.40.1 shell.
enum DotCommandTreatment {
    /// It changes state later statements see (`.mode`, `.parameter`, `.import`, …): done as
    /// the shell does it. The parser checks the arguments (after the name) as the shell does
    /// and says what to do; ``ScriptRunner`` does it.
    case honoured(DotCommandArgumentParser)
    /// It only prints (its output is discarded like that of a SELECT): accepted, arguments
    /// checked as the shell checks them, nothing done. Some forms may still be refused (a
    /// `.log` or `.trace` into a file).
    case outputOnly
    /// It would run a program, write a file other than the output, load code or work on
    /// another database: refused with this reason, nothing run or written.
    case refused(String)
    /// The shell has it but it cannot work with this SQLite (the shell fails on it too):
    /// an error saying why.
    case unavailable(String)
}

/// Parses a honoured dot-command's arguments (the name left out).
typealias DotCommandArgumentParser = (DotCommandArguments) throws -> DotCommand

/// One dot-command: its full name, the shortest abbreviation the shell accepts for it and
/// dbgen's treatment.
struct DotCommandEntry {
    let name: String
    let minimumAbbreviation: Int
    let treatment: DotCommandTreatment
}

/// Every dot-command of the sqlite3 3.40.1 shell (those its `.help` lists, the aliases and the
/// undocumented ones this build has), in the order the shell's `do_meta_command` tries them,
/// each with the shortest prefix it accepts there (the full length where the shell wants the
/// whole name: `.cd`, `.nonce`, `.excel`, `.testcase`, `.selecttrace`, `.treetrace`), so an
/// abbreviation names the command it names in the shell: `.w` is `.wheretrace`, `.d` is
/// `.dump`, `.c` is `.clone`, `.p` is `.prompt`.
enum DotCommandCatalog {
    static let runsProgram = "it runs a program"
    static let writesFile = "it writes a file other than the output"
    static let testing = "it is a testing command of the shell"
    static let otherDatabase = "it works on another database than the one being built"
    static let needsDbpage =
        "it needs the sqlite_dbpage virtual table, which this SQLite is built without "
        + "(the sqlite3 shell fails on it too)"

    static let entries: [DotCommandEntry] = [
        entry("auth", 1, .outputOnly),
        entry("archive", 1, .refused(writesFile)),
        entry("backup", 3, .refused(writesFile)),
        entry("save", 3, .refused(writesFile)),
        entry("bail", 3, .honoured(HonouredDotCommand.bail)),
        entry("binary", 3, .outputOnly),
        entry("breakpoint", 3, .outputOnly),
        entry("cd", 2, .honoured(HonouredDotCommand.changeDirectory)),
        entry("changes", 3, .outputOnly),
        entry("check", 3, .refused(testing)),
        entry("clone", 1, .refused(writesFile)),
        entry("connection", 1, .outputOnly),
        entry("databases", 2, .outputOnly),
        entry("dbconfig", 3, .honoured(HonouredDotCommand.databaseOption)),
        entry("dbinfo", 3, .unavailable(needsDbpage)),
        entry("recover", 1, .unavailable(needsDbpage)),
        entry("dump", 1, .outputOnly),
        entry("echo", 1, .outputOnly),
        entry("eqp", 1, .outputOnly),
        entry("exit", 1, .honoured(HonouredDotCommand.exit)),
        entry("explain", 1, .outputOnly),
        entry("expert", 1, .refused("it analyses the next statement instead of running it")),
        entry("filectrl", 1, .refused(testing)),
        entry("fullschema", 1, .outputOnly),
        entry("headers", 1, .outputOnly),
        entry("help", 1, .outputOnly),
        entry("import", 1, .honoured(HonouredDotCommand.importFile)),
        entry("imposter", 1, .refused(testing)),
        entry("limit", 5, .honoured(HonouredDotCommand.limit)),
        entry("lint", 3, .outputOnly),
        entry("load", 1, .refused("it loads code")),
        entry("log", 1, .outputOnly),
        entry("mode", 1, .honoured(HonouredDotCommand.mode)),
        entry("nonce", 5, .refused("it is for the shell's safe mode, which dbgen does not have")),
        entry("nullvalue", 1, .outputOnly),
        entry("open", 2, .refused(otherDatabase)),
        entry("output", 1, .outputOnly),
        entry("once", 1, .outputOnly),
        entry("excel", 5, .refused(runsProgram)),
        entry("parameter", 3, .honoured(HonouredDotCommand.parameter)),
        entry("print", 3, .outputOnly),
        entry("progress", 3, .outputOnly),
        entry("prompt", 1, .outputOnly),
        entry("quit", 1, .honoured(HonouredDotCommand.quit)),
        entry("read", 3, .honoured(HonouredDotCommand.read)),
        entry("restore", 3, .honoured(HonouredDotCommand.restore)),
        entry("scanstats", 1, .outputOnly),
        entry("schema", 1, .outputOnly),
        entry("selecttrace", 11, .outputOnly),
        entry("treetrace", 9, .outputOnly),
        entry("session", 3, .refused(writesFile)),
        entry("selftest", 4, .refused(testing)),
        entry("separator", 1, .honoured(HonouredDotCommand.separator)),
        entry("sha3sum", 4, .outputOnly),
        entry("shell", 1, .refused(runsProgram)),
        entry("system", 1, .refused(runsProgram)),
        entry("show", 1, .outputOnly),
        entry("stats", 1, .outputOnly),
        entry("tables", 2, .outputOnly),
        entry("indices", 1, .outputOnly),
        entry("indexes", 1, .outputOnly),
        entry("testcase", 8, .refused(testing)),
        entry("testctrl", 8, .refused(testing)),
        entry("timeout", 5, .outputOnly),
        entry("timer", 5, .outputOnly),
        entry("trace", 1, .outputOnly),
        entry("version", 1, .outputOnly),
        entry("vfsinfo", 1, .outputOnly),
        entry("vfslist", 1, .outputOnly),
        entry("vfsname", 1, .outputOnly),
        entry("wheretrace", 1, .outputOnly),
        entry("width", 1, .outputOnly),
    ]

    /// Names the shell also accepts for a command.
    static let aliases: [String: String] = ["ar": "archive", "header": "headers", "limits": "limit"]

    /// The command `name` (as written, possibly abbreviated) names in the shell, or nil for an
    /// unknown command.
    static func entry(named name: String) -> DotCommandEntry? {
        if let alias = aliases[name] { return entries.first { $0.name == alias } }
        return entries.first { entry in
            name.count >= entry.minimumAbbreviation && entry.name.hasPrefix(name)
        }
    }

    private static func entry(_ name: String, _ minimum: Int, _ treatment: DotCommandTreatment) -> DotCommandEntry {
        DotCommandEntry(name: name, minimumAbbreviation: minimum, treatment: treatment)
    }
}

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
            try checkOptions(
                ".schema", args, known: ["indent", "nosys", "debug"], patterns: 1,
                usage: ".schema ?--indent? ?--nosys? ?LIKE-PATTERN?")
        case "dump":
            try checkOptions(
                ".dump", args, known: ["preserve-rowids", "newlines", "data-only", "nosys"],
                patterns: Int.max, usage: ".dump ?OPTIONS? ?OBJECTS?")
        case "sha3sum":
            try checkOptions(
                ".sha3sum", args, known: ["schema", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "debug"],
                patterns: 1, usage: ".sha3sum ?OPTIONS? ?LIKE-PATTERN?")
        case "log":
            guard args.count == 1 else { throw DotCommandParser.usage(".log FILENAME") }
            try requireConsole(".log", args[0])
        case "trace":
            let files = try checkOptions(
                ".trace", args, known: ["expanded", "plain", "profile", "row", "stmt", "close"],
                patterns: Int.max, usage: ".trace ?OPTIONS? ?FILE?")
            // The shell opens its first argument whenever there is a file argument, even when
            // that first argument is an option (`.trace --plain off` writes a file "--plain").
            if !files.isEmpty { try requireConsole(".trace", args[0]) }
        case "output", "once":
            try checkOutput(".\(name)", args)
        case "connection":
            guard args.isEmpty else {
                throw DotCommandParser.refusal(
                    ".connection \(args.joined(separator: " "))", DotCommandCatalog.otherDatabase)
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
    private static func checkOptions(
        _ command: String, _ args: [String], known: Set<String>, patterns: Int,
        usage: String
    ) throws -> [String] {
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
