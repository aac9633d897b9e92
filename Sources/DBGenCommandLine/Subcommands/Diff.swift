import ArgumentParser
import DBGenKit
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FileSystemKit

extension DBGenSubcommands {
    /// `dbgen diff`: SQL (or a summary, or a changeset) that turns OLD into NEW.
    package struct Diff: ParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Print SQL that turns OLD into NEW exactly (rows, values, schema, user_version).",
            discussion: """
                `sqlite3 COPY_OF_OLD < patch.sql` gives NEW's content: schema, rows with their \
                types and exact values (REALs bit for bit), user_version. Tables are compared by \
                rowid (WITHOUT ROWID tables by primary key), as sqldiff does; schema changes \
                (tables, columns, indexes, views, triggers, virtual tables) are carried too. \
                Prints nothing when the contents are the same. Exit 0 whether or not they differ. \
                The patch starts with a header (SQL comments) naming its base and target by \
                user_version and SHA-256, which `dbgen update` checks. A patch whose NEW has a \
                user_version not greater than OLD's would not install: refused unless --force.

                Examples:
                  dbgen diff v1.sqlite v2.sqlite > v2.patch.sql
                  dbgen diff --summary v1.sqlite v2.sqlite
                  dbgen diff --changeset v2.changeset v1.sqlite v2.sqlite
                """
        )

        package init() {}

        @Argument(help: ArgumentHelp("The database the patch applies to.", valueName: "old"))
        var old: String

        @Argument(help: ArgumentHelp("The database the patch produces.", valueName: "new"))
        var new: String

        @Flag(help: "Print sqldiff's per-table summary lines instead of SQL.")
        var summary = false

        @Option(
            help: ArgumentHelp(
                "Write a session-extension changeset of the row changes to FILE instead of SQL.", valueName: "file"))
        var changeset: String?

        @Option(help: ArgumentHelp("Compare only this table (with its indexes and triggers).", valueName: "name"))
        var table: String?

        @Flag(help: "Write the SQL patch even when NEW's user_version is not greater than OLD's.")
        var force = false

        package func run() throws {
            do {
                let diff = try DatabaseDiff(oldPath: old, newPath: new, table: table)
                if let changeset {
                    try diff.writeChangeset(to: changeset)
                } else if summary {
                    try StandardStream.writeOutput(try diff.summary())
                } else {
                    if !force { try diff.requireNewerVersion() }
                    try diff.writePatch(toFileDescriptor: 1)
                }
            } catch {
                throw DBGenPrinter().fail(error)
            }
        }
    }
}
