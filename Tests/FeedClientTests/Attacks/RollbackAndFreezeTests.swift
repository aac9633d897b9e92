import FeedClient
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Old metadata served again (rollback: refused even when nothing would be installed, and
/// after the app is reinstalled over its data) and an expired timestamp (freeze), including a
/// stored timestamp that expired and is confirmed by a 304.
final class RollbackAndFreezeTests: XCTestCase {
    func testAnOlderTimestampServedAgainIsARollback() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        let old = try fixture.writer.read("timestamp.json")
        try await fixture.updater().update()
        try fixture.writer.publish(try fixture.release(3))
        try await fixture.updater().update()
        XCTAssertEqual(try fixture.inEffect().userVersion, 3)

        // The app reinstalled over its data: a new updater, the bundled root, the same DIR.
        try fixture.writer.write(old, "timestamp.json")
        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .rollback)
        do {
            _ = try await fixture.updater().check()
            XCTFail("a check of a rolled-back feed succeeded")
        } catch let error as FeedUpdateError {
            XCTAssertEqual(error.check, .rollback, "even when nothing would be installed")
        }
    }

    func testANewerTimestampNamingAnOlderSnapshotIsARollback() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        try await fixture.updater().update()
        let writer = fixture.writer
        let oldSnapshot = writer.versions["snapshot"]! - 1
        let bytes = try writer.read("\(oldSnapshot).snapshot.json")
        writer.versions["timestamp"]! += 1
        try writer.writeTimestamp(
            signed: Timestamp.signed(
                version: writer.versions["timestamp"]! + 1, expires: writer.expiry("timestamp"),
                snapshot: MetaFile(
                    version: oldSnapshot, length: Int64(bytes.count), hashes: [FileHash.sha256(bytes)])))

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "snapshot.json")
        XCTAssertEqual(error?.check, .rollback)
    }

    func testAnExpiredTimestampIsAFreeze() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        fixture.writer.expires["timestamp"] = Date().addingTimeInterval(-60)
        try fixture.writer.publish(try fixture.release(2))

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .expired)
    }

    func testAStoredTimestampConfirmedByA304StillExpires() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        fixture.writer.expires["timestamp"] = Date().addingTimeInterval(3)
        try fixture.writer.publish(try fixture.release(2))
        try await fixture.updater().update()
        let expires = try Timestamp(try Metadata(data: try fixture.writer.read("timestamp.json"), document: "t"))
            .header.expires
        try await Task.sleep(nanoseconds: UInt64(max(0, expires.timeIntervalSinceNow + 0.2) * 1e9))

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .expired)
        XCTAssertEqual(try fixture.nginx.accessLog().last { $0.uri == "/timestamp.json" }?.status, 304)
    }
}
