import FeedClient
@testable import FeedPublisher
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// `feed verify` and `feed pull` read each target where devices fetch it: the URL TUF's updater
/// builds (``Updater/targetURL(for:)``, which FeedClient uses too), not a path of the
/// publisher's own layout. python-tuf's client, reading the same feed, says where devices
/// fetch: a root without consistent snapshots names a target `targets/DIR/NAME`, one with them
/// `targets/DIR/HASH.NAME`.
final class VerifiedTargetLocationTests: XCTestCase {
    /// A published feed whose root 2 turns consistent snapshots off (signed by the feed's key),
    /// with the unversioned `snapshot.json` and `targets.json` such a root names; returns the
    /// feed and root 1, the root devices bundle.
    private func feedWithoutConsistentSnapshots() throws -> (FeedFixture, Data) {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        try fixture.publish(try fixture.release("v1", version: 1))
        let bundledRoot = fixture.rootData
        let state = try FeedState.load(fixture.feed.layout)
        let signed = Root.signed(
            version: 2, expires: Date().addingTimeInterval(365 * 86_400), keys: state.root.keys,
            roles: state.root.roles, consistentSnapshot: false)
        let root = try Metadata.sign(signed, with: [fixture.key])
        let feed = URL(fileURLWithPath: fixture.feedPath)
        try root.write(to: feed.appendingPathComponent("2.root.json"))
        try root.write(to: feed.appendingPathComponent("root.json"))
        let timestamp = try Timestamp(
            Metadata(
                data: try Data(contentsOf: feed.appendingPathComponent("timestamp.json")), document: "timestamp.json"))
        let snapshotName = "\(timestamp.snapshotMeta.version).snapshot.json"
        let snapshot = try Snapshot(
            Metadata(data: try Data(contentsOf: feed.appendingPathComponent(snapshotName)), document: snapshotName))
        let targetsVersion = try XCTUnwrap(snapshot.meta["targets.json"]).version
        try FileManager.default.copyItem(
            at: feed.appendingPathComponent(snapshotName), to: feed.appendingPathComponent("snapshot.json"))
        try FileManager.default.copyItem(
            at: feed.appendingPathComponent("\(targetsVersion).targets.json"),
            to: feed.appendingPathComponent("targets.json"))
        return (fixture, bundledRoot)
    }

    /// The devices' answer (python-tuf's) and `feed verify`'s for the feed as it is now: both
    /// accept it, or both refuse it.
    private func assertVerifyAgreesWithDevices(
        _ fixture: FeedFixture, root: Data, accepted: Bool, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let devices = Result { try PythonTUFClient.read(feed: fixture.feedPath, root: root, in: fixture.directory) }
        XCTAssertEqual((try? devices.get()) != nil, accepted, "python-tuf: \(devices)", file: file, line: line)
        let verify = Result { try fixture.verify(root: root) }
        XCTAssertEqual((try? verify.get()) != nil, accepted, "feed verify: \(verify)", file: file, line: line)
    }

    func testVerifyReadsEachTargetWhereDevicesFetchIt() throws {
        let (fixture, root) = try feedWithoutConsistentSnapshots()
        // The targets lie at their hash-prefixed names only: devices ask for targets/DIR/NAME.
        try assertVerifyAgreesWithDevices(fixture, root: root, accepted: false)
        XCTAssertThrowsError(try fixture.verify(root: root)) { error in
            XCTAssertTrue("\(error)".hasPrefix("releases/"), "the error names the target: \(error)")
        }
        // Where devices fetch them, and only there.
        for target in try fixture.targets().values {
            let sha256 = try XCTUnwrap(target.hashes.first { $0.algorithm == "sha256" }).hex
            let stored = fixture.feedPath + "/" + (try FeedLayout.storedName(of: target.path, sha256: sha256))
            try FileManager.default.moveItem(atPath: stored, toPath: fixture.feedPath + "/targets/" + target.path)
        }
        try assertVerifyAgreesWithDevices(fixture, root: root, accepted: true)
    }
}
