import FeedClient
@testable import FeedPublisher
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF
import XCTest

/// `rotate --reset-data` raises the feed's data epoch (``DataEpoch``) in the new root; every
/// root after keeps it; `publish` publishes under it, accepting a `user_version` below what a
/// leaked key published; `prune` and `feed verify` order releases by (epoch, `user_version`);
/// python-tuf, the oracle, reads the feed and keeps the member in root.
final class DataEpochTests: XCTestCase {
    /// python-tuf's reading of the feed from `root`: the trusted root's version and its epoch.
    private func pythonRootEpoch(_ fixture: FeedFixture, from root: Data) throws -> String {
        try PythonTUFClient.rootEpoch(feed: fixture.feedPath, root: root, in: fixture.directory)
    }

    /// A feed with a recovery key, releases 1 and 2147483647 (the leaked key's), rotated with
    /// `--reset-data`: returns it, the new key and the first root.
    private func resetFeed() throws -> (FeedFixture, Ed25519SigningKey, Data) {
        let fixture = try FeedFixture(self)
        let recovery = Ed25519SigningKey()
        try fixture.initialize(recoveryKeys: [recovery.publicKey])
        let bundled = fixture.rootData
        try fixture.publish(try fixture.release("v1", version: 1))
        try fixture.publish(try fixture.release("leaked", version: 2_147_483_647, changedEvery: 3, seed: "x"))
        let newKey = Ed25519SigningKey()
        XCTAssertEqual(
            try fixture.feed.rotate(
                oldKey: recovery, oldKeySource: "recovery.key", newKey: newKey, newKeySource: "new.key",
                resetData: true), 2)
        return (fixture, newKey, bundled)
    }

    func testResetDataRaisesTheEpochInTheNewRootAndPythonTUFKeepsIt() throws {
        let (fixture, newKey, bundled) = try resetFeed()
        let root = try Root(try Metadata(data: fixture.rootData, document: "root.json"))
        XCTAssertEqual(try DataEpoch.of(root), 1)
        XCTAssertEqual(try pythonRootEpoch(fixture, from: bundled), "2 1")
        // A later rotation, without --reset-data, keeps the epoch.
        let newerKey = Ed25519SigningKey()
        try fixture.feed.rotate(oldKey: newKey, oldKeySource: "new.key", newKey: newerKey, newKeySource: "newer.key")
        XCTAssertEqual(try DataEpoch.of(try Root(try Metadata(data: fixture.rootData, document: "root.json"))), 1)
        XCTAssertEqual(try pythonRootEpoch(fixture, from: bundled), "3 1")
        // And the first root of a feed names none: feeds that never reset are as before.
        XCTAssertNil(try Metadata(data: bundled, document: "root.json").signed[DataEpoch.rootMember])
    }

