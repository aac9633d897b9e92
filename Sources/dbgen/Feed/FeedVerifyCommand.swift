import ArgumentParser
import FeedClient
import FeedPublisher
import Foundation
import TUF

extension DBGenCommand.FeedCommand {
    /// `dbgen feed verify FEED_OR_URL --root ROOT`.
    struct FeedVerify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a feed as a device would, from the root it trusts (for CI, before upload).",
            discussion: """
                Follows the root chain from ROOT, then checks timestamp, snapshot and targets \
                (signatures, thresholds, versions, expiry, lengths and hashes), then every \
                target: its length and SHA-256, its facts, its inflated length and SHA-256, and \
                that each patch's base and result are releases of the feed. Exit 1 naming the \
                document or target and the check that failed; a summary on success.

                Examples:
                  dbgen feed verify feed --root App/Resources/root.json
                  dbgen feed verify https://cdn.example.com/food/ --root App/Resources/root.json
                """)

        @Argument(help: ArgumentHelp("The feed directory, or its http(s) URL.", valueName: "feed-or-url"))
        var feed: String

        @Option(help: ArgumentHelp("The trusted root.json (the one the app bundles).", valueName: "root"))
        var root: String

        func run() throws {
            try FeedCommandSupport.run {
                guard let rootData = FileManager.default.contents(atPath: root) else {
                    throw FeedPublisherError(root, "cannot read the trusted root")
                }
                let isRemote = feed.hasPrefix("http://") || feed.hasPrefix("https://")
                let url: URL
                if isRemote {
                    guard let remote = URL(string: feed) else { throw FeedPublisherError(feed, "not a URL") }
                    url = remote
                } else {
                    url = URL(fileURLWithPath: feed, isDirectory: true)
                }
                let fetcher: Fetcher = isRemote ? HTTPFetcher() : FileFetcher()
                let result = try FeedVerifier(feedURL: url, root: rootData, fetcher: fetcher).verify()
                let newest = result.releases.first.map { ", newest user_version \($0.userVersion)" } ?? ""
                let epoch = result.dataEpoch > 0 ? ", data epoch \(result.dataEpoch)" : ""
                print(
                    "\(feed): verified: root \(result.rootVersion), timestamp \(result.timestampVersion), "
                        + "snapshot \(result.snapshotVersion), targets \(result.targetsVersion)\(epoch); "
                        + "\(result.releases.count) releases\(newest), \(result.patchCount) patches, "
                        + "\(result.totalBytes) bytes of targets")
            }
        }
    }
}
