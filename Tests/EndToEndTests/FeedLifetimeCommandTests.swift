import Foundation
import ShipyardTestSupport
import XCTest

/// A feed a year on, run from CI: the cron (`dbgen feed timestamp`) renews every role near its
/// expiry, so a device bundling the first root still updates 400 days later (faketime moves the
/// clock of every command and of the device); without the cron the device refuses the expired
/// root. `feed verify --min-validity` sees an expiry coming, every duration is bounded, and a
/// feed wedged by an endless one is signed back into shape.
final class FeedLifetimeCommandTests: XCTestCase {
    func testAYearOnTheCronKeepsADeviceOnTheFirstRootUpdatingAndWithoutItTheDeviceRefuses() throws {
        let work = try FeedWorkspace(self)
        try work.key("k")
        try work.succeed(["feed", "init", "feed", "--key", "k"])
        try work.copy("feed/root.json", to: "bundled-root.json")
        try work.release("v1", version: 1)
        try work.release("v2", version: 2, every: 7)
        try work.succeed(["publish", "feed", "v1.sqlite", "--key", "k"])
        try work.succeed(["publish", "feed", "v2.sqlite", "--key", "k"])
        let nginx = try NginxServer(serving: work.directory.url("feed"))
        defer { nginx.stop() }
        let url = nginx.url("/").absoluteString
        func fetch(into updates: String) throws -> ProcessResult {
            try work.dbgen(
                ["fetch", url, "--root", "bundled-root.json", "--bundled", "v1.sqlite", "--updates", updates],
                at: "+400 days")
        }
        // Nobody ran the cron: 400 days on, the device refuses the expired root, installs nothing.
        let neglected = try fetch(into: "neglected")
        XCTAssertEqual(neglected.status, 1)
        XCTAssertTrue(neglected.stderrText.hasPrefix("root.json: error: expired: expired at "), neglected.stderrText)
        XCTAssertEqual(work.tree("neglected").keys.filter { $0.hasSuffix(".sqlite") }, [])
        let stale = try work.dbgen(["feed", "verify", "feed", "--root", "bundled-root.json"], at: "+400 days")
        XCTAssertEqual(stale.status, 1)
        XCTAssertTrue(stale.stderrText.hasPrefix("root.json: error: expired: "), stale.stderrText)

        // The cron, 400 days on, renews root (a new version, the same key), targets and snapshot.
        let cron = try work.succeed(["feed", "timestamp", "feed", "--key", "k"], at: "+400 days")
        XCTAssertEqual(cron.stdoutText, "wrote feed/timestamp.json version 4; renewed root 2, targets 4, snapshot 4\n")
        let first = try rootKeys(work, "feed/1.root.json")
        XCTAssertEqual(try rootKeys(work, "feed/2.root.json"), first)
        let updated = try fetch(into: "updated")
        XCTAssertEqual(updated.status, 0, updated.stderrText)
        XCTAssertTrue(updated.stderrText.hasPrefix("dbgen: installed user_version 2 via "), updated.stderrText)
        let verified = try work.succeed(["feed", "verify", "feed", "--root", "bundled-root.json"], at: "+400 days")
        XCTAssertTrue(verified.stdoutText.hasPrefix("feed: verified: root 2, timestamp 4"), verified.stdoutText)
        // A publish a year later works from the same root too.
        try work.release("v3", version: 3, every: 5)
        try work.succeed(["publish", "feed", "v3.sqlite", "--key", "k"], at: "+400 days")
        try work.upload("feed")
        let third = try fetch(into: "updated")
        XCTAssertTrue(third.stderrText.hasPrefix("dbgen: installed user_version 3 via "), third.stderrText)
    }

