import FeedClient
@testable import FeedPublisher
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Nothing expires by neglect: the cron (`resignTimestamp`), `publish` and `prune` renew every
/// role near its expiry (root as a new version naming the same keys, which a device on the
/// first root follows); `verify` refuses a role that expires within its minimum validity;
/// every lifetime is bounded; and a feed wedged by an endless one is signed back into shape.
final class RenewalTests: XCTestCase {
    private let day: TimeInterval = 86_400

    func testTheCronRenewsEachRoleWithinItsMarginAndADeviceOnTheFirstRootFollows() throws {
        let fixture = try FeedFixture(self)
        let recovery = Ed25519SigningKey()
        try fixture.initialize(recoveryKeys: [recovery.publicKey])
        let bundled = fixture.rootData
        try fixture.publish(try fixture.release("v1", version: 1))
        let start = fixture.clock.now
        // 300 days on, 65 are left: the timestamp alone.
        fixture.clock.now = start.addingTimeInterval(300 * day)
        let early = try fixture.feed.resignTimestamp(key: fixture.key, keySource: "k")
        XCTAssertEqual(early, RenewalSummary(timestampVersion: 3, repaired: [:]))
        // 310 days on, 55 are left: root, targets and snapshot are renewed.
        fixture.clock.now = start.addingTimeInterval(310 * day)
        let late = try fixture.feed.resignTimestamp(key: fixture.key, keySource: "k")
        XCTAssertEqual(
            late,
            RenewalSummary(rootVersion: 2, targetsVersion: 3, snapshotVersion: 3, timestampVersion: 4, repaired: [:]))
        let first = try Root(Metadata(data: bundled, document: "1.root.json"))
        let second = try Metadata(data: fixture.rootData, document: "2.root.json")
        let renewed = try Root(second)
        XCTAssertEqual(renewed.keys, first.keys)
        XCTAssertEqual(renewed.roles, first.roles)
        XCTAssertEqual(second.signatures.map(\.keyID), [fixture.key.keyID])
        XCTAssertEqual(renewed.header.expires, fixture.clock.now.addingTimeInterval(365 * day))
        XCTAssertEqual(
            try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory).first, "2 4 3 3")
        // Renewed, nothing is due again.
        XCTAssertEqual(
            try fixture.feed.resignTimestamp(key: fixture.key, keySource: "k"),
            RenewalSummary(timestampVersion: 5, repaired: [:]))
        // 400 days on, the first root has expired: a device bundling it follows the renewed one.
        fixture.clock.now = start.addingTimeInterval(400 * day)
        XCTAssertEqual(
            try fixture.feed.resignTimestamp(key: fixture.key, keySource: "k"),
            RenewalSummary(timestampVersion: 6, repaired: [:]))
        let verifier = FeedVerifier(
            feedURL: URL(fileURLWithPath: fixture.feedPath, isDirectory: true), root: bundled, fetcher: FileFetcher(),
            referenceTime: fixture.clock.now)
        XCTAssertEqual(try synchronously { try await verifier.verify() }.rootVersion, 2)
        // Without the renewal, the same device refuses the expired root.
        let neglected = try FeedFixture(self)
        try neglected.initialize()
        let stale = FeedVerifier(
            feedURL: URL(fileURLWithPath: neglected.feedPath, isDirectory: true), root: neglected.rootData,
            fetcher: FileFetcher(), referenceTime: neglected.clock.now.addingTimeInterval(400 * day))
        XCTAssertThrowsError(try synchronously { try await stale.verify() }) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, "root.json", "\(error)")
            XCTAssertTrue("\(error)".contains("expired"), "\(error)")
        }
    }

    /// `kill -9` of a renewal after `2.root.json` and before `root.json`: the feed verifies from
    /// the first root (the new root names the same keys), and the next run writes the root again
    /// and the rest.
    func testARenewalKilledAfterItsVersionedRootLeavesAFeedThatVerifiesAndTheNextRunCompletesIt() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let bundled = fixture.rootData
        try fixture.publish(try fixture.release("v1", version: 1))
        let start = fixture.clock.now
        fixture.clock.now = start.addingTimeInterval(304.5 * day) // 60.5 days left: not due
        XCTAssertEqual(try fixture.feed.resignTimestamp(key: fixture.key, keySource: "k").rootVersion, nil)
        fixture.clock.now = start.addingTimeInterval(305.2 * day) // 59.8 days left: due
        let layout = FeedLayout(directory: fixture.feedPath)
        let state = try FeedState.load(layout)
        try MetadataWriter(layout: layout, clock: fixture.clock).writeRoot(
            version: 2, keys: state.root.keys, roles: state.root.roles, dataEpoch: try state.dataEpoch(),
            signedBy: [fixture.key])
        try bundled.write(to: URL(fileURLWithPath: fixture.feedPath + "/root.json"))
        let verifier = FeedVerifier(
            feedURL: URL(fileURLWithPath: fixture.feedPath, isDirectory: true), root: bundled, fetcher: FileFetcher(),
            referenceTime: fixture.clock.now)
        XCTAssertEqual(try synchronously { try await verifier.verify() }.rootVersion, 2)
        XCTAssertEqual(
            try fixture.feed.resignTimestamp(key: fixture.key, keySource: "k"),
            RenewalSummary(rootVersion: 2, targetsVersion: 3, snapshotVersion: 3, timestampVersion: 4, repaired: [:]))
        XCTAssertEqual(try synchronously { try await verifier.verify() }.rootVersion, 2)
        XCTAssertEqual(
            try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory).first, "2 4 3 3")
    }

    func testASnapshotShorterLivedThanTargetsIsRenewedAlone() throws {
        let fixture = try FeedFixture(self)
        fixture.clock.snapshotLifetime = 10 * day
        try fixture.initialize()
        let start = fixture.clock.now
        fixture.clock.now = start.addingTimeInterval(6 * day) // 4 days left, under half of 10
        let summary = try fixture.feed.resignTimestamp(key: fixture.key, keySource: "k")
        XCTAssertEqual(summary, RenewalSummary(snapshotVersion: 2, timestampVersion: 2, repaired: [:]))
        let snapshot = try Snapshot(Metadata(data: try XCTUnwrap(try fixture.tree()["2.snapshot.json"]), document: "s"))
        XCTAssertEqual(snapshot.meta["targets.json"]?.version, 1)
        XCTAssertEqual(
            try PythonTUFClient.read(feed: fixture.feedPath, root: fixture.rootData, in: fixture.directory), ["1 2 2 1"]
        )
    }

    func testPublishAndPruneRenewARootNearItsExpiry() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let bundled = fixture.rootData
        try fixture.publish(try fixture.release("v1", version: 1))
        try fixture.publish(try fixture.release("v2", version: 2, changedEvery: 5))
        fixture.clock.now = fixture.clock.now.addingTimeInterval(320 * day)
        XCTAssertEqual(try fixture.feed.prune(key: fixture.key, keySource: "k", keep: 1).renewedRootVersion, 2)
        XCTAssertNil(try fixture.publish(try fixture.release("v3", version: 3, changedEvery: 4)).renewedRootVersion)
        fixture.clock.now = fixture.clock.now.addingTimeInterval(320 * day)
        XCTAssertEqual(
            try fixture.publish(try fixture.release("v4", version: 4, changedEvery: 3)).renewedRootVersion, 3)
        XCTAssertEqual(
            try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory).first, "3 6 6 6")
    }

    func testVerifyRefusesARoleThatExpiresWithinTheMinimumValidity() throws {
        let fixture = try FeedFixture(self)
        fixture.clock.rootLifetime = 20 * day
        try fixture.initialize()
        XCTAssertThrowsError(try fixture.verify()) { error in
            let error = error as? FeedPublisherError
            XCTAssertEqual(error?.subject, "root.json")
            XCTAssertTrue(
                error?.reason.contains("in 20.0 days: less than --min-validity 30 days") ?? false,
                "\(String(describing: error))")
        }
        var verifier = FeedVerifier(
            feedURL: URL(fileURLWithPath: fixture.feedPath, isDirectory: true), root: fixture.rootData,
            fetcher: FileFetcher())
        verifier.minimumValidity = 19 * day
        XCTAssertEqual(try synchronously { try await verifier.verify() }.rootVersion, 1)
    }

    func testEveryDurationIsBoundedAndAClockOutOfBoundsWritesNothing() throws {
        for (text, seconds) in [
            ("86400", 86_400.0), ("30s", 30), ("90m", 5_400), ("48h", 172_800), ("3650d", 315_360_000),
        ] {
            XCTAssertEqual(try FeedDuration.seconds(text, option: "--x"), seconds, text)
        }
        for text in [
            "0", "0d", "", "d", "-5", "1.5h", "1y", "315360001", "3651d", "999999999999", "99999999999999999999d",
        ] {
            XCTAssertThrowsError(try FeedDuration.seconds(text, option: "--x"), text) { error in
                XCTAssertEqual((error as? FeedPublisherError)?.subject, "--x")
            }
        }
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        try fixture.release("v1", version: 1)
        let before = try fixture.tree()
        var endless = fixture.feed
        endless.clock.timestampLifetime = 999_999_999_999
        let other = Feed(directory: fixture.directory.url("other").path, clock: endless.clock)
        let attempts: [(String, () throws -> Void)] = [
            ("init", { try other.initialize(key: fixture.key) }),
            (
                "publish",
                { try endless.publish(fixture.directory.url("v1.sqlite").path, key: fixture.key, keySource: "k") }
            ),
            ("timestamp", { try endless.resignTimestamp(key: fixture.key, keySource: "k") }),
            ("prune", { try endless.prune(key: fixture.key, keySource: "k", keep: 1) }),
            (
                "rotate",
                {
                    try endless.rotate(
                        oldKey: fixture.key, oldKeySource: "k", newKey: Ed25519SigningKey(), newKeySource: "n")
                }
            ),
            (
                "add-recovery-key",
                { try endless.addRecoveryKeys([Ed25519SigningKey().publicKey], key: fixture.key, keySource: "k") }
            ),
        ]
        for (name, attempt) in attempts {
            XCTAssertThrowsError(try attempt(), name) { error in
                XCTAssertEqual((error as? FeedPublisherError)?.subject, "--timestamp-expires", name)
            }
        }
        XCTAssertEqual(try fixture.tree(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.directory.url("other").path))
    }

    /// What `--timestamp-expires 999999999999` wrote before durations were bounded: a
    /// timestamp of the year 33715, which neither this client nor python-tuf reads.
    func testAFeedWedgedByAnEndlessTimestampIsSignedAgainByTheCronAndByPublish() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        try fixture.publish(try fixture.release("v1", version: 1))
        for repair in ["cron", "publish"] {
            var endless = fixture.clock
            endless.timestampLifetime = 999_999_999_999
            let layout = FeedLayout(directory: fixture.feedPath)
            let state = try FeedState.load(layout)
            try MetadataWriter(layout: layout, clock: endless).writeTimestamp(
                version: state.timestamp.header.version + 1, snapshot: state.timestamp.snapshotMeta,
                signedBy: [fixture.key])
            let wedged = String(decoding: try XCTUnwrap(try fixture.tree()["timestamp.json"]), as: UTF8.self)
            let expires = try XCTUnwrap(
                wedged.range(of: "\"expires\":\"[0-9]{5}-[^\"]*\"", options: .regularExpression))
            XCTAssertThrowsError(try fixture.verify()) { error in
                XCTAssertEqual((error as? FeedPublisherError)?.subject, "timestamp.json", "\(error)")
            }
            XCTAssertThrowsError(
                try PythonTUFClient.read(feed: fixture.feedPath, root: fixture.rootData, in: fixture.directory))
            if repair == "cron" {
                let summary = try fixture.feed.resignTimestamp(key: fixture.key, keySource: "k")
                let text = String(wedged[expires].dropFirst(11).dropLast())
                XCTAssertEqual(summary.repaired, ["timestamp.json": text])
                XCTAssertTrue(text.hasPrefix("337"), text)
            } else {
                try fixture.publish(try fixture.release("v2", version: 2, changedEvery: 3))
            }
            XCTAssertNoThrow(try fixture.verify())
            XCTAssertEqual(
                try PythonTUFClient.read(feed: fixture.feedPath, root: fixture.rootData, in: fixture.directory).count,
                try fixture.targets().count + 1)
        }
    }
}
