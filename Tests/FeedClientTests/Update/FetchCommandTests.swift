import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen fetch`: what it did on standard error and exit 0, nothing new and exit 0, and
/// `WHAT: error: WHY` with exit 1.
final class FetchCommandTests: XCTestCase {
    private func fetch(_ fixture: FeedFixture, _ extra: [String] = []) throws -> ProcessResult {
        let root = fixture.temporary.url("root.json")
        try fixture.writer.bundledRoot.write(to: root)
        return try BuiltProducts.run(
            "dbgen",
            [
                "fetch", try fixture.feedURL.absoluteString, "--root", root.path, "--bundled", fixture.bundled.path,
                "--updates", fixture.updates.path,
            ] + extra)
    }

    func testFetchInstallsThenFindsNothingNew() throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        let installed = try fetch(fixture)
        XCTAssertEqual(installed.status, 0, installed.stderrText)
        let bytes = try XCTUnwrap(fixture.writer.patchTarget(fixture.first, v2)).length
        XCTAssertEqual(
            installed.stderrText, "dbgen: installed user_version 2 via a chain of 1 patch, \(bytes) bytes\n")
        XCTAssertEqual(installed.stdoutText, "")
        let again = try fetch(fixture)
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stderrText, "dbgen: nothing new (user_version 2 is in effect)\n")
    }

    func testAChannelAndADataFormatAreTheClients() throws {
        let fixture = try FeedFixture(removedAfter: self)
        var options = FeedWriter.Options()
        options.channel = "beta"
        options.dataFormat = .init(minimum: 3)
        try fixture.writer.publish(try fixture.release(2), options)
        XCTAssertTrue(try fetch(fixture, ["--channel", "beta"]).stderrText.contains("nothing new"))
        XCTAssertTrue(try fetch(fixture, ["--data-format", "3"]).stderrText.contains("nothing new"))
        let run = try fetch(fixture, ["--channel", "beta", "--data-format", "3"])
        XCTAssertTrue(run.stderrText.contains("installed user_version 2"), run.stderrText)
    }

    func testARefusalIsWhatErrorWhyAndExit1() throws {
        let fixture = try FeedFixture(removedAfter: self)
        fixture.writer.expires["timestamp"] = Date().addingTimeInterval(-60)
        try fixture.writer.publish(try fixture.release(2))
        let run = try fetch(fixture)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderrText.hasPrefix("timestamp.json: error: expired: expired at "), run.stderrText)
        XCTAssertEqual(try fixture.inEffect().userVersion, 1)
    }
}
