import FeedClient
import FileSystemKit
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

    /// tough's CVE-2020-15093: a root lists the timestamp key twice, under its id and under the
    /// id of the same key written with another member, and asks for 2 signatures; the timestamp
    /// carries the one signature under both ids. It counts once: refused, nothing changed.
    func testOneKeyUnderTwoKeyIDsCountsOnce() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let writer = fixture.writer
        try writer.publish(try fixture.release(2))
        let key = writer.timestampKey
        var alias = key.publicKey.json
        alias["x-alias"] = .bool(true)
        var hash = SHA256Stream()
        try CanonicalJSON.encode(.object(alias)).withUnsafeBytes { hash.update($0) }
        let aliasID = hash.hexDigest()
        var keys: [String: PublicKey] = [:]
        for signer in writer.rootKeys + [writer.snapshotKey, writer.targetsKey, key] {
            keys[try signer.publicKey.keyID] = signer.publicKey
        }
        func role(_ signer: Ed25519SigningKey) throws -> RoleKeys {
            RoleKeys(keyIDs: [try signer.publicKey.keyID], threshold: 1)
        }
        var signed = Root.signed(
            version: 2, expires: Date().addingTimeInterval(86_400), keys: keys,
            roles: [
                "root": try role(writer.rootKeys[0]),
                "timestamp": RoleKeys(keyIDs: [try key.publicKey.keyID, aliasID], threshold: 2),
                "snapshot": try role(writer.snapshotKey), "targets": try role(writer.targetsKey),
            ])
        var keysObject = signed["keys"]!.objectValue!
        keysObject[aliasID] = .object(alias)
        signed["keys"] = .object(keysObject)
        try writer.write(try Metadata.sign(signed, with: writer.rootKeys), "2.root.json")
        let timestamp = try Metadata(data: try writer.read("timestamp.json"), document: "timestamp.json")
        let signature = timestamp.signatures[0].signature
        let doubled = try CanonicalJSON.encode(
            .object(
                JSONObject([
                    (
                        "signatures",
                        .array(
                            [try key.publicKey.keyID, aliasID].map {
                                .object(Signature(keyID: $0, signature: signature).json)
                            })
                    ),
                    ("signed", .object(timestamp.signed)),
                ])))
        try writer.write(doubled, "timestamp.json")

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .signature)
        XCTAssertTrue(error?.reason.contains("1 valid of the 2 required") ?? false, error?.description ?? "")
        XCTAssertTrue(error?.reason.contains("already counted") ?? false, error?.description ?? "")
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
