import Foundation
import ShipyardTestSupport
import XCTest

/// A recovery key added to a feed made without one (`feed add-recovery-key`): the next root,
/// signed by the main key, names it; it replaces the main key once that is lost, and a device
/// bundling the first root follows and installs. Used where the main key signs, it is told so.
final class FeedRecoveryKeyCommandTests: XCTestCase {
    func testARecoveryKeyAddedLaterReplacesALostKeyAndADeviceOnTheFirstRootInstalls() throws {
        let work = try FeedWorkspace(self)
        let main = try work.key("main.key")
        let recovery = try work.key("recovery.key")
        let stranger = try work.key("stranger.key")
        try work.key("new.key")
        try work.succeed(["feed", "init", "feed", "--key", "main.key"])
        try work.copy("feed/root.json", to: "bundled-root.json")
        try work.release("v1", version: 1)
        try work.release("v2", version: 2, every: 6)
        try work.succeed(["publish", "feed", "v1.sqlite", "--key", "main.key"])

        let added = try work.succeed(["feed", "add-recovery-key", "feed", "--key", "main.key", recovery])
        XCTAssertEqual(
            added.stdoutText,
            "wrote feed/2.root.json: recovery key \(recovery) (keep its private key offline, backed up apart from the main key)\n"
        )
        let before = work.tree("feed")
        let again = try work.succeed(["feed", "add-recovery-key", "feed", "--key", "main.key", recovery])
        XCTAssertEqual(again.stderrText, "feed: root.json names \(recovery) already; nothing written\n")
        let mainAsRecovery = try work.dbgen(["feed", "add-recovery-key", "feed", "--key", "main.key", main])
        XCTAssertTrue(
            mainAsRecovery.stderrText.hasPrefix("--recovery-key: error: \(main) is a key that signs releases"),
            mainAsRecovery.stderrText)

        // The recovery key where the main key signs: told so, with both keys as printed.
        for (command, action) in [
            (["publish", "feed", "v2.sqlite"], "publish"), (["feed", "timestamp", "feed"], "sign the timestamp"),
            (["feed", "prune", "feed", "--keep", "1"], "prune"),
            (["feed", "add-recovery-key", "feed", stranger], "add a recovery key"),
        ] {
            let refused = try work.dbgen(command + ["--key", "recovery.key"])
            XCTAssertEqual(refused.status, 1, command.joined(separator: " "))
            XCTAssertEqual(
                refused.stderrText,
                "recovery.key: error: key \(recovery) is this feed's recovery key: it signs only root (`dbgen feed "
                    + "rotate`, when the main key is lost or leaked); \(action) with the main key (\(main))\n")
        }
        let byStranger = try work.dbgen(["publish", "feed", "v2.sqlite", "--key", "stranger.key"])
        XCTAssertEqual(
            byStranger.stderrText,
            "stranger.key: error: key \(stranger) is not a targets key of root.json (version 2), which names \(main): "
                + "clients would refuse what it signs\n")
        XCTAssertEqual(work.tree("feed"), before)

        // The main key is lost: the recovery key added later replaces it.
        try FileManager.default.removeItem(at: work.directory.url("main.key"))
        try work.succeed(["feed", "rotate", "feed", "--key", "recovery.key", "--new-key", "new.key"])
        try work.succeed(["publish", "feed", "v2.sqlite", "--key", "new.key"])
        let nginx = try NginxServer(serving: work.directory.url("feed"))
        defer { nginx.stop() }
        let fetched = try work.succeed(
            [
                "fetch", nginx.url("/").absoluteString, "--root", "bundled-root.json", "--bundled", "v1.sqlite",
                "--updates", "device",
            ])
        XCTAssertTrue(fetched.stderrText.hasPrefix("dbgen: installed user_version 2 via "), fetched.stderrText)
        let verified = try work.succeed(["feed", "verify", "feed", "--root", "bundled-root.json"])
        XCTAssertTrue(verified.stdoutText.hasPrefix("feed: verified: root 3, "), verified.stdoutText)
        let help = try work.succeed(["feed", "add-recovery-key", "--help"]).stdoutText
        XCTAssertTrue(help.contains("Example") && help.contains("offline"), help)
    }
}
