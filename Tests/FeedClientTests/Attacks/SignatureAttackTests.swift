import FeedClient
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Signatures: a key the root does not name, too few root signatures for the threshold, and
/// root rotation (accepted when the old root's keys sign it, refused otherwise).
final class SignatureAttackTests: XCTestCase {
    func testATimestampSignedByAnUnknownKeyIsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        try fixture.writer.writeTimestamp(signedBy: [Ed25519SigningKey()])

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .signature)
        XCTAssertTrue(error?.reason.contains("0 valid of the 1 required") ?? false, error?.description ?? "")
    }

    func testARootBelowItsThresholdIsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let writer = fixture.writer
        let first = writer.rootKeys[0]
        let second = Ed25519SigningKey()
        writer.rootKeys = [first, second]
        writer.rootThreshold = 2
        try writer.writeRoot(signedBy: [first, second]) // 2.root.json: threshold 2
        try writer.writeRoot(signedBy: [second]) // 3.root.json: one signature of two
        try writer.publish(try fixture.release(2))

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "3.root.json")
        XCTAssertEqual(error?.check, .signature)
    }

    func testARootRotationSignedByTheOldKeysIsFollowed() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let writer = fixture.writer
        let old = writer.rootKeys
        writer.rootKeys = [Ed25519SigningKey()]
        writer.timestampKey = Ed25519SigningKey()
        try writer.writeRoot(signedBy: old + writer.rootKeys)
        let v2 = try writer.publish(try fixture.release(2))

        let plan = try await fixture.updater().update()
        XCTAssertEqual(plan.release, v2, "the new root's timestamp key is trusted")
        let stored = try Data(contentsOf: fixture.updates.appendingPathComponent(".feed/metadata/root.json"))
        XCTAssertEqual(try Metadata(data: stored, document: "root.json").header.version, 2)
    }

    func testARootRotationSignedByAnyOtherKeyIsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let writer = fixture.writer
        writer.rootKeys = [Ed25519SigningKey()]
        writer.timestampKey = Ed25519SigningKey()
        try writer.writeRoot() // signed by the new key only
        try writer.publish(try fixture.release(2))

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "2.root.json")
        XCTAssertEqual(error?.check, .signature)
    }
}
