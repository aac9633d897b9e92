import FeedClient
@testable import FeedPublisher
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// `feed init`, `rotate`, `timestamp`, `prune` and `verify`.
final class AdministrationTests: XCTestCase {
    func testInitRefusesADirectoryThatIsNotEmptyAndAnEmptyFeedVerifies() throws {
        let fixture = try FeedFixture(self)
        try FileManager.default.createDirectory(atPath: fixture.feedPath, withIntermediateDirectories: true)
        try fixture.initialize()
        XCTAssertEqual(
            try fixture.tree().keys.sorted(),
            ["1.root.json", "1.snapshot.json", "1.targets.json", "root.json", "timestamp.json"])
        let verification = try fixture.verify()
        XCTAssertEqual(verification.releases, [])
        XCTAssertEqual(verification.targetsVersion, 1)
        XCTAssertThrowsError(try fixture.initialize()) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, fixture.feedPath)
            XCTAssertTrue("\(error)".contains("not empty"), "\(error)")
        }
    }

    func testRotationSignedByTheOldAndNewKeysIsAcceptedByPythonTUFAndByVerify() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let bundled = fixture.rootData
        try fixture.publish(try fixture.release("v1", version: 1))
        let newKey = Ed25519SigningKey()
        XCTAssertEqual(
            try fixture.feed.rotate(oldKey: fixture.key, oldKeySource: "old", newKey: newKey, newKeySource: "new"), 2)
        let lines = try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory)
        XCTAssertEqual(lines.first, "2 3 3 3")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(try fixture.verify(root: bundled).rootVersion, 2)
        // The old key no longer signs anything clients accept: publish refuses it, the new key publishes.
        XCTAssertThrowsError(try fixture.publish(try fixture.release("v2", version: 2))) { error in
            XCTAssertTrue("\(error)".contains("is not a targets key of root.json (version 2)"), "\(error)")
        }
        try fixture.feed.publish(fixture.directory.url("v2.sqlite").path, key: newKey, keySource: "new")
        XCTAssertEqual(
            try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory).first, "2 4 4 4")
    }

    func testRotateRefusesAKeyTheRootDoesNotName() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let before = try fixture.tree()
        XCTAssertThrowsError(
            try fixture.feed.rotate(
                oldKey: Ed25519SigningKey(), oldKeySource: "stranger.key", newKey: Ed25519SigningKey(),
                newKeySource: "new.key")
        ) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, "stranger.key")
            XCTAssertTrue("\(error)".contains("is not a root key of root.json (version 1)"), "\(error)")
        }
        XCTAssertEqual(try fixture.tree(), before)
    }

    func testARootSignedByAKeyTheOldRootDoesNotNameIsRefusedByVerifyAndByPythonTUF() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let bundled = fixture.rootData
        // An attacker's next root, naming and signed by a key of their own, with metadata to match.
        let stranger = Ed25519SigningKey()
        let writer = MetadataWriter(layout: FeedLayout(directory: fixture.feedPath), clock: fixture.clock)
        let state = try FeedState.load(FeedLayout(directory: fixture.feedPath))
        try writer.publish(targets: [], over: state, signedBy: [stranger])
        try writer.writeRoot(version: 2, naming: stranger, dataEpoch: 0, signedBy: [stranger])
        XCTAssertThrowsError(try fixture.verify(root: bundled)) { error in
            let error = error as? FeedPublisherError
            XCTAssertEqual(error?.subject, "2.root.json")
            XCTAssertTrue(
                error?.reason.contains("signatures: 0 valid of the 1 required from root's keys") ?? false,
                "\(String(describing: error))")
            // The feed's own 1.root.json is the bundled root: not another feed's, an attack.
            XCTAssertFalse(error?.reason.contains("this feed's root?") ?? true, "\(String(describing: error))")
        }
        XCTAssertThrowsError(try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory)) {
            XCTAssertTrue("\($0)".contains("UnsignedMetadataError"), "\($0)")
        }
    }

    func testTimestampResignsOnlyTheTimestamp() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let before = try fixture.tree()
        fixture.clock.timestampLifetime = 7200
        XCTAssertEqual(
            try fixture.feed.resignTimestamp(key: fixture.key, keySource: "k"),
            RenewalSummary(timestampVersion: 2, repaired: [:]))
        let after = try fixture.tree()
        XCTAssertEqual(Set(after.keys), Set(before.keys))
        XCTAssertEqual(after.filter { before[$0.key] != $0.value }.map(\.key), ["timestamp.json"])
        let timestamp = try Timestamp(Metadata(data: after["timestamp.json"]!, document: "timestamp.json"))
        XCTAssertEqual(timestamp.header.expires, fixture.clock.now.addingTimeInterval(7200))
        XCTAssertEqual(try fixture.verify().timestampVersion, 2)
    }

    func testPruneDropsOlderReleasesAndDeletesOnlyFilesTheLiveMetadataNoLongerNames() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        for version in 1...3 {
            try fixture.publish(try fixture.release("v\(version)", version: version, changedEvery: 10 * version))
        }
        XCTAssertEqual(try fixture.targets().count, 6)
        let summary = try fixture.feed.prune(key: fixture.key, keySource: "k", keep: 2)
        XCTAssertEqual(summary.kept.map(\.userVersion), [3, 2])
        XCTAssertEqual(summary.removedTargets.count, 3) // v1, 1→2, 1→3
        let targets = try fixture.targets()
        XCTAssertEqual(targets.count, 3)
        let named = Set(targets.values.compactMap(\.storedName))
        let stored = Set(try fixture.tree().keys.filter { $0.hasPrefix("targets/") })
        XCTAssertEqual(stored, named)
        XCTAssertEqual(try fixture.verify().releases.map(\.userVersion), [3, 2])
        XCTAssertEqual(
            try PythonTUFClient.read(feed: fixture.feedPath, root: fixture.rootData, in: fixture.directory).count, 4)
        // Nothing left to drop: nothing written.
        let before = try fixture.tree()
        XCTAssertEqual(try fixture.feed.prune(key: fixture.key, keySource: "k", keep: 2).removedTargets, [])
        XCTAssertEqual(try fixture.tree(), before)
    }

    func testVerifyNamesATamperedTarget() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        try fixture.publish(try fixture.release("v1", version: 1))
        let sha = try ContentHashing.sha256(fixture.directory.url("v1.sqlite").path)
        let target = try XCTUnwrap(try fixture.targets()["releases/\(sha).sqlite.bz2"])
        let blob = URL(fileURLWithPath: fixture.feedPath + "/" + target.storedName!)
        var bytes = try Data(contentsOf: blob)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: blob)
        XCTAssertThrowsError(try fixture.verify()) { error in
            let error = error as? FeedPublisherError
            XCTAssertEqual(error?.subject, "releases/\(sha).sqlite.bz2")
            XCTAssertTrue(error?.reason.hasPrefix("sha256: ") ?? false, "\(String(describing: error))")
        }
    }

    func testVerifyNamesThePatchWhoseBaseIsNotARelease() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let v1 = try fixture.release("v1", version: 1)
        try fixture.publish(v1)
        try fixture.publish(try fixture.release("v2", version: 2, changedEvery: 7))
        let sha1 = try ContentHashing.sha256(v1)
        let layout = FeedLayout(directory: fixture.feedPath)
        let state = try FeedState.load(layout)
        try MetadataWriter(layout: layout, clock: fixture.clock).publish(
            targets: state.targetFiles.filter { $0.path != "releases/\(sha1).sqlite.bz2" }, over: state,
            signedBy: [fixture.key])
        XCTAssertThrowsError(try fixture.verify()) { error in
            let error = error as? FeedPublisherError
            XCTAssertTrue(error?.subject.hasPrefix("patches/\(sha1)-") ?? false, "\(String(describing: error))")
            XCTAssertEqual(error?.reason, "base: release \(sha1) is not in the feed")
        }
    }
}
