/// What dbgen does with one dot-command of the sqlite3 3.40.1 shell.
enum DotCommandTreatment: Equatable {
    /// It changes state later statements see (`.mode`, `.parameter`, `.import`, …): done as
    /// the shell does it.
    case honoured
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

/// One dot-command: its full name, the shortest abbreviation the shell accepts for it and
/// dbgen's treatment.
struct DotCommandEntry: Equatable {
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
    static let needsDbpage = "it needs the sqlite_dbpage virtual table, which this SQLite is built without "
        + "(the sqlite3 shell fails on it too)"

    static let entries: [DotCommandEntry] = [
        entry("auth", 1, .outputOnly),
        entry("archive", 1, .refused(writesFile)),
        entry("backup", 3, .refused(writesFile)),
        entry("save", 3, .refused(writesFile)),
        entry("bail", 3, .honoured),
        entry("binary", 3, .outputOnly),
        entry("breakpoint", 3, .outputOnly),
        entry("cd", 2, .honoured),
        entry("changes", 3, .outputOnly),
        entry("check", 3, .refused(testing)),
        entry("clone", 1, .refused(writesFile)),
        entry("connection", 1, .outputOnly),
        entry("databases", 2, .outputOnly),
        entry("dbconfig", 3, .honoured),
        entry("dbinfo", 3, .unavailable(needsDbpage)),
        entry("recover", 1, .unavailable(needsDbpage)),
        entry("dump", 1, .outputOnly),
        entry("echo", 1, .outputOnly),
        entry("eqp", 1, .outputOnly),
        entry("exit", 1, .honoured),
        entry("explain", 1, .outputOnly),
        entry("expert", 1, .refused("it analyses the next statement instead of running it")),
        entry("filectrl", 1, .refused(testing)),
        entry("fullschema", 1, .outputOnly),
        entry("headers", 1, .outputOnly),
        entry("help", 1, .outputOnly),
        entry("import", 1, .honoured),
        entry("imposter", 1, .refused(testing)),
        entry("limit", 5, .honoured),
        entry("lint", 3, .outputOnly),
        entry("load", 1, .refused("it loads code")),
        entry("log", 1, .outputOnly),
        entry("mode", 1, .honoured),
        entry("nonce", 5, .refused("it is for the shell's safe mode, which dbgen does not have")),
        entry("nullvalue", 1, .outputOnly),
        entry("open", 2, .refused(otherDatabase)),
        entry("output", 1, .outputOnly),
        entry("once", 1, .outputOnly),
        entry("excel", 5, .refused(runsProgram)),
        entry("parameter", 3, .honoured),
        entry("print", 3, .outputOnly),
        entry("progress", 3, .outputOnly),
        entry("prompt", 1, .outputOnly),
        entry("quit", 1, .honoured),
        entry("read", 3, .honoured),
        entry("restore", 3, .honoured),
        entry("scanstats", 1, .outputOnly),
        entry("schema", 1, .outputOnly),
        entry("selecttrace", 11, .outputOnly),
        entry("treetrace", 9, .outputOnly),
        entry("session", 3, .refused(writesFile)),
        entry("selftest", 4, .refused(testing)),
        entry("separator", 1, .honoured),
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
