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
                document or target and the check that failed; a summary on success. Root, \
                targets and snapshot must stay valid --min-validity days more (30), so CI sees \
                an expiry coming (`dbgen feed timestamp` from a cron renews them).

                Examples:
                  dbgen feed verify feed --root App/Resources/root.json
                  dbgen feed verify https://cdn.example.com/food/ --root App/Resources/root.json
                """)

        @Argument(help: ArgumentHelp("The feed directory, or its http(s) URL.", valueName: "feed-or-url"))
        var feed: String

        @Option(help: ArgumentHelp("The trusted root.json (the one the app bundles).", valueName: "root"))
        var root: String

        @Option(
            help: ArgumentHelp(
                "Fail when root, targets or snapshot expires within this many days (0 to 3650).", valueName: "days"))
        var minValidity = 30

        func run() throws {
            try FeedCommandSupport.run {
                guard (0...3_650).contains(minValidity) else {
                    throw FeedPublisherError("--min-validity", "\(minValidity) is not a number of days from 0 to 3650")
                }
                let url = try FeedCommandSupport.feedURL(feed, rootArgument: root, directories: true)
                let rootData = try FeedCommandSupport.trustedRoot(root)
                let fetcher: Fetcher = url.isFileURL ? FileFetcher() : HTTPFetcher()
                var verifier = FeedVerifier(feedURL: url, root: rootData, fetcher: fetcher)
                verifier.minimumValidity = TimeInterval(minValidity) * 86_400
                verifier.rootName = root
                let result = try verifier.verify()
                let newest = result.releases.first.map { ", newest user_version \($0.userVersion)" } ?? ""
                print(
                    "\(feed): verified: root \(result.rootVersion), timestamp \(result.timestampVersion), "
                        + "snapshot \(result.snapshotVersion), targets \(result.targetsVersion); "
                        + "\(result.releases.count) releases\(newest), \(result.patchCount) patches, "
                        + "\(result.totalBytes) bytes of targets")
            }
        }
    }
}
