import ArgumentParser
import DBGenCommandLine
import FeedClient
import Foundation

extension DBGenCommand {
    /// `dbgen fetch`: what an app does to update its shipped data from a feed, for scripts and CI.
    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a signed feed and install what is new into an updates directory, as an app would.",
            discussion: """
                Runs FeedClient's FeedUpdater, the code an app links: verifies the feed's TUF \
                metadata against ROOT (the root the app bundles; later runs trust what DIR/.feed \
                keeps), chooses the newest release offered to this client (channel, data format, \
                rollout bucket, critical) and installs it into DIR by the cheapest chain of patches \
                or the whole file, each download resumable, verified and inflated under its \
                declared length. Prints what it did on standard error (or that nothing is new) \
                and exits 0; on any failure prints WHAT: error: WHY, exits 1, and the database in \
                effect is as it was. DIR is the only place it writes.

                Example:
                  dbgen fetch https://cdn.example.com/food-feed/ --root App/root.json \\
                    --bundled App/food.sqlite --updates ~/Library/food-updates --data-format 3
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
            guard let feedURL = URL(string: url), feedURL.scheme != nil else {
                printer.write("\(url): error: not a URL")
                throw ExitCode(1)
            }
            guard let rootData = FileManager.default.contents(atPath: root) else {
                printer.write("\(root): error: cannot read the root")
                throw ExitCode(1)
            }
            let updater = FeedUpdater(
                feedURL: feedURL, bundledRoot: rootData, bundledDatabasePath: bundled, updatesDirectory: updates,
                dataFormat: dataFormat, channels: Set(channel))
            let checkOnly = self.checkOnly
            let outcome = Self.wait { checkOnly ? try await updater.check() : try await updater.update() }
            switch outcome {
            case .success(let plan):
                printer.write(Self.summary(of: plan, installed: !checkOnly))
            case .failure(let error):
                printer.write("\(error)")
                throw ExitCode(1)
            }
        }

        /// What a run did, in one line.
        static func summary(of plan: UpdatePlan, installed: Bool) -> String {
            let reset =
                plan.resetsData
                ? "\(installed ? "removed" : "would remove") the update of an earlier data epoch "
                    + "(user_version \(plan.userVersionInEffect))" : ""
            guard let release = plan.release else {
                guard plan.resetsData else {
                    return "dbgen: nothing new (user_version \(plan.userVersionInEffect) is in effect)"
                }
                return "dbgen: \(reset); the bundled database is in effect"
            }
            let path =
                plan.usesPatches
                ? "a chain of \(plan.steps.count) patch\(plan.steps.count == 1 ? "" : "es")" : "the whole file"
            return "dbgen: \(reset.isEmpty ? "" : reset + " and ")\(installed ? "installed" : "would install") "
                + "user_version \(release.userVersion) via \(path), \(plan.byteCount) bytes"
        }

        /// Runs `body` in a task and waits for it (the command itself is synchronous).
        private static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
            let done = DispatchSemaphore(value: 0)
            let box = ResultBox<T>()
            Task.detached {
                do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
                done.signal()
            }
            done.wait()
            return box.result!
        }
    }
}

/// The result a detached task hands to the waiting command (written before the semaphore
/// is signalled, read after).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
