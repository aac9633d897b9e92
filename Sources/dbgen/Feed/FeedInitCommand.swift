import ArgumentParser
import FeedPublisher

extension DBGenCommand.FeedCommand {
    /// `dbgen feed init FEED --key KEY`.
    struct FeedInit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create a feed in a new or empty directory, signed by KEY.",
            discussion: """
                Writes 1.root.json and root.json (KEY for the root, targets, snapshot and \
                timestamp roles, threshold 1; consistent snapshots) and an empty targets, \
                snapshot and timestamp, so the feed verifies and a client finds nothing new. \
                The app bundles FEED/root.json. A directory that is not empty is refused.

                Example:
                  dbgen feed init feed --key release.key
                """)

        @Argument(help: ArgumentHelp("The feed directory (new or empty).", valueName: "feed"))
        var feed: String

        @Option(help: FeedCommandSupport.keyHelp)
        var key: String

        @Option(help: FeedCommandSupport.timestampHelp)
        var timestampExpires = 86_400

        func run() throws {
            try FeedCommandSupport.run {
                let clock = try FeedCommandSupport.clock(timestampExpires: timestampExpires)
                let (signingKey, _) = try FeedCommandSupport.keys([key])[0]
                try Feed(directory: feed, clock: clock).initialize(key: signingKey)
                print("created \(feed)/root.json (bundle this copy in the app)")
            }
        }
    }
}
