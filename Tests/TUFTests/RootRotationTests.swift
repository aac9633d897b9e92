import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Root key rotation by a chain of roots: the next root must be signed by the previous root's keys and by
/// its own; anything else is refused.
final class RootRotationTests: XCTestCase {
    func testRotationSignedByTheOldAndNewKeysIsAccepted() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let old = repository.rootKeys
        repository.rootKeys = [Ed25519SigningKey()]
        try repository.publishRoot(signedBy: old + repository.rootKeys)
        // Then a root signed by the new key only: the chain continues from version 2.
        try repository.publishRoot()
        try client.refresh()
        XCTAssertEqual(try client.version("root"), 3)
    }

    func testRotationSignedOnlyByTheNewKeyIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let old = repository.rootKeys[0]
        repository.rootKeys = [Ed25519SigningKey()]
        try repository.publishRoot()
        let newID = String(try repository.rootKeys[0].publicKey.keyID.prefix(16))
        _ = old
        try client.assertRefused(
            .belowThreshold(
                document: "2.root.json", role: "root", valid: 0, threshold: 1,
                problems: ["key \(newID) is not a key of root"]
            ))
        XCTAssertEqual(try client.version("root"), 1)
    }

    func testRotationSignedOnlyByTheOldKeyIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let old = repository.rootKeys
        repository.rootKeys = [Ed25519SigningKey()]
        try repository.publishRoot(signedBy: old)
        let oldID = String(try old[0].publicKey.keyID.prefix(16))
        try client.assertRefused(
            .belowThreshold(
                document: "2.root.json", role: "root", valid: 0, threshold: 1,
                problems: ["key \(oldID) is not a key of root"]
            ))
    }

    func testRotationSignedByAnUnrelatedKeyIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let stranger = Ed25519SigningKey()
        repository.rootKeys = [stranger]
        try repository.publishRoot()
        XCTAssertThrowsError(try client.refresh()) { error in
            guard case .belowThreshold("2.root.json", "root", 0, 1, _) = error as? TUFError else {
                return XCTFail("\(error)")
            }
        }
        XCTAssertEqual(try client.version("root"), 1)
    }

    func testTimestampKeyRotationTakesEffect() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        let oldTimestampKeys = repository.timestampKeys
        repository.timestampKeys = [Ed25519SigningKey()]
        try repository.publishRoot()
        try repository.publishTimestamp(signedBy: oldTimestampKeys)
        XCTAssertThrowsError(try client.refresh()) { error in
            guard case .belowThreshold("timestamp.json", "timestamp", 0, 1, _) = error as? TUFError else {
                return XCTFail("\(error)")
            }
        }
        try repository.publishTimestamp()
        try client.refresh()
        XCTAssertEqual(try client.version("timestamp"), 3)
    }
}