    func testTheCronRenewsOnlyWhatIsNearItsExpiryAndVerifySeesAnExpiryComing() throws {
        let work = try FeedWorkspace(self)
        try work.key("k")
        try work.succeed(["feed", "init", "feed", "--key", "k"])
        try work.release("v1", version: 1)
        try work.succeed(["publish", "feed", "v1.sqlite", "--key", "k"])
        // 200 days on, 165 are left: the timestamp alone is signed again.
        let early = try work.succeed(["feed", "timestamp", "feed", "--key", "k"], at: "+200 days")
        XCTAssertEqual(early.stdoutText, "wrote feed/timestamp.json version 3\n")
        try work.succeed(["feed", "verify", "feed", "--root", "feed/root.json"], at: "+200 days")
        // 320 days on, 45 are left (within 60): root, targets and snapshot are renewed.
        let late = try work.succeed(["feed", "timestamp", "feed", "--key", "k"], at: "+320 days")
        XCTAssertEqual(late.stdoutText, "wrote feed/timestamp.json version 4; renewed root 2, targets 3, snapshot 3\n")
        let again = try work.succeed(["feed", "timestamp", "feed", "--key", "k"], at: "+320 days")
        XCTAssertEqual(again.stdoutText, "wrote feed/timestamp.json version 5\n")

        // --min-validity: exit 1 naming the role before it expires (root 2 expires 685 days on).
        let coming = try work.dbgen(["feed", "verify", "feed", "--root", "feed/root.json", "--min-validity", "700"])
        XCTAssertEqual(coming.status, 1)
        XCTAssertTrue(coming.stderrText.hasPrefix("root.json: error: expires at "), coming.stderrText)
        XCTAssertTrue(coming.stderrText.contains("less than --min-validity 700 days"), coming.stderrText)
        try work.succeed(["feed", "init", "short", "--key", "k", "--root-expires", "20d"])
        let short = try work.dbgen(["feed", "verify", "short", "--root", "short/root.json"])
        XCTAssertEqual(short.status, 1, "the default is 30 days")
        XCTAssertTrue(short.stderrText.hasPrefix("root.json: error: expires at "), short.stderrText)
        try work.succeed(["feed", "verify", "short", "--root", "short/root.json", "--min-validity", "10"])
        try work.succeed([
            "publish", "short", "v1.sqlite", "--key", "k", "--root-expires", "20d", "--targets-expires", "5d",
        ])
        let targets = try work.dbgen(["feed", "verify", "short", "--root", "short/root.json", "--min-validity", "10"])
        XCTAssertTrue(targets.stderrText.hasPrefix("2.targets.json: error: expires at "), targets.stderrText)
        let help = try work.succeed(["feed", "verify", "--help"]).stdoutText
        XCTAssertTrue(help.contains("--min-validity <days>"), help)
    }

    func testEveryDurationIsBoundedOnEveryCommandAndNothingIsWritten() throws {
        let work = try FeedWorkspace(self)
        let recovery = try work.key("recovery.key")
        try work.key("k")
        try work.key("k2")
        try work.succeed(["feed", "init", "feed", "--key", "k"])
        try work.release("v1", version: 1)
        let before = work.tree("feed")
        let commands: [[String]] = [
            ["feed", "init", "new-feed", "--key", "k"], ["publish", "feed", "v1.sqlite", "--key", "k"],
            ["feed", "timestamp", "feed", "--key", "k"], ["feed", "prune", "feed", "--key", "k", "--keep", "1"],
            ["feed", "rotate", "feed", "--key", "k", "--new-key", "k2"],
            ["feed", "add-recovery-key", "feed", "--key", "k", recovery],
        ]
        let durations = [
            ("--timestamp-expires", "999999999999", "is more than ten years"),
            ("--root-expires", "3651d", "is more than ten years"),
            ("--targets-expires", "0", "is not a duration above 0"), ("--snapshot-expires", "1y", "is not a duration"),
            ("--timestamp-expires", "99999999999999999999d", "is more than ten years"),
        ]
        for command in commands {
            for (flag, value, why) in durations {
                let refused = try work.dbgen(command + [flag, value])
                let what = (command + [flag, value]).joined(separator: " ")
                XCTAssertEqual(refused.status, 1, what)
                XCTAssertTrue(
                    refused.stderrText.hasPrefix("\(flag): error: \"\(value)\" \(why)"),
                    what + ": " + refused.stderrText)
                XCTAssertEqual(work.tree("feed"), before, what)
                XCTAssertFalse(FileManager.default.fileExists(atPath: work.directory.url("new-feed").path), what)
            }
        }
        let epoch = try work.dbgen(
            ["feed", "timestamp", "feed", "--key", "k"], environment: ["SOURCE_DATE_EPOCH": "253400000000"])
        XCTAssertTrue(epoch.stderrText.hasPrefix("SOURCE_DATE_EPOCH: error: "), epoch.stderrText)
        let days = try work.dbgen(["feed", "verify", "feed", "--root", "feed/root.json", "--min-validity", "3651"])
        XCTAssertEqual(days.stderrText, "--min-validity: error: 3651 is not a number of days from 0 to 3650\n")
        XCTAssertEqual(work.tree("feed"), before)
        // Ten years is accepted, in any unit.
        let epochNow = "1700000000"
        try work.succeed(["feed", "timestamp", "feed", "--key", "k", "--timestamp-expires", "48h"], at: nil)
        let result = try work.dbgen(
            ["feed", "timestamp", "feed", "--key", "k", "--timestamp-expires", "3650d"],
            environment: ["SOURCE_DATE_EPOCH": epochNow])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(try expires(work, "feed/timestamp.json"), "2033-11-11T22:13:20Z")
    }

