import ArgumentParser
import DBGenCommandLine
import SQLiteCore

/// `dbgen`: every subcommand. Those that need neither networking nor signatures live in
/// DBGenCommandLine, shared with `dbgen-plugin-tool` (what the plugins build from source).
@main
struct DBGenCommand: ParsableCommand {
    static let configuration = DBGenSubcommands.rootConfiguration(
        adding: [Keys.self, FeedCommand.self, Publish.self, Fetch.self, Sync.self],
        moreDiscussion: """
            Over the air: `keys generate` makes a signing key, `feed init` creates a signed \
            feed (a TUF repository), `publish` adds a release with patches from earlier \
            ones, `feed verify` checks a feed as a device would, and `feed rotate`, \
            `feed timestamp` and `feed prune` maintain it; `fetch` installs the newest release from \
            a feed into an updates directory, as an app's FeedClient does. `sync` syncs a user \
            database with a sync server as an app's SyncClient does; `sync token` and \
            `keys jwks` make the server's bearer tokens and the key set it verifies them with.
            """)

    /// The process-wide SQLite settings come first, before any connection opens; then the
    /// arguments are parsed and the subcommand runs.
    static func main() {
        SQLiteLibrary.disableMemoryStatistics()
        main(nil)
    }
}
