import Foundation
import ShipyardTestSupport
import XCTest

/// The feed operated from throwaway CI workspaces through the built `dbgen`: each run pulls the
/// hosted feed (nginx on 127.0.0.1), publishes, verifies against the hosted feed and for the
/// bundled release, and uploads (targets first, metadata last), and a device bundling the first
/// release gets a patch; a feed made anew, a pull over a directory in use and a bundled release
/// the feed lacks are refused, each naming what and why.
final class FeedCITests: XCTestCase {
    private var directory: TemporaryDirectory!
    /// Every run signs with the same dates (so a feed made anew has the hosted first root, and
    /// the refusal it meets is its timestamp's).
    private let epoch = "\(Int(Date().timeIntervalSince1970))"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("dbgen-feed-ci", removedAfter: self)
    }

    private func dbgen(_ arguments: [String]) throws -> ProcessResult {
        try BuiltProducts.run("dbgen", arguments, in: directory.url, environment: ["SOURCE_DATE_EPOCH": epoch])
    }

    @discardableResult
    private func succeed(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> ProcessResult
    {
        let result = try dbgen(arguments)
        XCTAssertEqual(
            result.status, 0, "dbgen \(arguments.joined(separator: " ")): \(result.stderrText)", file: file, line: line)
        return result
    }

    private func release(_ version: Int) throws {
        try directory.write(
            "v\(version).txt",
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
            INSERT INTO t SELECT value, CASE WHEN value % \(7 * version) = 0 THEN 'new\(version)' ELSE 'old' END
              || value || hex(value * 7919) FROM generate_series(1, 800);
            PRAGMA user_version = \(version);

            """)
        try succeed(["build", "v\(version).txt", "-o", "v\(version).sqlite", "--force"])
    }

    /// What the release machine did once, by hand: a key, the feed, the releases given, uploaded to
    /// `hosted/`, and the root the app bundles in `App/root.json`. Returns nginx serving `hosted/`.
    private func hostFeed(publishing versions: [Int]) throws -> NginxServer {
        try succeed(["keys", "generate", "--out", "k"])
        try succeed(["feed", "init", "first", "--key", "k"])
        try FileManager.default.createDirectory(at: directory.url("App"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: directory.url("first/root.json"), to: directory.url("App/root.json"))
        for version in versions { try succeed(["publish", "first", "v\(version).sqlite", "--key", "k"]) }
        try upload("first")
        return try NginxServer(serving: directory.url("hosted"))
    }

    /// The recipe's upload: `targets/` first, then the metadata, over what is hosted.
    private func upload(_ feed: String) throws {
        func order(_ name: String) -> (Int, String) { (name.hasPrefix("targets/") ? 0 : 1, name) }
        for (name, data) in DirectoryTree.files(under: directory.url(feed).path).sorted(by: {
            order($0.key) < order($1.key)
        }) {
            let target = directory.url("hosted/" + name)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target)
        }
    }

    func testEachRunPullsPublishesVerifiesAgainstTheHostedFeedAndUploads() throws {
        for version in 1...3 { try release(version) }
        let nginx = try hostFeed(publishing: [1])
        defer { nginx.stop() }
        let url = nginx.url("/").absoluteString
        for version in 2...3 {
            let feed = "run-\(version)/feed"
            try FileManager.default.createDirectory(
                at: directory.url("run-\(version)"), withIntermediateDirectories: true)
            let pulled = try succeed(["feed", "pull", url, feed, "--root", "App/root.json"])
            XCTAssertTrue(
                pulled.stdoutText.hasPrefix(
                    "pulled \(url) into \(feed): root 1, timestamp \(version), snapshot \(version), targets \(version); "
                        + (version == 2 ? "1 release," : "\(version - 1) releases,")),
                pulled.stdoutText)
            let unchanged = try succeed(["feed", "verify", feed, "--root", "App/root.json", "--against", url])
            XCTAssertTrue(
                unchanged.stdoutText.contains(": this feed is the hosted one, unchanged\n"), unchanged.stdoutText)
            try succeed([
                "publish", feed, "v\(version).sqlite", "--key", "k", "--against", url, "--root", "App/root.json",
            ])
            let verified = try succeed(
                ["feed", "verify", feed, "--root", "App/root.json", "--against", url, "--bundled", "v1.sqlite"])
            XCTAssertTrue(
                verified.stdoutText.contains(
                    "\n  against \(url): hosted root 1, timestamp \(version), snapshot \(version), targets \(version): "
                        + "devices holding it take this feed\n"),
                verified.stdoutText)
            XCTAssertTrue(
                verified.stdoutText.contains(
                    "\n  bundled v1.sqlite: user_version 1; a chain of 1 patch to user_version \(version), "),
                verified.stdoutText)
            try upload(feed)
        }
        let fetched = try succeed([
            "fetch", url, "--root", "App/root.json", "--bundled", "v1.sqlite", "--updates", "device",
        ])
        XCTAssertTrue(
            fetched.stderrText.hasPrefix("dbgen: installed user_version 3 via a chain of 1 patch, "), fetched.stderrText
        )
    }

    func testAFeedMadeAnewAPullOverADirectoryInUseAndAMissingBundledReleaseAreRefused() throws {
        for version in 1...4 { try release(version) }
        // The feed was started after the app (bundling release 1) shipped.
        let nginx = try hostFeed(publishing: [2, 3])
        defer { nginx.stop() }
        let url = nginx.url("/").absoluteString
        // The usual mistake: a feed made anew in the workspace with the same key.
        try succeed(["feed", "init", "anew", "--key", "k"])
        try succeed(["publish", "anew", "v4.sqlite", "--key", "k"])
        XCTAssertEqual(try succeed(["feed", "verify", "anew", "--root", "App/root.json"]).status, 0)
        let before = DirectoryTree.files(under: directory.url("anew").path)
        let publishing = try dbgen(
            ["publish", "anew", "v3.sqlite", "--key", "k", "--against", url, "--root", "App/root.json"])
        XCTAssertEqual(publishing.status, 1)
        XCTAssertTrue(
            publishing.stderrText.hasPrefix(
                "anew/timestamp.json: error: version 2 is below the hosted version 3: devices holding the hosted"),
            publishing.stderrText)
        XCTAssertEqual(DirectoryTree.files(under: directory.url("anew").path), before, "nothing published")
        let rootless = try dbgen(["publish", "anew", "v3.sqlite", "--key", "k", "--against", url])
        XCTAssertEqual(rootless.stderrText, "--against: error: needs --root (the root the app bundles)\n")
        let refused = try dbgen(["feed", "verify", "anew", "--root", "App/root.json", "--against", url])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(
            refused.stderrText.hasPrefix(
                "anew/timestamp.json: error: version 2 is below the hosted version 3: devices holding the hosted "
                    + "feed refuse it as a rollback (a feed created anew, or an old copy? start from the hosted one: "
                    + "`dbgen feed pull URL FEED --root ROOT`)\n"),
            refused.stderrText)
        XCTAssertEqual(refused.stdoutText, "")
        // A pull never writes over a directory in use, nor from where no feed is.
        let busy = try dbgen(["feed", "pull", url, "anew", "--root", "App/root.json"])
        XCTAssertEqual(busy.status, 1)
        XCTAssertTrue(busy.stderrText.hasPrefix("anew: error: not empty: "), busy.stderrText)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory.url("anew/2.targets.json").path))
        let nowhere = try dbgen(["feed", "pull", url + "nothing/", "feed", "--root", "App/root.json"])
        XCTAssertEqual(nowhere.status, 1)
        XCTAssertTrue(nowhere.stderrText.contains(": error: not found: no feed is hosted at "), nowhere.stderrText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url("feed").path))
        // The bundled release: devices bundling it download the whole file until it is a base.
        try succeed(["feed", "pull", url, "feed", "--root", "App/root.json"])
        let whole = try dbgen(["feed", "verify", "feed", "--root", "App/root.json", "--bundled", "v1.sqlite"])
        XCTAssertEqual(whole.status, 1)
        XCTAssertTrue(
            whole.stderrText.hasPrefix("v1.sqlite: error: devices bundling it (user_version 1, sha256 "),
            whole.stderrText)
        XCTAssertTrue(
            whole.stderrText.contains(
                "would download the whole file: the feed does not hold this release, so no patch starts from it"),
            whole.stderrText)
        let added = try succeed(["publish", "feed", "v1.sqlite", "--key", "k", "--base-only"])
        let lines = added.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("added base user_version 1 (") ?? false, added.stdoutText)
        XCTAssertEqual(lines.dropFirst().first, "  never offered: a patch base only")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  patch to user_version 3: ") }, added.stdoutText)
        let verified = try succeed(
            ["feed", "verify", "feed", "--root", "App/root.json", "--against", url, "--bundled", "v1.sqlite"])
        XCTAssertTrue(verified.stdoutText.contains("2 releases, newest user_version 3, 1 base (user_version 1), "))
        XCTAssertTrue(
            verified.stdoutText.contains("  bundled v1.sqlite: user_version 1; a chain of 1 patch to user_version 3"))
        try upload("feed")
        let fetched = try succeed(["fetch", url, "--root", "App/root.json", "--bundled", "v1.sqlite", "--updates", "d"])
        XCTAssertTrue(fetched.stderrText.hasPrefix("dbgen: installed user_version 3 via a chain of 1 patch"))
        for (command, words) in [
            (["feed", "pull"], ["Example", "--root", "--allow-expired"]),
            (["feed", "verify"], ["--against", "--bundled", "--data-format"]),
            (["publish"], ["--base-only", "--against"]),
        ] {
            let help = try succeed(command + ["--help"]).stdoutText
            for word in words { XCTAssertTrue(help.contains(word), "\(command) --help: \(word)") }
        }
        // A backslash only ends an example's line (a shell continuation), never sits inside one.
        let strays = try succeed(["feed", "pull", "--help"]).stdoutText.split(separator: "\n").filter {
            $0.contains("\\") && !($0.hasSuffix(" \\") && $0.filter { $0 == "\\" }.count == 1)
        }
        XCTAssertEqual(strays, [], "no stray line continuation")
    }

    /// The recipe as users copy it (Examples/Feed/publish-feed.yml): its `dbgen` steps run as
    /// written, in its workspace layout, against a feed served by nginx; its upload puts the
    /// targets first and timestamp.json last; a device bundling the app's release then gets a patch.
    func testTheWorkflowRecipesStepsRunAsWritten() throws {
        let workflow = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Examples/Feed/publish-feed.yml"),
            encoding: .utf8)
        let lines = workflow.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func value(_ name: String) throws -> String {
            let line = try XCTUnwrap(lines.first { $0.hasPrefix(name + ": ") }, name)
            return String(line.dropFirst(name.count + 2).split(separator: " ")[0])
        }
        let steps = lines.filter { $0.hasPrefix("run: dbgen ") }.map { String($0.dropFirst("run: ".count)) }
        XCTAssertEqual(
            steps.map { $0.split(separator: " ").prefix(3).joined(separator: " ") },
            ["dbgen Data/food.dbgen.txt -o", "dbgen feed pull", "dbgen publish feed", "dbgen feed verify"],
            "build, pull, publish, verify: \(steps)")
        guard steps.count == 4 else { return }
        XCTAssertTrue(steps[3].contains("--against \"$FEED_URL\" --bundled \"$BUNDLED\""), steps[3])
        let uploads = lines.filter { $0.hasPrefix("aws s3 ") }
        XCTAssertEqual(uploads.count, 3)
        XCTAssertTrue(uploads.first?.contains("feed/targets ") ?? false, "\(uploads)")
        XCTAssertTrue(uploads.last?.contains("feed/timestamp.json ") ?? false, "\(uploads)")
        // The release machine's one-time setup: the feed, the bundled release first, uploaded.
        let (root, bundled) = (try value("ROOT"), try value("BUNDLED"))
        for version in 1...2 { try release(version) }
        let nginx = try hostFeed(publishing: [1])
        defer { nginx.stop() }
        try FileManager.default.createDirectory(
            at: directory.url(bundled).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: directory.url("App/root.json"), to: directory.url(root))
        try FileManager.default.copyItem(at: directory.url("v1.sqlite"), to: directory.url(bundled))
        try directory.write("Data/food.dbgen.txt", try String(contentsOf: directory.url("v2.txt"), encoding: .utf8))
        try FileManager.default.createDirectory(at: directory.url("runner-temp"), withIntermediateDirectories: true)
        let environment = [
            "PATH": (BuiltProducts.path("dbgen") as NSString).deletingLastPathComponent + ":/usr/bin:/bin",
            "FEED_URL": nginx.url("/").absoluteString, "ROOT": root, "BUNDLED": bundled,
            "RUNNER_TEMP": directory.url("runner-temp").path,
            "FEED_KEY": try String(contentsOf: directory.url("k"), encoding: .utf8), "SOURCE_DATE_EPOCH": epoch,
        ]
        for step in steps {
            let result = try ProcessRunner.run("/bin/bash", ["-c", step], in: directory.url, environment: environment)
            XCTAssertEqual(result.status, 0, "\(step): \(result.stderrText)")
        }
        try upload("feed")
        let fetched = try succeed([
            "fetch", nginx.url("/").absoluteString, "--root", root, "--bundled", bundled, "--updates", "d",
        ])
        XCTAssertTrue(
            fetched.stderrText.hasPrefix("dbgen: installed user_version 2 via a chain of 1 patch"), fetched.stderrText)
    }
}
