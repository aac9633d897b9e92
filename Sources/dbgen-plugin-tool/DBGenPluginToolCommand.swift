import ArgumentParser
import DBGenCommandLine
import SQLiteCore

/// `dbgen-plugin-tool`: `dbgen` without the over-the-air commands (keys, feed, publish, fetch),
/// so it links no TUF, FeedClient or swift-crypto: the tool the package's plugins run when a
/// consumer builds Shipyard from source, which then compiles no BoringSSL (Package.swift says
/// why). Its command name is `dbgen`: `--help`, usage lines and messages read as `dbgen`'s
/// (EndToEndTests compare them).
@main
struct DBGenPluginToolCommand: ParsableCommand {
    static let configuration = DBGenSubcommands.rootConfiguration()

    /// The process-wide SQLite settings come first, before any connection opens; then the
    /// arguments are parsed and the subcommand runs.
    static func main() {
        SQLiteLibrary.disableMemoryStatistics()
        main(nil)
    }
}
