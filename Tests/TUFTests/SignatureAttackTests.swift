import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Signatures that must not make the client trust a document: bad, from an unknown key, below threshold.
final class SignatureAttackTests: XCTestCase {
    private func prefix(_ key: Ed25519SigningKey) throws -> String { String(try key.publicKey.keyID.prefix(16)) }

    func testSignedRepositoryIsTrusted() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        XCTAssertEqual(try client.version("timestamp"), 1)
        XCTAssertEqual(try client.version("snapshot"), 1)
        XCTAssertEqual(try client.version("targets"), 1)
    }

    func testBadSignatureIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        try repository.publishTimestamp()
        var text = String(decoding: try repository.read("timestamp.json"), as: UTF8.self)
        let signatureStart = text.range(of: "\"sig\":\"")!.upperBound
        let flipped: Character = text[signatureStart] == "0" ? "1" : "0"
        text.replaceSubrange(signatureStart...signatureStart, with: String(flipped))
        try repository.write(Data(text.utf8), "timestamp.json")
        try client.assertRefused(
            .belowThreshold(
                document: "timestamp.json", role: "timestamp", valid: 0, threshold: 1,
                problems: ["key \(repository.timestampKeys[0].publicKey.publicValue): bad signature"]
            ))
    }

    func testSignatureOfAnUnknownKeyIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let stranger = Ed25519SigningKey()
        try repository.publishTimestamp(signedBy: [stranger])
        try client.assertRefused(
            .belowThreshold(
                document: "timestamp.json", role: "timestamp", valid: 0, threshold: 1,
                problems: ["key \(try prefix(stranger)) is not a key of timestamp"]
            ))
    }

    /// A key root defines for another role (a root-only key, as a recovery key is) is named by its
    /// public key, as `dbgen keys generate` printed it; a key root does not define, by its id.
    func testSignatureOfAKeyOfAnotherRoleNamesItsPublicKey() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        try repository.publishTimestamp(signedBy: [repository.rootKeys[0]])
        try client.assertRefused(
            .belowThreshold(
                document: "timestamp.json", role: "timestamp", valid: 0, threshold: 1,
                problems: ["key \(repository.rootKeys[0].publicKey.publicValue) is not a key of timestamp"]
            ))
    }

    func testSignaturesBelowTheThresholdAreRefused() throws {
        let repository = try RepositoryFixture()
        repository.timestampKeys.append(Ed25519SigningKey())
        repository.timestampThreshold = 2
        try repository.publishRoot()
        try repository.publishTimestamp()
        let client = try ClientFixture(repository)
        try client.refresh()
        XCTAssertEqual(try client.version("root"), 2)
        try repository.publishTimestamp(signedBy: [repository.timestampKeys[1]])
        try client.assertRefused(
            .belowThreshold(
                document: "timestamp.json", role: "timestamp", valid: 1, threshold: 2, problems: []
            ))
    }

    func testOneKeySigningTwiceIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let key = repository.timestampKeys[0]
        try repository.publishTimestamp(signedBy: [key, key])
        try client.assertRefused(
            .malformed(document: "timestamp.json", reason: "key \(try key.publicKey.keyID) signs twice")
        )
    }

    func testSnapshotSignedByTheTimestampKeyIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        try repository.publishSnapshot(signedBy: repository.timestampKeys)
        try repository.publishTimestamp()
        XCTAssertThrowsError(try client.refresh()) { error in
            guard case .belowThreshold(let document, let role, 0, 1, _) = error as? TUFError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual([document, role], ["snapshot.json", "snapshot"])
        }
        XCTAssertEqual(try client.version("snapshot"), 1)
    }
}
