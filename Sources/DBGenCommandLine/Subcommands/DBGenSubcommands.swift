import ArgumentParser
import DBGenKit

/// The `dbgen` subcommands that need neither networking nor signatures (build, check, attach,
/// diff, update), and the root command's configuration, shared by the two executables that
/// offer them: `dbgen` (these and the over-the-air commands) and `dbgen-plugin-tool` (these
/// only, what the package's plugins run when they build dbgen from source, so that a consumer's
/// build compiles no cryptographic library; Package.swift says why). Both name themselves
/// `dbgen`, so their help, usage lines and messages read the same.
package enum DBGenSubcommands {
    /// The subcommands every `dbgen` executable offers, in the order `--help` lists them.
    package static let all: [ParsableCommand.Type] = [Build.self, Check.self, Attach.self, Diff.self, Update.self]

    /// The root command's configuration: `all` followed by `more`, with `build` the default;
    /// `moreDiscussion`, a paragraph about `more`, goes before the example.
    package static func rootConfiguration(
        adding more: [ParsableCommand.Type] = [], moreDiscussion: String? = nil
    ) -> CommandConfiguration {
        let overview = """
            `dbgen build` reads a schema script in the sqlite3 3.40.1 shell's dialect (SQL, \
            the shell's dot-commands such as .mode, .separator, .import, .read and \
            .parameter, and its SQL functions such as readfile() and generate_series) and \
            builds the database `sqlite3 OUTPUT < SCHEMA` would, but stops at the first \
            error with FILE:LINE, never leaves a half-written OUTPUT, and refuses what would \
            write outside it or run a program. With no subcommand, `build` runs.

            Then `check` guards it in CI, `diff` prints the SQL patch from one shipped \
            version to the next, `update` installs a patch or a newer file in the field, \
            and `attach` opens a user database with the shipped one attached read-only.
            """
        let example = """
            Example:
              dbgen schema/schema.txt -o Resources/food.sqlite --depfile food.d
            """
        return CommandConfiguration(
            commandName: "dbgen",
            abstract: "Build, compare and update the SQLite database an app ships, from a sqlite3-shell script.",
            discussion: ([overview] + (moreDiscussion.map { [$0] } ?? []) + [example]).joined(separator: "\n\n"),
            version: DBGenKit.version,
            subcommands: all + more,
            defaultSubcommand: Build.self
        )
    }
}
