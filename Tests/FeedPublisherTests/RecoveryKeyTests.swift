@testable import FeedPublisher
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Recovery keys: named by root for the root role only, they sign no release, and they rotate
/// away a lost main key; a device (python-tuf, `verify`) bundling the first root follows.
final class RecoveryKeyTests: XCTestCase {
    /// python-tuf's client refreshes from `root` and prints each role of the root it trusts:
    /// `ROLE KEYID...` (key ids sorted).
    private static let rolesScript =
        PythonTUF.fileClientPreamble + """
            feed, client_dir, root_path = sys.argv[1:4]
            with open(root_path, "rb") as f:
                root = f.read()
            updater = Updater(client_dir, f"file://{feed}/", client_dir, f"file://{feed}/targets/",
                              fetcher=FileFetcher(), bootstrap=root)
            updater.refresh()
            for name, role in sorted(updater._trusted_set.root.roles.items()):
                print(name, *sorted(role.keyids))
            """

    private func pythonRoles(_ fixture: FeedFixture, from root: Data) throws -> [String] {
        let client = fixture.directory.url("python-roles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: client, withIntermediateDirectories: true)
        let rootFile = client.appendingPathComponent("bundled-root.json")
        try root.write(to: rootFile)
        return try PythonTUF.run(Self.rolesScript, [fixture.feedPath, client.path, rootFile.path])
            .split(separator: "\n").map(String.init)
    }

    /// The roles as `rolesScript` prints them: `main` for every role, and `recovery` for root too.
    private func roles(main: Ed25519SigningKey, recovery: [Ed25519SigningKey]) -> [String] {
        let rootIDs = ([main] + recovery).map(\.keyID).sorted().joined(separator: " ")
        return ["root \(rootIDs)", "snapshot \(main.keyID)", "targets \(main.keyID)", "timestamp \(main.keyID)"]
    }

    /// A feed initialized with a recovery key, its first root (what a device bundles), and release 1.
    private func feedWithRecoveryKeyAndOneRelease() throws -> (FeedFixture, Ed25519SigningKey, Data) {
        let fixture = try FeedFixture(self)
        let recovery = Ed25519SigningKey()
        try fixture.initialize(recoveryKeys: [recovery.publicKey])
        let bundled = fixture.rootData
        try fixture.publish(try fixture.release("v1", version: 1))
        return (fixture, recovery, bundled)
    }

    func testInitNamesRecoveryKeysForTheRootRoleOnlyAndRefusesTheMainKeyAsOne() throws {
        let fixture = try FeedFixture(self)
        let recovery = Ed25519SigningKey()
        XCTAssertThrowsError(try fixture.initialize(recoveryKeys: [fixture.key.publicKey])) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, "--recovery-key")
            XCTAssertTrue("\(error)".contains("is a key that signs releases"), "\(error)")
        }
        XCTAssertEqual(try fixture.tree(), [:])
        try fixture.initialize(recoveryKeys: [recovery.publicKey, recovery.publicKey])
        XCTAssertEqual(
            try pythonRoles(fixture, from: fixture.rootData), roles(main: fixture.key, recovery: [recovery]))
        XCTAssertEqual(try fixture.verify().rootVersion, 1)
        // A recovery key signs no release.
        try fixture.release("v1", version: 1)
        XCTAssertThrowsError(
            try fixture.feed.publish(fixture.directory.url("v1.sqlite").path, key: recovery, keySource: "recovery.key")
        ) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, "recovery.key")
            XCTAssertEqual(
                (error as? FeedPublisherError)?.reason,
                "key \(recovery.publicHex) is this feed's recovery key: it signs only root (`dbgen feed rotate`, "
                    + "when the main key is lost or leaked); publish with the main key (\(fixture.key.publicHex))")
        }
        XCTAssertThrowsError(try fixture.feed.resignTimestamp(key: recovery, keySource: "recovery.key")) { error in
            XCTAssertTrue("\(error)".contains("sign the timestamp with the main key"), "\(error)")
        }
        XCTAssertThrowsError(try fixture.feed.prune(key: recovery, keySource: "recovery.key", keep: 1)) { error in
            XCTAssertTrue("\(error)".contains("is this feed's recovery key"), "\(error)")
        }
    }

    func testARecoveryKeyReplacesALostMainKeyTwiceAndTheFirstRootFollows() throws {
        let (fixture, recovery, bundled) = try feedWithRecoveryKeyAndOneRelease()
        // fixture.key is lost: the recovery key and a new key sign the next root.
        let newKey = Ed25519SigningKey()
        XCTAssertEqual(
            try fixture.feed.rotate(
                oldKey: recovery, oldKeySource: "recovery.key", newKey: newKey, newKeySource: "new.key"), 2)
        XCTAssertEqual(try pythonRoles(fixture, from: bundled), roles(main: newKey, recovery: [recovery]))
        let root = try Metadata(data: fixture.rootData, document: "root.json")
        XCTAssertEqual(Set(root.signatures.map(\.keyID)), [recovery.keyID, newKey.keyID])
        // The old main key cannot sign the rest: the new key alone does.
        for name in ["timestamp.json", "3.snapshot.json", "3.targets.json"] {
            let document = try Metadata(data: try XCTUnwrap(try fixture.tree()[name]), document: name)
            XCTAssertEqual(document.signatures.map(\.keyID), [newKey.keyID], name)
        }
        XCTAssertEqual(
            try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory).first, "2 3 3 3")
        XCTAssertEqual(try fixture.verify(root: bundled).rootVersion, 2)
        XCTAssertThrowsError(try fixture.publish(try fixture.release("v2", version: 2, changedEvery: 9))) { error in
            XCTAssertTrue("\(error)".contains("is not a targets key of root.json (version 2)"), "\(error)")
        }
        try fixture.feed.publish(fixture.directory.url("v2.sqlite").path, key: newKey, keySource: "new.key")
        XCTAssertEqual(try fixture.verify(root: bundled).releases.map(\.userVersion), [2, 1])

        // The new key is lost too: the same recovery key replaces it again.
        let newerKey = Ed25519SigningKey()
        XCTAssertEqual(
            try fixture.feed.rotate(
                oldKey: recovery, oldKeySource: "recovery.key", newKey: newerKey, newKeySource: "newer.key"), 3)
        try fixture.feed.publish(
            try fixture.release("v3", version: 3, changedEvery: 7), key: newerKey, keySource: "newer.key")
        XCTAssertEqual(try pythonRoles(fixture, from: bundled), roles(main: newerKey, recovery: [recovery]))
        let lines = try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory)
        XCTAssertEqual(lines.first, "3 6 6 6")
        let verification = try fixture.verify(root: bundled)
        XCTAssertEqual(verification.rootVersion, 3)
        XCTAssertEqual(verification.releases.map(\.userVersion), [3, 2, 1])
    }

    func testRotatingTheMainKeyKeepsTheRecoveryKeysAndAddsTheOnesGiven() throws {
        let fixture = try FeedFixture(self)
        let first = Ed25519SigningKey()
        let second = Ed25519SigningKey()
        try fixture.initialize(recoveryKeys: [first.publicKey])
        let bundled = fixture.rootData
        let newKey = Ed25519SigningKey()
        let before = try fixture.tree()
        XCTAssertThrowsError(
            try fixture.feed.rotate(
                oldKey: fixture.key, oldKeySource: "old.key", newKey: newKey, newKeySource: "new.key",
                recoveryKeys: [newKey.publicKey])
        ) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, "--recovery-key")
        }
        XCTAssertEqual(try fixture.tree(), before)
        XCTAssertEqual(
            try fixture.feed.rotate(
                oldKey: fixture.key, oldKeySource: "old.key", newKey: newKey, newKeySource: "new.key",
                recoveryKeys: [second.publicKey]), 2)
        XCTAssertEqual(try pythonRoles(fixture, from: bundled), roles(main: newKey, recovery: [first, second]))
        // The recovery key added by the rotation replaces the new key in turn.
        let newerKey = Ed25519SigningKey()
        XCTAssertEqual(
            try fixture.feed.rotate(
                oldKey: second, oldKeySource: "second.key", newKey: newerKey, newKeySource: "newer.key"), 3)
        XCTAssertEqual(try pythonRoles(fixture, from: bundled), roles(main: newerKey, recovery: [first, second]))
        XCTAssertEqual(try fixture.verify(root: bundled).rootVersion, 3)
        // A recovery key made the main key is named once, as the main key.
        XCTAssertEqual(
            try fixture.feed.rotate(
                oldKey: newerKey, oldKeySource: "newer.key", newKey: first, newKeySource: "first.key"),
            4)
        XCTAssertEqual(try pythonRoles(fixture, from: bundled), roles(main: first, recovery: [second]))
        XCTAssertEqual(try fixture.verify(root: bundled).rootVersion, 4)
    }
}

