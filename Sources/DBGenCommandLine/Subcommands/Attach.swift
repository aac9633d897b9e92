import ArgumentParser
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
import LayeredDatabase
import FileSystemKit

extension DBGenSubcommands {
    /// `dbgen attach`: open the layered database as an app would and run SQL against it.
    package struct Attach: ParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "attach",
            abstract: "Open a user database with the shipped database attached read-only, and run SQL.",
            discussion: """
                Opens --user (creating it from --template first if it does not exist, atomically; \
                with no --template a new empty database), ATTACHes --bundled read-only under \
                --as NAME (default 'bundle'), runs each SQL argument in order and prints result \
                rows '|'-separated, NULL as empty. Writes into the bundled database fail with a \
                read-only error; a missing bundled file is an error, never a new empty database. \
                With --updates DIR, the update `dbgen update` installed there is attached instead \
                when its user_version is greater than --bundled's (the bundled file wins ties).

                Example (an app's first launch, then a query over shipped and user rows):
                  dbgen attach --bundled database.sqlite --user Documents/user.sqlite \\
                    --template user.sqlite \\
                    "INSERT INTO user_food (pk, name) VALUES (100001, 'My soup')" \\
                    "SELECT name FROM bundle.food UNION ALL SELECT name FROM user_food"
                """
        )

        package init() {}

        @Option(name: .long, help: ArgumentHelp("The shipped database, attached read-only.", valueName: "file"))
        var bundled: String

        @Option(
            name: .long,
            help: ArgumentHelp(
                "Updates installed by `dbgen update`: attached instead of --bundled when newer (user_version).",
                valueName: "dir"))
        var updates: String?

        @Option(name: .long, help: ArgumentHelp("The writable user database (created if missing).", valueName: "file"))
        var user: String

        @Option(name: .long, help: ArgumentHelp("Template copied to --user when it does not exist.", valueName: "file"))
        var template: String?

        @Option(
            name: .customLong("as"),
            help: ArgumentHelp("Schema name of the bundled database (not main or temp).", valueName: "name"))
        var name: String = LayeredDatabase.defaultBundleName

        @Argument(help: ArgumentHelp("SQL to run, in order; rows are printed '|'-separated.", valueName: "sql"))
        var sql: [String] = []

        package func validate() throws {
            do {
                try SchemaName.validate(name)
            } catch {
                throw ValidationError("--as: \(error)")
            }
        }

        package func run() throws {
            do {
                let database = try LayeredDatabase(
                    userPath: user, templatePath: template, bundledPath: bundled, bundleName: name,
                    updatesDirectory: updates)
                for statement in sql {
                    var output = Data()
                    try database.forEachRow(statement) { row in
                        output.append(Data(row.values.map(\.shellBytes).joined(separator: Data("|".utf8))))
                        output.append(0x0A)
                    }
                    try StandardStream.writeOutput(output)
                }
            } catch {
                throw DBGenPrinter().fail(error)
            }
        }
    }
}
