import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Documents of different publications mixed: the snapshot must be the one the timestamp names, by version
/// and by hash, and the targets the one the snapshot names.
final class MixAndMatchAttackTests: XCTestCase {
    func testSnapshotOfAnotherVersionIsRefused() throws {
        let repository = try RepositoryFixture()
        repository.hashesInTimestamp = false
        let client = try ClientFixture(repository)
        try client.refresh()
        // Timestamp names snapshot 2, but 2.snapshot.json is the validly signed snapshot 1.
        try repository.write(try repository.read("1.snapshot.json"), "2.snapshot.json")
        try repository.publishTimestamp(snapshotVersion: 2)
        try client.assertRefused(
            .versionMismatch(document: "snapshot.json", expected: 2, received: 1), roles: ["snapshot"]
        )
    }

    func testSnapshotWithOtherBytesThanTheTimestampHashIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        try repository.publishSnapshot()
        try repository.publishTimestamp()
        // Snapshot 2 changed in transit, keeping its length: the hash the timestamp names differs.
        var bytes = try repository.read("2.snapshot.json")
        let expected = FileHash.sha256(bytes).hex
        let original = String(decoding: bytes, as: UTF8.self)
        let swapped = original.replacingOccurrences(of: "\"version\":1}", with: "\"version\":9}")
        XCTAssertNotEqual(swapped, original)
        bytes = Data(swapped.utf8)
        try repository.write(bytes, "2.snapshot.json")
        try client.assertRefused(
            .lengthOrHashMismatch(
                document: "snapshot.json", reason: "sha256 is \(FileHash.sha256(bytes).hex), expected \(expected)"
            ), roles: ["snapshot"])
    }

    func testTargetsOfAnotherVersionIsRefused() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        try repository.write(try repository.read("1.targets.json"), "2.targets.json")
        try repository.publishSnapshot(targetsVersion: 2)
        try repository.publishTimestamp()
        try client.assertRefused(
            .versionMismatch(document: "targets.json", expected: 2, received: 1), roles: ["targets"]
        )
    }

    func testSnapshotLongerThanTheTimestampSaysIsRefusedBeforeParsing() throws {
        let repository = try RepositoryFixture()
        let client = try ClientFixture(repository)
        try client.refresh()
        try repository.publishSnapshot()
        try repository.publishTimestamp()
        let bytes = try repository.read("2.snapshot.json")
        try repository.write(bytes + Data(repeating: 0x20, count: 100), "2.snapshot.json")
        XCTAssertThrowsError(try client.refresh()) { error in
            XCTAssertEqual(
                error as? FetchError,
                .tooLarge(
                    url: repository.metadataURL.appendingPathComponent("2.snapshot.json").absoluteString,
                    limit: bytes.count
                ))
        }
        XCTAssertEqual(try client.version("snapshot"), 1)
    }
}
