import SQLiteCore

/// A dot-command as dbgen runs it, parsed and checked from its arguments by the parser its
/// ``DotCommandCatalog`` entry carries; ``ScriptRunner`` carries it out.
enum DotCommand: Equatable {
    /// `.mode ?MODE? ?OPTIONS?` (a bare `.mode` re-applies the current mode).
    case mode([String])
    /// `.separator COL ?ROW?`: the exact bytes (escapes resolved, single-quoted text as
    /// written; they need not be UTF-8).
    case separator(column: [UInt8], row: [UInt8]?)
    /// `.import`.
    case importFile(ImportArguments)
    /// `.read FILE`.
    case read(String)
    /// `.restore ?DB? FILE`: the content of `schema` is replaced by the database in FILE.
    case restore(schema: String, file: String)
    /// `.parameter init|set|unset|clear|list`.
    case parameter(ParameterCommand)
    /// `.dbconfig OPTION ?on|off?` (nil: only shows it).
    case databaseOption(DatabaseOption, enabled: Bool?)
    /// `.limit NAME ?VALUE?` (nil: only shows it).
    case limit(RuntimeLimit, value: Int64?)
    /// `.cd DIRECTORY`: later relative paths resolve against it.
    case changeDirectory(String)
    /// `.quit`, `.exit` (with status 0): stop reading input.
    case quit
    /// A command that only prints (named by its full name): nothing to do.
    case outputOnly(String)
}

/// The `.parameter` subcommands.
enum ParameterCommand: Equatable {
    /// `.parameter init`: create the parameter table.
    case initialize
    /// `.parameter set KEY VALUE`.
    case set(key: String, value: String)
    /// `.parameter unset KEY`.
    case unset(String)
    /// `.parameter clear`: drop every parameter.
    case clear
    /// `.parameter list`: prints only.
    case list
}

/// The arguments of `.import` (`.import ?--csv|--ascii? ?--skip N? ?--schema S? ?-v? FILE TABLE`),
/// before the file is resolved.
struct ImportArguments: Equatable {
    var file: String
    var table: String
    var schema: String?
    var skip: Int
    /// `--csv` / `--ascii`, or nil to use the `.mode`/`.separator` settings
    /// (resolved by ``ShellOutputSettings/formatForImport(forcing:)``).
    var forcedQuoting: ImportFormat.Quoting?

    /// Parses the arguments after `.import` as the 3.40 shell does.
    static func parse(_ args: [String]) throws -> ImportArguments {
        var file: String?, table: String?, schema: String?
        var skip = 0
        var forcedQuoting: ImportFormat.Quoting?
        var index = 0
        while index < args.count {
            var option = args[index]
            if option.hasPrefix("--") { option.removeFirst() }
            if !option.hasPrefix("-") {
                if file == nil {
                    file = args[index]
                } else if table == nil {
                    table = args[index]
                } else {
                    throw DBGenError(.dotCommand, "extra argument to .import: \"\(args[index])\"")
                }
            } else if option == "-v" {
                // verbose: no effect
            } else if option == "-schema", index + 1 < args.count {
                index += 1
                schema = args[index]
            } else if option == "-skip", index + 1 < args.count {
                index += 1
                // The shell's integerValue: what it does not understand counts as 0.
                skip = Int(clamping: max(0, ShellArgumentValue.integer(args[index])))
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
