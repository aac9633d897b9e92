import SQLiteCore

/// A dot-command as dbgen runs it, parsed and checked from its arguments by
/// ``DotCommandParser``.
enum DotCommand: Equatable {
    /// `.mode ?MODE? ?OPTIONS?` (a bare `.mode` re-applies the current mode).
    case mode([String])
    /// `.separator COL ?ROW?` (the runner takes the exact bytes from the line).
    case separator
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
