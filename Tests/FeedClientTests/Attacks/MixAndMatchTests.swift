import FeedClient
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// Documents of two publications mixed: each is validly signed, but the referring document's
/// version, length and hash do not match.
final class MixAndMatchTests: XCTestCase {
    func testTargetsOfAnotherPublicationUnderThisSnapshotAreRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        let previous = fixture.writer.versions["targets"]!
        try fixture.writer.publish(try fixture.release(3))
        let current = fixture.writer.versions["targets"]!
        try fixture.writer.write(try fixture.writer.read("\(previous).targets.json"), "\(current).targets.json")

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "targets.json")
        XCTAssertEqual(error?.check, .lengthOrHash)
    }

    func testASnapshotOfAnotherPublicationIsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.writer.publish(try fixture.release(2))
        let previous = fixture.writer.versions["snapshot"]!
        try fixture.writer.publish(try fixture.release(3))
        let current = fixture.writer.versions["snapshot"]!
        try fixture.writer.write(try fixture.writer.read("\(previous).snapshot.json"), "\(current).snapshot.json")

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, "snapshot.json")
        XCTAssertEqual(error?.check, .lengthOrHash)
    }
}
