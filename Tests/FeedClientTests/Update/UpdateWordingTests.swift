import FeedClient
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// What an app shows or logs reads as words: a ``FeedUpdateError``'s `localizedDescription` is
/// its message (not Foundation's "The operation couldn't be completed" with a code), and every
/// ``UpdateEvent`` and ``UpdatePlan`` prints as a sentence.
final class UpdateWordingTests: XCTestCase {
    func testLocalizedDescriptionIsTheMessage() {
        let error: Error = FeedUpdateError(subject: "timestamp.json", check: .expired, reason: "expired at 2020-01-01")
        XCTAssertEqual(error.localizedDescription, "timestamp.json: error: expired at 2020-01-01")
        XCTAssertEqual((error as NSError).localizedDescription, "timestamp.json: error: expired at 2020-01-01")
    }

    /// A real refusal, thrown by a check against a feed that is not there, reads as its message too.
    func testAThrownErrorReadsAsItsMessage() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        do {
            _ = try await fixture.updater(url: server.url("/")).check()
            XCTFail("a feed with no documents was accepted")
        } catch {
            let feedError = try XCTUnwrap(error as? FeedUpdateError, "\(error)")
            XCTAssertEqual(error.localizedDescription, feedError.description)
            XCTAssertTrue(error.localizedDescription.contains(": error: "), error.localizedDescription)
            XCTAssertFalse(error.localizedDescription.contains("couldn"), error.localizedDescription)
        }
    }

    func testEventsAndPlansPrintAsSentences() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        var lines: [String] = []
        for try await event in try fixture.updater().events() { lines.append("\(event)") }
        let patch = "patches/\(fixture.first.sha256)-\(v2.sha256).sql.zlib"
        let length = try XCTUnwrap(fixture.writer.patchTarget(fixture.first, v2)?.length)
        XCTAssertEqual(
            lines.filter { !$0.hasPrefix("downloading ") },
            [
                "checking the feed", "planned: user_version 1 -> 2: 1 patch, \(length) bytes", "installing \(patch)",
                "installed \(patch): user_version 2",
            ])
        XCTAssertEqual(
            lines.last { $0.hasPrefix("downloading ") }, "downloading \(patch): \(length) of \(length) bytes")

        let again = try await fixture.updater().check()
        XCTAssertEqual("\(again)", "nothing new: user_version 2 is in effect")
        XCTAssertEqual("\(UpdateEvent.nothingNew(userVersion: 2))", "nothing new: user_version 2 is in effect")
    }
}
