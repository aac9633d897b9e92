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

        @OptionGroup var signing: FeedSigningOptions

        func run() throws {
            try FeedCommandSupport.run {
                let (feed, keys) = try signing.open()
                try feed.initialize(key: keys[0].key)
                print("created \(signing.feed)/root.json (bundle this copy in the app)")
            }
        }
    }
}
