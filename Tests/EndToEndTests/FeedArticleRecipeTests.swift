import Foundation
import ShipyardTestSupport
import XCTest

/// The shell recipes of "Updating shipped data over the air" run as written, with the built
/// dbgen on PATH, in a directory holding only what the article says is there: the quick start,
/// a key from a CI secret, and the recovery of a lost main key (after which a device bundling the
/// first root follows the new key, and the lost one publishes nothing).
final class FeedArticleRecipeTests: XCTestCase {
    static let article = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FeedClient/FeedClient.docc/UpdatingOverTheAir.md")

    /// The article's ```` ```sh ```` block that contains `line`.
    static func recipe(containing line: String) throws -> String {
        let text = try String(contentsOf: article, encoding: .utf8)
        let blocks = text.components(separatedBy: "```sh\n").dropFirst().map {
            String($0[..<($0.range(of: "```")?.lowerBound ?? $0.endIndex)])
        }
        let matching = blocks.filter { $0.contains(line) }
        guard matching.count == 1 else {
            XCTFail("UpdatingOverTheAir.md has \(matching.count) sh blocks with `\(line)`, not 1")
            return ""
        }
        return matching[0]
    }

    /// Runs `script` with bash (`set -euo pipefail`) in the workspace, dbgen on PATH.
    @discardableResult
    static func run(_ script: String, in workspace: FeedWorkspace) throws -> ProcessResult {
        let path = BuiltProducts.directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try ProcessRunner.run(
            "/bin/bash", ["-c", "set -euo pipefail\n" + script], in: workspace.directory.url,
            environment: ["PATH": path])
    }

    func testTheQuickStartRunsAsWritten() throws {
        let workspace = try FeedWorkspace(self)
        try workspace.release("food-v1", version: 1)
        try FileManager.default.createDirectory(
            at: workspace.directory.url("App/Resources"), withIntermediateDirectories: true)
        try workspace.copy("food-v1.sqlite", to: "App/Resources/food.sqlite")
        try workspace.directory.write(
            "food.dbgen.txt",
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);
            INSERT INTO t SELECT value, CASE WHEN value % 9 = 0 THEN 'new' ELSE 'old' END || value || hex(value * 7919)
              FROM generate_series(1, 500);
            PRAGMA user_version = 2;

            """)
        let result = try Self.run(
            try Self.recipe(containing: "cp feed/root.json App/Resources/root.json"), in: workspace)
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("feed: verified:"), result.stdoutText)
        XCTAssertTrue(
            workspace.tree("feed").keys.contains { $0.hasPrefix("targets/patches/") },
            "the bundled release is a patch base")
    }

    func testAKeyFromTheEnvironmentPublishes() throws {
        let workspace = try FeedWorkspace(self)
        try workspace.key("release.key")
        try workspace.succeed(["feed", "init", "feed", "--key", "release.key"])
        try workspace.release("food-v3", version: 3)
        let result = try Self.run(try Self.recipe(containing: "--key env:DBGEN_FEED_KEY"), in: workspace)
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("published user_version 3"), result.stdoutText)
    }

    func testTheRecoveryOfALostKeyRunsAsWritten() throws {
        let workspace = try FeedWorkspace(self)
        try workspace.key("release.key")
        try workspace.release("food-v4", version: 4)
        try workspace.release("food-v5", version: 5, every: 3)
        let result = try Self.run(
            try Self.recipe(containing: "dbgen feed rotate feed --key recovery.key --new-key new.key\n"), in: workspace)
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertTrue(result.stdoutText.contains("published user_version 4"), result.stdoutText)
        // A device bundling the first root walks to the new key.
        try workspace.succeed(["feed", "verify", "feed", "--root", "feed/1.root.json"])
        // The lost key publishes nothing any more.
        let old = try workspace.dbgen(["publish", "feed", "food-v5.sqlite", "--key", "release.key"])
        XCTAssertEqual(old.status, 1, old.stdoutText)
    }
}
