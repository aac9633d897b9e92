import ArgumentParser
import DBGenKit
import SQLiteCore

@main
struct DBGenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbgen",
        abstract: "Build, compare and update the SQLite database an app ships, from a sqlite3-shell script.",
        discussion: """
            `dbgen build` reads a schema script in the sqlite3 3.40.1 shell's dialect (SQL, \
            the shell's dot-commands such as .mode, .separator, .import, .read and \
            .parameter, and its SQL functions such as readfile() and generate_series) and \
            builds the database `sqlite3 OUTPUT < SCHEMA` would, but stops at the first \
            error with FILE:LINE, never leaves a half-written OUTPUT, and refuses what would \
            write outside it or run a program. With no subcommand, `build` runs.

            Then `check` guards it in CI, `diff` prints the SQL patch from one shipped \
            version to the next, `update` installs a patch or a newer file in the field, \
            and `attach` opens a user database with the shipped one attached read-only.

            Over the air: `keys generate` makes a signing key, `feed init` creates a signed \
            feed (a TUF repository), `publish` adds a release with patches from earlier \
            ones, `feed verify` checks a feed as a device would, and `feed rotate`, \
            `feed timestamp` and `feed prune` maintain it.

            Example:
              dbgen schema/schema.txt -o Resources/food.sqlite --depfile food.d
            """,
        version: DBGenKit.version,
        subcommands: [
            Build.self, Check.self, Attach.self, Diff.self, Update.self, Keys.self, FeedCommand.self, Publish.self,
            Fetch.self,
        ],
        defaultSubcommand: Build.self
    )

    /// The process-wide SQLite settings come first, before any connection opens; then the
    /// arguments are parsed and the subcommand runs.
    static func main() {
        SQLiteLibrary.disableMemoryStatistics()
        main(nil)
    }
}
