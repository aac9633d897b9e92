import FeedClient
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// A device bundling the feed's first root, after the main key was lost and a recovery key
/// (`dbgen feed init --recovery-key`, `dbgen feed rotate --key RECOVERY`) moved the feed to a
/// new key: it walks the chain of roots and installs what the new key published.
final class RecoveredFeedTests: XCTestCase {
    private func dbgen(_ arguments: [String], in directory: TemporaryDirectory) throws -> String {
        let result = try BuiltProducts.run("dbgen", arguments, in: directory.url("."))
        XCTAssertEqual(result.status, 0, "dbgen \(arguments.joined(separator: " ")): \(result.stderrText)")
        return result.stdoutText
    }

    func testADeviceBundlingTheFirstRootInstallsWhatTheRecoveredFeedPublishes() async throws {
        let directory = try TemporaryDirectory("shipyard-recovered-feed", removedAfter: self)
        let bundled = directory.url("v1.sqlite")
        try FeedFixture.makeDatabase(bundled, rows: 2_000)
        let release = directory.url("v2.sqlite")
        try FileManager.default.copyItem(at: bundled, to: release)
        _ = try Oracle.sqlite3Script(
            release.path, "UPDATE food SET kcal = kcal + 1 WHERE id % 30 = 0; PRAGMA user_version = 2;")
        _ = try dbgen(["keys", "generate", "--out", "release.key"], in: directory)
        _ = try dbgen(["keys", "generate", "--out", "new.key"], in: directory)
        let recovery = try dbgen(["keys", "generate", "--out", "recovery.key"], in: directory)
            .trimmingCharacters(in: .newlines)
        _ = try dbgen(["feed", "init", "feed", "--key", "release.key", "--recovery-key", recovery], in: directory)
        _ = try dbgen(["publish", "feed", "v1.sqlite", "--key", "release.key"], in: directory)
        let firstRoot = try Data(contentsOf: directory.url("feed/root.json"))
        try FileManager.default.removeItem(at: directory.url("release.key"))
        _ = try dbgen(["feed", "rotate", "feed", "--key", "recovery.key", "--new-key", "new.key"], in: directory)
        _ = try dbgen(["publish", "feed", "v2.sqlite", "--key", "new.key"], in: directory)
        let server = try NginxServer(serving: directory.url("feed"))
        defer { server.stop() }
        let updater = FeedUpdater(
            feedURL: server.url("/"), bundledRoot: firstRoot, bundledDatabasePath: bundled.path,
            updatesDirectory: directory.url("updates").path, dataFormat: 1)

        let plan = try await updater.update()
        XCTAssertEqual(plan.release?.userVersion, 2)
        XCTAssertTrue(plan.usesPatches, "the bundled file is release 1: a patch, not the whole file")
        let inEffect = try updater.updateInstaller.databaseInEffect()
        XCTAssertEqual(try FeedFixture.content(URL(fileURLWithPath: inEffect.path)), try FeedFixture.content(release))
    }
}
