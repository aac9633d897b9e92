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
        let beta = try fetch(fixture, ["--channel", "beta"])
        XCTAssertEqual(beta.status, 0, beta.stderrText)
        XCTAssertEqual(
            beta.stderrText,
            """
            dbgen: nothing new (user_version 1 is in effect)
            dbgen: user_version 2 is not offered to this client: data format 3 and later, and this app reads data format 1

            """)
        let format = try fetch(fixture, ["--data-format", "3"])
        XCTAssertEqual(format.status, 0, format.stderrText)
        XCTAssertEqual(
            format.stderrText,
            """
            dbgen: nothing new (user_version 1 is in effect)
            dbgen: user_version 2 is not offered to this client: channel "beta", which this app does not follow \
            (it follows no channel)

            """)
        let run = try fetch(fixture, ["--channel", "beta", "--data-format", "3"])
        XCTAssertTrue(run.stderrText.contains("installed user_version 2"), run.stderrText)
    }

    func testNothingNewNamesTheRolloutThatLeavesThisDeviceOut() throws {
        let fixture = try FeedFixture(removedAfter: self)
        try fixture.setBucket(0.75)
        var options = FeedWriter.Options()
        options.rollout = 0.5
        try fixture.writer.publish(try fixture.release(2), options)
        let run = try fetch(fixture, ["--check-only"])
        XCTAssertEqual(run.status, 0, run.stderrText)
        XCTAssertEqual(
            run.stderrText,
            """
            dbgen: nothing new (user_version 1 is in effect)
            dbgen: user_version 2 is not offered to this client: rollout 0.5 (the fraction of devices offered it), \
            and this device's bucket is 0.75, not below it

            """)
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
