import ArgumentParser
import FeedPublisher

extension DBGenCommand.FeedCommand {
    /// `dbgen feed init FEED --key KEY [--recovery-key PUBLIC_KEY ...]`.
    struct FeedInit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create a feed in a new or empty directory, signed by KEY.",
            discussion: """
                Writes 1.root.json and root.json (KEY for the root, targets, snapshot and \
                timestamp roles, threshold 1; consistent snapshots) and an empty targets, \
                snapshot and timestamp, so the feed verifies and a client finds nothing new. \
                The app bundles FEED/root.json. A directory that is not empty is refused.

                Recovery keys: each --recovery-key is named for the root role only. Its \
                private key, stored offline, signs no release; when KEY is lost or leaked, \
                `dbgen feed rotate FEED --key RECOVERY_KEY --new-key NEW_KEY` moves the feed \
                to a new key, and devices follow without an app release.

                Example:
                  dbgen keys generate --out release.key
                  recovery=$(dbgen keys generate --out recovery.key)  # keep it offline
                  dbgen feed init feed --key release.key --recovery-key "$recovery"
                """)

        @OptionGroup var signing: FeedSigningOptions

        @Option(help: FeedCommandSupport.recoveryKeyHelp)
        var recoveryKey: [String] = []

        func run() throws {
            try FeedCommandSupport.run {
                let recovery = try FeedCommandSupport.recoveryKeys(recoveryKey)
                let (feed, keys) = try signing.open()
                try feed.initialize(key: keys[0].key, recoveryKeys: recovery)
                print("created \(signing.feed)/root.json (bundle this copy in the app)")
            }
        }
    }
}