    func testPublishUnderTheNewEpochAcceptsAUserVersionBelowTheLeakedOne() throws {
        let (fixture, newKey, bundled) = try resetFeed()
        let v2 = try fixture.release("v2", version: 2, changedEvery: 9)
        let summary = try fixture.feed.publish(v2, key: newKey, keySource: "new.key")
        XCTAssertEqual(summary.release.userVersion, 2)
        XCTAssertEqual(summary.patches.map(\.base.userVersion), [1], "from release 1, never from the leaked one")
        let facts = try fixture.targets().values.compactMap { try ReleaseFacts(of: $0) }
        XCTAssertEqual(
            Set(facts.filter { $0.result.userVersion == 2 }.map(\.dataEpoch)), [1], "every target of release 2")
        XCTAssertEqual(Set(facts.filter { $0.result.userVersion != 2 }.map(\.dataEpoch)), [0])
        let verification = try fixture.verify(root: bundled)
        XCTAssertEqual(verification.dataEpoch, 1)
        XCTAssertEqual(verification.releases.map(\.userVersion), [2, 2_147_483_647, 1], "by (epoch, user_version)")
        XCTAssertEqual(try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory).count, 6)
        // Within the epoch, versions only go up.
        XCTAssertThrowsError(
            try fixture.feed.publish(
                try fixture.release("v2b", version: 2, changedEvery: 11), key: newKey, keySource: "new.key")
        ) { error in
            XCTAssertTrue("\(error)".contains("is not greater than that of the newest release (2)"), "\(error)")
        }
        // Pruning keeps the newest of the newest epoch first.
        let pruned = try fixture.feed.prune(key: newKey, keySource: "new.key", keep: 1)
        XCTAssertEqual(pruned.kept.map(\.userVersion), [2])
        XCTAssertEqual(try fixture.verify(root: bundled).releases.map(\.userVersion), [2])
    }

    func testAReleaseOfAnEarlierEpochCanBePublishedAgain() throws {
        let (fixture, newKey, bundled) = try resetFeed()
        let v1 = fixture.directory.url("v1.sqlite").path
        let summary = try fixture.feed.publish(v1, key: newKey, keySource: "new.key")
        XCTAssertFalse(summary.wasAlreadyPublished)
        let releases = try fixture.targets().values.compactMap { try ReleaseFacts(of: $0) }.filter {
            $0.kind == .database
        }
        XCTAssertEqual(
            releases.map { "\($0.result.userVersion)@\($0.dataEpoch)" }.sorted(), ["1@1", "2147483647@0"],
            "release 1's target is replaced by its epoch-1 listing")
        XCTAssertEqual(try fixture.verify(root: bundled).releases.first?.userVersion, 1)
        XCTAssertTrue(try fixture.feed.publish(v1, key: newKey, keySource: "new.key").wasAlreadyPublished)
    }

    func testVerifyRefusesATargetClaimingAnEpochAboveRoots() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let bundled = fixture.rootData
        try fixture.publish(try fixture.release("v1", version: 1))
        let state = try FeedState.load(fixture.feed.layout)
        let target = try XCTUnwrap(state.targetFiles.first)
        var facts = try XCTUnwrap(try ReleaseFacts(of: target))
        facts.dataEpoch = 5
        var entry = target.json
        entry["custom"] = facts.custom
        var signed = Targets.signed(version: 1, expires: Date().addingTimeInterval(3_600), targets: [])
        signed["targets"] = .object(JSONObject([(target.path, .object(entry))]))
        let forged = try XCTUnwrap(
            try Targets(try Metadata(data: try Metadata.sign(signed, with: [fixture.key]), document: "t")).targets[
                target.path])
        try fixture.feed.writer.publish(targets: [forged], over: state, signedBy: [fixture.key])
        XCTAssertThrowsError(try fixture.verify(root: bundled)) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, target.path)
            XCTAssertTrue(
                "\(error)".contains("custom.shipyard.data_epoch: 5 is above root's data epoch 0"), "\(error)")
        }
    }

    func testAResetRequestedAfterARecoveryDoneWithoutItIsRefused() throws {
        let fixture = try FeedFixture(self)
        let recovery = Ed25519SigningKey()
        try fixture.initialize(recoveryKeys: [recovery.publicKey])
        let newKey = Ed25519SigningKey()
        try fixture.feed.rotate(oldKey: recovery, oldKeySource: "recovery.key", newKey: newKey, newKeySource: "new.key")
        let before = try fixture.tree()
        XCTAssertThrowsError(
            try fixture.feed.rotate(
                oldKey: recovery, oldKeySource: "recovery.key", newKey: newKey, newKeySource: "new.key",
                resetData: true)
        ) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, "--reset-data", "\(error)")
        }
        XCTAssertEqual(
            try fixture.tree().filter { !$0.key.hasPrefix(".feed") }, before.filter { !$0.key.hasPrefix(".feed") })
        // Rotating on to another key with --reset-data raises it.
        try fixture.feed.rotate(
            oldKey: recovery, oldKeySource: "recovery.key", newKey: Ed25519SigningKey(), newKeySource: "newer.key",
            resetData: true)
        XCTAssertEqual(try DataEpoch.of(try Root(try Metadata(data: fixture.rootData, document: "root.json"))), 1)
    }
}
