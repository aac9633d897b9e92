import ArgumentParser
import CommandLineDiagnostics
import DBGenCommandLine
import FeedClient
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

extension DBGenCommand {
    /// `dbgen fetch`: what an app does to update its shipped data from a feed, for scripts and CI.
    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Check a signed feed and install what is new into an updates directory, as an app would.",
            discussion: """
                Runs FeedClient's FeedUpdater, the code an app links: verifies the feed's TUF \
                metadata against ROOT (the root the app bundles; later runs trust what DIR/.feed \
                keeps), chooses the newest release offered to this client (channel, data format, \
                rollout bucket, critical) and installs it into DIR by the cheapest chain of patches \
                or the whole file, each download resumable, verified and decoded under its \
                declared length. Prints what it did on standard error (or that nothing is new, \
                and which newer releases this client is not offered and why: their channel, \
                data formats or rollout) and exits 0; on any failure prints WHAT: error: WHY, exits 1, and the database in \
                effect is as it was. DIR is the only place it writes.

                Example:
                  dbgen fetch https://cdn.example.com/food-feed/ --root App/root.json \\
                    --bundled App/food.sqlite --updates ~/Library/food-updates \\
                    --data-format 3
                """
        )

        @Argument(help: ArgumentHelp("The feed's URL (the directory holding root.json).", valueName: "url"))
        var url: String

        @Option(help: ArgumentHelp("The feed's root.json as the app bundles it.", valueName: "root"))
        var root: String

        @Option(help: ArgumentHelp("The database shipped in the app (only read).", valueName: "file"))
        var bundled: String

        @Option(help: ArgumentHelp("The app-owned directory updates go into.", valueName: "dir"))
        var updates: String

        @Option(help: ArgumentHelp("A channel the app follows (repeatable).", valueName: "name"))
        var channel: [String] = []

        @Option(help: ArgumentHelp("The data format the app reads.", valueName: "n"))
        var dataFormat: Int64 = 1

        @Flag(help: "Only check: print the plan, install nothing.")
        var checkOnly = false

        func run() throws {
            let printer = DBGenPrinter()
            var (feedURL, rootData) = (URL(fileURLWithPath: "/"), Data())
            try FeedCommandSupport.run {
                feedURL = try FeedCommandSupport.feedURL(url, rootArgument: root, directories: false)
                rootData = try FeedCommandSupport.trustedRoot(root)
            }
            let updater = FeedUpdater(
                feedURL: feedURL, bundledRoot: rootData, bundledDatabasePath: bundled, updatesDirectory: updates,
                dataFormat: dataFormat, channels: Set(channel))
            let checkOnly = self.checkOnly
            let outcome = AsyncWait.result { checkOnly ? try await updater.check() : try await updater.update() }
            switch outcome {
            case .success(let plan):
                printer.write(Self.summary(of: plan, installed: !checkOnly))
            case .failure(let error):
                printer.write("\(error)")
                throw ExitCode(1)
            }
        }

        /// What a run did, in one line, then a line for each newer release not offered to this
        /// client, saying why.
        static func summary(of plan: UpdatePlan, installed: Bool) -> String {
            let withheld = plan.withheld.map { withheld in
                "\ndbgen: user_version \(withheld.release.userVersion) is not offered to this client: "
                    + withheld.reasons.map(\.description).joined(separator: "; ")
            }.joined()
            let reset =
                plan.resetsData
                ? "\(installed ? "removed" : "would remove") the update of an earlier data epoch "
                    + "(user_version \(plan.userVersionInEffect))" : ""
            guard let release = plan.release else {
                guard plan.resetsData else {
                    return "dbgen: nothing new (user_version \(plan.userVersionInEffect) is in effect)" + withheld
                }
                return "dbgen: \(reset); the bundled database is in effect" + withheld
            }
            let path =
                plan.usesPatches
                ? "a chain of \(counted(plan.steps.count, "patch", "patches"))" : "the whole file"
            return "dbgen: \(reset.isEmpty ? "" : reset + " and ")\(installed ? "installed" : "would install") "
                + "user_version \(release.userVersion) via \(path), \(counted(plan.byteCount, "byte"))" + withheld
        }
    }
}
