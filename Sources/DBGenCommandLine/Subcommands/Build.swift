import ArgumentParser
import CommandLineDiagnostics
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
import EssentialsSupport

extension DBGenSubcommands {
    package struct Build: ParsableCommand {
        package static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Build OUTPUT from SCHEMA (skipped when nothing changed since the last build).",
            discussion: """
                SCHEMA is a sqlite3 3.40 shell script: SQL statements and the shell's dot-commands \
                (.mode, .separator, .import [--csv|--ascii] [--skip N] [--schema S] FILE TABLE, \
                .read FILE, .parameter, .dbconfig, .limit, ...) with the shell's SQL functions \
                (readfile, generate_series, sha3, decimal_*, ...). Paths in a script are relative \
                to that script. What would run a program, write a file or load code (.shell, \
                .system, .output FILE, pipes, VACUUM INTO, load_extension()) is refused.

                Errors are printed as PATH:LINE:COL: error: MESSAGE and exit with status 1; \
                OUTPUT is then exactly as it was. When no input changed since the last build, \
                dbgen exits 0 at once without writing: it keeps a fingerprint of the last build \
                (every input's path, size, mtime and inode, the output's, dbgen's and SQLite's \
                versions and --strict; an input modified as the build began is not trusted) \
                beside the depfile (.DEPFILE.dbgen-fingerprint) or, \
                without one, in the cache directory ($DBGEN_CACHE_DIR, else ~/.cache/dbgen or \
                ~/Library/Caches/dbgen), never beside OUTPUT.

                Examples:
                  dbgen                                  # schema/schema.txt -> ./schema.sqlite
                  dbgen build data/schema.txt -o App/Resources/food.sqlite --depfile food.d
                  dbgen data/schema.txt -o food.sqlite --json --quiet
                """
        )

        package init() {}

        @Argument(help: "The schema script.")
        var schema: String = BuildOptions.defaultSchema

        @Option(
            name: .shortAndLong,
            help: "The database to build (default: SCHEMA's base name + .sqlite, in the current directory).")
        var output: String?

        @Flag(help: "Rebuild even when no input changed.")
        var force = false

        @Flag(help: "Treat warnings (such as short rows in an import) as errors.")
        var strict = false

        @Option(help: ArgumentHelp("Write a Makefile-style dependency file listing every input.", valueName: "file"))
        var depfile: String?

        @Flag(help: "Print a JSON summary (tables, rows, warnings and their counts, seconds, output) on stdout.")
        var json = false

        @Flag(help: "Print nothing but errors.")
        var quiet = false

        @OptionGroup(title: "Build systems")
        var buildSystem: BuildSystemOptions

        /// How long an import runs before the progress bar appears (tests set 0).
        @Option(help: .hidden)
        var progressDelay: Double = ProgressBar.defaultDelay

        package func run() throws {
            var options = buildSystem.applied(
                to: BuildOptions(schema: schema, output: output ?? BuildOptions.defaultOutput(forSchema: schema)))
            options.force = force
            options.strict = strict
            options.depfile = depfile
            // getenv, not ProcessInfo's environment: that copies every variable into a dictionary.
            options.cacheDirectory = BuildOptions.defaultCacheDirectory(
                environment: getenv("DBGEN_CACHE_DIR").map { ["DBGEN_CACHE_DIR": String(cString: $0)] } ?? [:])
            let progressBar = ProgressBar(enabled: !quiet && isatty(STDERR_FILENO) != 0, delay: progressDelay)
            let printer = DBGenPrinter(beforeWriting: progressBar.finish)
            if !quiet {
                options.diagnosticHandler = printer.print
                options.progressHandler = progressBar.update
            }
            let summary: BuildSummary
            do {
                defer { progressBar.finish() }
                summary = try DatabaseBuilder.build(options)
            } catch {
                throw printer.fail(error)
            }
            if json {
                try StandardStream.writeOutput(try summary.jsonData() + Data("\n".utf8))
            } else if !quiet {
                let rows = summary.tables.reduce(0) { $0 + $1.rows }
                printer.write(
                    summary.upToDate
                        ? "\(summary.output) is up to date"
                        : "built \(summary.output): \(counted(summary.tables.count, "table")), \(counted(rows, "row")) "
                            + "in \(PrintfFormat.string("%.2f", summary.seconds)) s"
                )
            }
        }
    }
}