extension RecoveryKeyTests {
    func testARecoveryKeyAddedToAFeedMadeWithoutOneIsReadByPythonTUFAndReplacesALostKey() throws {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        let bundled = fixture.rootData
        try fixture.publish(try fixture.release("v1", version: 1))
        let recovery = Ed25519SigningKey()
        XCTAssertThrowsError(
            try fixture.feed.addRecoveryKeys([fixture.key.publicKey], key: fixture.key, keySource: "main.key")
        ) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, "--recovery-key")
        }
        XCTAssertEqual(
            try fixture.feed.addRecoveryKeys(
                [recovery.publicKey, recovery.publicKey], key: fixture.key, keySource: "main.key"), 2)
        let root = try Metadata(data: fixture.rootData, document: "root.json")
        XCTAssertEqual(root.signatures.map(\.keyID), [fixture.key.keyID])
        XCTAssertEqual(try pythonRoles(fixture, from: bundled), roles(main: fixture.key, recovery: [recovery]))
        XCTAssertEqual(
            try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory).first, "2 2 2 2")
        XCTAssertEqual(try fixture.verify(root: bundled).rootVersion, 2)
        // Named already: nothing written. The recovery key adds none: it stays offline.
        let before = try fixture.tree()
        XCTAssertThrowsError(
            try fixture.feed.addRecoveryKeys([Ed25519SigningKey().publicKey], key: recovery, keySource: "recovery.key")
        ) { error in
            XCTAssertTrue("\(error)".contains("add a recovery key with the main key"), "\(error)")
        }
        XCTAssertNil(try fixture.feed.addRecoveryKeys([recovery.publicKey], key: fixture.key, keySource: "main.key"))
        XCTAssertEqual(try fixture.tree(), before)
        // The main key is lost: the recovery key added later replaces it; the first root follows.
        let newKey = Ed25519SigningKey()
        XCTAssertEqual(
            try fixture.feed.rotate(
                oldKey: recovery, oldKeySource: "recovery.key", newKey: newKey, newKeySource: "new"), 3)
        try fixture.feed.publish(
            try fixture.release("v2", version: 2, changedEvery: 5), key: newKey, keySource: "new.key")
        XCTAssertEqual(try pythonRoles(fixture, from: bundled), roles(main: newKey, recovery: [recovery]))
        XCTAssertEqual(try fixture.verify(root: bundled).releases.map(\.userVersion), [2, 1])
    }

    func testARecoveryKilledAfterItsRootIsCompletedByRunningItAgain() throws {
        let (fixture, recovery, bundled) = try feedWithRecoveryKeyAndOneRelease()
        // What a rotation killed after `root.json` leaves: the rest still signed by the lost key.
        let newKey = Ed25519SigningKey()
        let writer = MetadataWriter(layout: FeedLayout(directory: fixture.feedPath), clock: fixture.clock)
        try writer.writeRoot(
            version: 2, naming: newKey, recovery: [recovery.publicKey], dataEpoch: 0, signedBy: [recovery, newKey])
        XCTAssertThrowsError(try fixture.verify(root: bundled)) { error in
            XCTAssertEqual((error as? FeedPublisherError)?.subject, "timestamp.json", "\(error)")
        }
        XCTAssertEqual(
            try fixture.feed.rotate(
                oldKey: recovery, oldKeySource: "recovery.key", newKey: newKey, newKeySource: "new.key",
                recoveryKeys: [recovery.publicKey]), 2)
        XCTAssertEqual(
            Set(try fixture.tree().keys.filter { $0.hasSuffix("root.json") }),
            ["1.root.json", "2.root.json", "root.json"])
        XCTAssertEqual(try fixture.verify(root: bundled).rootVersion, 2)
        XCTAssertEqual(
            try PythonTUFClient.read(feed: fixture.feedPath, root: bundled, in: fixture.directory).first, "2 3 3 3")
        // The main key is never "rotated" to itself.
        XCTAssertThrowsError(
            try fixture.feed.rotate(oldKey: newKey, oldKeySource: "new.key", newKey: newKey, newKeySource: "new.key"))
    }
}
