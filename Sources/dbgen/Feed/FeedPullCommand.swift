import ArgumentParser
import CommandLineDiagnostics
import FeedPublisher
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

extension DBGenCommand.FeedCommand {
    /// `dbgen feed pull URL FEED --root ROOT`.
    struct FeedPull: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pull",
            abstract: "Bring the hosted feed down into a new directory, verified, to publish from it (for CI).",
            discussion: """
                The feed directory is state: a feed made anew (even with the same key) has lower \
                versions than the hosted one, and devices holding that refuse it or see nothing \
                new. A CI workspace is thrown away after each run, so publish from what is \
                hosted: pull, publish, `feed verify --against URL`, upload (targets first, \
                metadata last).

                Reads URL as a device trusting ROOT does (the root chain, then timestamp, \
                snapshot and targets: signatures, thresholds, versions, lengths and hashes, \
                expiry), with every root \
                version from 1 on; then fetches every target listed, each under its length and \
                checked against its SHA-256; then checks the copy as `feed verify` does. Only \
                then is FEED written, by one rename: on any failure it is as it was. FEED must \
                be absent or an empty directory. URL may also be a directory.

                A hosted feed whose timestamp (or another document) has expired, because the \
                cron that re-signs it stopped, is refused as a device refuses it; \
                --allow-expired pulls it anyway (signatures and versions still checked), and \
                the publish or `dbgen feed timestamp` that follows renews it.

                Example:
                  dbgen feed pull https://cdn.example.com/food/ feed \\
                    --root App/Resources/root.json
                """)

        @Argument(help: ArgumentHelp("The hosted feed: its http(s) URL (or a directory).", valueName: "url"))
        var url: String

        @Argument(help: ArgumentHelp("The directory to write (absent or empty).", valueName: "feed"))
        var feed: String

        @Option(help: ArgumentHelp("The trusted root.json (the one the app bundles).", valueName: "root"))
        var root: String

        @Flag(help: "Pull a hosted feed whose documents have expired (to renew it), saying which.")
        var allowExpired = false

        func run() throws {
            try FeedCommandSupport.run {
                let rootData = try FeedCommandSupport.trustedRoot(root)
                let location = try FeedCommandSupport.location(url, rootArgument: root)
                let (feed, allowExpired) = (self.feed, self.allowExpired)
                let summary = try AsyncWait.result {
                    try await Feed.pull(
                        from: location.url, into: feed, root: rootData, fetcher: location.fetcher,
                        allowExpired: allowExpired)
                }.get()
                let result = summary.verification
                for expired in summary.expired {
                    FeedCommandSupport.note(
                        "\(url): warning: \(expired): devices refuse the hosted feed until a publish or "
                            + "`dbgen feed timestamp` renews it")
                }
                print(
                    "pulled \(url) into \(feed): root \(result.rootVersion), timestamp \(result.timestampVersion), "
                        + "snapshot \(result.snapshotVersion), targets \(result.targetsVersion); "
                        + "\(counted(result.releases.count, "release")), \(counted(result.patchCount, "patch", "patches")), "
                        + "\(counted(summary.fileCount, "file")), \(counted(result.totalBytes, "byte")) of targets")
            }
        }
    }
}
