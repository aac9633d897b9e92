import ArgumentParser
import CommandLineDiagnostics
import FeedClient
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
                target: its length and SHA-256, its facts, its decoded length and SHA-256, and \
                that each patch's base and result are releases of the feed. Exit 1 naming the \
                document or target and the check that failed; a summary on success. Root, \
                targets and snapshot must stay valid --min-validity days more (30), so CI sees \
                an expiry coming (`dbgen feed timestamp` from a cron renews them).

                --against URL (the feed as hosted, before an upload over it): exit 1 when \
                devices holding the hosted feed would refuse or ignore this one: a metadata \
                version below the hosted one, or the same version with other content; a root \
                chain that does not continue the hosted one, or a root lowering its data epoch; \
                a hosted release or base missing (but the oldest releases by data epoch, then \
                user_version, which `feed prune` drops). Start from the hosted feed with \
                `dbgen feed pull`.

                --bundled FILE (the database an app bundles): exit 1 when devices bundling it \
                would download the whole file rather than a patch (the feed does not hold it, or \
                no chain of patches reaches the newest release offered to them for less), by \
                the choice a device makes (--channel and --data-format as `dbgen fetch` takes \
                them).

                Examples:
                  dbgen feed verify feed --root App/Resources/root.json
                  dbgen feed verify https://cdn.example.com/food/ \\
                    --root App/Resources/root.json
                  dbgen feed verify feed --root App/Resources/root.json \\
                    --against https://cdn.example.com/food/ \\
                    --bundled App/Resources/food.sqlite
                """)

        @Argument(help: ArgumentHelp("The feed directory, or its http(s) URL.", valueName: "feed-or-url"))
        var feed: String

        @Option(help: ArgumentHelp("The trusted root.json (the one the app bundles).", valueName: "root"))
        var root: String

        @Option(
            help: ArgumentHelp(
                "The feed as hosted (http(s) URL or directory): fail when devices holding it would refuse or "
                    + "ignore this one.", valueName: "url"))
        var against: String?

        @Option(
            help: ArgumentHelp(
                "A database an app bundles: fail when devices bundling it would download the whole file, not a patch.",
                valueName: "file"))
        var bundled: String?

        @Option(help: ArgumentHelp("With --bundled: a channel the app follows (repeatable).", valueName: "name"))
        var channel: [String] = []

        @Option(help: ArgumentHelp("With --bundled: the data format the app reads.", valueName: "n"))
        var dataFormat: Int64 = 1

        @Option(
            help: ArgumentHelp(
                "Fail when root, targets or snapshot expires within this many days (0 to 3650).", valueName: "days"))
        var minValidity = 30

        func run() throws {
            try FeedCommandSupport.run {
                guard (0...3_650).contains(minValidity) else {
                    throw FeedPublisherError("--min-validity", "\(minValidity) is not a number of days from 0 to 3650")
                }
                let location = try FeedCommandSupport.location(feed, rootArgument: root)
                let rootData = try FeedCommandSupport.trustedRoot(root)
                var verifier = FeedVerifier(feedURL: location.url, root: rootData, fetcher: location.fetcher)
                verifier.minimumValidity = TimeInterval(minValidity) * 86_400
                verifier.rootName = root
                // The task gets the verifier and the options' values, not the command.
                let (result, bundledCheck, hosted) = try AsyncWait.result {
                    [
                        verifier, bundled, channels = Set(channel), dataFormat, against, root
                    ] () async throws -> (FeedVerification, BundledReleaseCheck?, HostedFeedCheck?) in
                    var bundledCheck: BundledReleaseCheck?
                    let result: FeedVerification
                    if let bundled {
                        (result, bundledCheck) = try await verifier.verify(
                            bundled: bundled, channels: channels, dataFormat: dataFormat)
                    } else {
                        result = try await verifier.verify()
                    }
                    var hosted: HostedFeedCheck?
                    if let against {
                        let location = try FeedCommandSupport.location(against, rootArgument: root)
                        hosted = try await verifier.check(againstHosted: location.url, fetcher: location.fetcher)
                    }
                    return (result, bundledCheck, hosted)
                }.get()
                let newest = result.releases.first.map { ", newest user_version \($0.userVersion)" } ?? ""
                let epoch = result.dataEpoch > 0 ? ", data epoch \(result.dataEpoch)" : ""
                print(
                    "\(feed): verified: root \(result.rootVersion), timestamp \(result.timestampVersion), "
                        + "snapshot \(result.snapshotVersion), targets \(result.targetsVersion)\(epoch); "
                        + "\(counted(result.releases.count, "release"))\(newest), \(bases(result))"
                        + "\(counted(result.patchCount, "patch", "patches")), \(counted(result.totalBytes, "byte")) of targets"
                )
                if let against, let hosted {
                    print(
                        "  against \(against): hosted root \(hosted.rootVersion), timestamp \(hosted.timestampVersion), "
                            + "snapshot \(hosted.snapshotVersion), targets \(hosted.targetsVersion): "
                            + (hosted.isUnchanged
                                ? "this feed is the hosted one, unchanged" : "devices holding it take this feed"))
                }
                if let bundled, let bundledCheck { print("  bundled \(bundled): \(Self.describe(bundledCheck))") }
            }
        }

        private func bases(_ result: FeedVerification) -> String {
            guard !result.bases.isEmpty else { return "" }
            let versions = result.bases.map { "\($0.userVersion)" }.joined(separator: ", ")
            return "\(counted(result.bases.count, "base")) (user_version \(versions)), "
        }

        /// What devices bundling the file get, in words.
        static func describe(_ check: BundledReleaseCheck) -> String {
            let bundled = "user_version \(check.bundled.userVersion)"
            guard let newest = check.newest else { return "\(bundled); no newer release is offered to it yet" }
            return
                "\(bundled); a chain of \(counted(check.patchCount, "patch", "patches")) to user_version "
                + "\(newest.userVersion), \(counted(check.bytes, "byte")) (the whole file: \(counted(check.wholeFileBytes, "byte")))"
        }
    }
}
