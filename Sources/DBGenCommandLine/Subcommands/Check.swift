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

extension DBGenSubcommands {
    package struct Check: ParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check that OUTPUT holds what SCHEMA builds (exit 0 same, 1 different, 2 error).",
            discussion: """
                Builds SCHEMA into a scratch file and compares content, not bytes: schema objects, \
                every table's rows and value types, user_version. Differences name the tables.

                Example:
                  dbgen check schema/schema.txt -o App/Resources/food.sqlite
                """
        )

        package init() {}

        @Argument(help: "The schema script.")
        var schema: String = BuildOptions.defaultSchema

        @Option(name: .shortAndLong, help: "The database to check.")
        var output: String

        @Flag(help: "Print nothing but errors and differences.")
        var quiet = false

        package func run() throws {
            let printer = DBGenPrinter()
            let result: SchemaCheck.Result
            do {
                result = try SchemaCheck.run(
                    schema: schema, output: output, diagnosticHandler: quiet ? nil : printer.print)
            } catch {
                throw printer.fail(error, status: 2)
            }
            if result.isCurrent {
                if !quiet { print("\(output) is up to date with \(schema)") }
                return
            }
            print("\(output) differs from what \(schema) builds:")
            for difference in result.differences { print("  \(difference)") }
            throw ExitCode(1)
        }
    }
}