    /// A feed wedged as `--timestamp-expires 999999999999` left it, before durations were
    /// bounded: a timestamp whose expiry (the year 33715) no client reads, signed by the key
    /// (python writes it, with the key file's seed). The cron signs it again; the feed verifies
    /// and publishes as before.
    func testTheCronSignsAgainATimestampWedgedByAnEndlessDuration() throws {
        let work = try FeedWorkspace(self)
        try work.key("k")
        try work.succeed(["feed", "init", "feed", "--key", "k"])
        try work.release("v1", version: 1)
        try work.release("v2", version: 2, every: 3)
        try work.succeed(["publish", "feed", "v1.sqlite", "--key", "k"])
        _ = try PythonTUF.run(
            Self.wedge, [work.directory.url("feed").path, work.directory.url("k").path, "33715-06-20T12:00:00Z"])
        let wedged = try work.dbgen(["feed", "verify", "feed", "--root", "feed/root.json"])
        XCTAssertEqual(wedged.status, 1)
        XCTAssertTrue(wedged.stderrText.hasPrefix("timestamp.json: error: malformed: "), wedged.stderrText)
        let cron = try work.succeed(["feed", "timestamp", "feed", "--key", "k"])
        XCTAssertEqual(
            cron.stderrText,
            "feed/timestamp.json: its expires \"33715-06-20T12:00:00Z\" is a date no client reads: signed again\n")
        XCTAssertEqual(cron.stdoutText, "wrote feed/timestamp.json version 4\n")
        XCTAssertTrue(
            try work.succeed(["feed", "verify", "feed", "--root", "feed/root.json"]).stdoutText.contains("timestamp 4"))
        try work.succeed(["publish", "feed", "v2.sqlite", "--key", "k"])
        try work.succeed(["feed", "prune", "feed", "--key", "k", "--keep", "1"])
        XCTAssertTrue(
            try work.succeed(["feed", "verify", "feed", "--root", "feed/root.json"]).stdoutText.contains(
                "1 releases, newest user_version 2"))
    }

    /// Signs FEED/timestamp.json again, one version up, with `expires` set to ARGV[3], by the
    /// Ed25519 key whose seed the key file holds.
    static let wedge = """
        import json, sys
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from securesystemslib.formats import encode_canonical
        feed, key_file, expires = sys.argv[1:4]
        with open(key_file) as f:
            key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(f.read().strip()))
        with open(feed + "/timestamp.json") as f:
            document = json.load(f)
        document["signed"]["expires"] = expires
        document["signed"]["version"] += 1
        document["signatures"][0]["sig"] = key.sign(encode_canonical(document["signed"]).encode()).hex()
        with open(feed + "/timestamp.json", "w") as f:
            f.write(encode_canonical(document))
        """

    /// The keys a root document names, by id.
    private func rootKeys(_ work: FeedWorkspace, _ path: String) throws -> NSDictionary {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: work.directory.url(path)))
        let keys = ((object as? NSDictionary)?["signed"] as? NSDictionary)?["keys"] as? NSDictionary
        return try XCTUnwrap(keys)
    }

    /// A document's `expires`.
    private func expires(_ work: FeedWorkspace, _ path: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: work.directory.url(path)))
        return try XCTUnwrap(((object as? NSDictionary)?["signed"] as? NSDictionary)?["expires"] as? String)
    }
}
