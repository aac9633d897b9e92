import ArgumentParser
import DBGenCommandLine
import SQLiteCore

/// `dbgen`: every subcommand. Those that need neither networking nor signatures live in
/// DBGenCommandLine, shared with `dbgen-plugin-tool` (what the plugins build from source).
@main
struct DBGenCommand: ParsableCommand {
    static let configuration = DBGenSubcommands.rootConfiguration()

    /// The process-wide SQLite settings come first, before any connection opens; then the
    /// arguments are parsed and the subcommand runs.
    static func main() {
        SQLiteLibrary.disableMemoryStatistics()
        main(nil)
    }
}
