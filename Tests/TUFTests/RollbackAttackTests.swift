import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Versions only go up: an older document served again is refused, naming the role and both versions.
final class RollbackAttackTests: XCTestCase {
    func testOlderTimestampIsRefused() throws {
        let repository = try RepositoryFixture()
        let old = try repository.read("timestamp.json")
        try repository.publishTimestamp()
        let client = try ClientFixture(repository)
        try client.refresh()
        XCTAssertEqual(try client.version("timestamp"), 2)
        try repository.write(old, "timestamp.json")
        try client.assertRefused(.rollback(document: "timestamp.json", trusted: 2, received: 1))
    }

    func testOlderSnapshotIsRefused() throws {
        let repository = try RepositoryFixture()
        try repository.publishSnapshot()
        try repository.publishTimestamp()
        let client = try ClientFixture(repository)
        try client.refresh()
        XCTAssertEqual(try client.version("snapshot"), 2)
        try repository.publishTimestamp(snapshotVersion: 1)
        try client.assertRefused(.rollback(document: "snapshot.json", trusted: 2, received: 1))
    }

    func testOlderTargetsIsRefused() throws {
        let repository = try RepositoryFixture()
        try repository.publishTargets()
        try repository.publishSnapshot()
        try repository.publishTimestamp()
        let client = try ClientFixture(repository)
        try client.refresh()
        XCTAssertEqual(try client.version("targets"), 2)
        try repository.publishSnapshot(targetsVersion: 1)
        try repository.publishTimestamp()
        XCTAssertThrowsError(try client.refresh()) { error in
            XCTAssertEqual(error as? TUFError, .rollback(document: "targets.json", trusted: 2, received: 1))
        }
        XCTAssertEqual(try client.version("snapshot"), 2)
        XCTAssertEqual(try client.version("targets"), 2)
    }

    func testOlderRootServedAsTheNextIsRefused() throws {
        let repository = try RepositoryFixture()
        try repository.publishRoot()
        let client = try ClientFixture(repository)
        try client.refresh()
        XCTAssertEqual(try client.version("root"), 2)
        // 3.root.json holds version 2 again, validly signed.
        try repository.write(try repository.read("2.root.json"), "3.root.json")
        try client.assertRefused(.versionMismatch(document: "3.root.json", expected: 3, received: 2))
    }

    func testRollbackIsRefusedAfterANewClientReadsTheSameDirectory() throws {
        // The app reinstalled over its data: a new Updater on the same directory remembers the versions.
        let repository = try RepositoryFixture()
        let old = try repository.read("timestamp.json")
        try repository.publishTimestamp()
        let client = try ClientFixture(repository)
        try client.refresh()
        try repository.write(old, "timestamp.json")
        let fresh = try client.updater()
        XCTAssertThrowsError(try synchronously { try await fresh.refresh() }) { error in
            XCTAssertEqual(error as? TUFError, .rollback(document: "timestamp.json", trusted: 2, received: 1))
        }
    }
}
