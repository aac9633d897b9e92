import ArgumentParser
import DBGenKit
import SQLiteCore

@main
struct DBGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbgen",
        abstract: "Build a SQLite database from a sqlite3-shell schema script and CSV files.",
        discussion: """
            dbgen reads a schema script in the sqlite3 shell's dialect (SQL plus .mode, \
            .separator, .import and .read) and builds the database it describes, as \
            `sqlite3 OUTPUT < SCHEMA` would, but stops at the first error and never leaves \
            a half-written OUTPUT. With no subcommand, `build` runs.

            Example:
              dbgen schema/schema.txt -o Resources/food.sqlite --depfile food.d
            """,
        version: DBGenKit.version,
        subcommands: [Build.self, Check.self, Attach.self, Diff.self, Update.self],
        defaultSubcommand: Build.self
    )

    /// The process-wide SQLite settings come first, before any connection opens; then the
    /// arguments are parsed and the subcommand runs.
    static func main() {
        SQLiteLibrary.disableMemoryStatistics()
        main(nil)
    }
}
