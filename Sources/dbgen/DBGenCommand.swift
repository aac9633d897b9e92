import ArgumentParser
import DBGenKit

@main
struct DBGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbgen",
        abstract: "Build a SQLite database from a sqlite3-shell schema script and CSV files.",
        version: DBGenKit.version,
        subcommands: [Build.self, Check.self, Attach.self],
        defaultSubcommand: Build.self
    )
}
