import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// The resumable download against Debian's nginx serving a directory with its defaults (byte
/// ranges, If-Range, a strong ETag): whole, resumed with a 206 after a cut, and restarted from
/// zero with a 200 when the file was replaced on the server between two runs.
final class NginxDownloadTests: XCTestCase {
    func testAWholeFile() async throws {
        let fixture = try DownloadFixture(count: 300_000, removedAfter: self)
        let root = try TemporaryDirectory("shipyard-feed", removedAfter: self)
        try root.write("targets/db.gz", fixture.data)
        let nginx = try NginxServer(serving: root.url)
        defer { nginx.stop() }
        let target = try fixture.target(at: nginx.url("targets/db.gz"))

        let file = try await ResumableDownloader().download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        XCTAssertEqual(fixture.stagedNames, [target.sha256])
        XCTAssertEqual(nginx.accessLog().map(\.status), [200])
    }

    func testACutDownloadResumesWithA206() async throws {
        let fixture = try DownloadFixture(count: 400_000, removedAfter: self)
        let root = try TemporaryDirectory("shipyard-feed", removedAfter: self)
        try root.write("targets/db.gz", fixture.data)
        let nginx = try NginxServer(serving: root.url, limitRate: 400_000)
        defer { nginx.stop() }
        let target = try fixture.target(at: nginx.url("targets/db.gz"))

        let staged = try await cancelPartWay(target, fixture)
        let validator = try String(contentsOf: fixture.validator(of: target), encoding: .utf8)
        XCTAssertTrue(validator.hasPrefix("ETag: \""), validator)

        let file = try await ResumableDownloader().download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        let log = nginx.accessLog()
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(log.last?.status, 206)
        XCTAssertEqual(log.last?.range, "bytes=\(staged)-")
        XCTAssertEqual("ETag: \(log.last?.ifRange ?? "")\n", validator)
        XCTAssertEqual(log.last?.bodyBytesSent, 400_000 - staged)
    }

    func testAFileReplacedOnTheServerBetweenRunsRestartsFromZero() async throws {
        let fixture = try DownloadFixture(count: 400_000, removedAfter: self)
        let root = try TemporaryDirectory("shipyard-feed", removedAfter: self)
        let served = try root.write("targets/db.gz", fixture.data)
        let nginx = try NginxServer(serving: root.url, limitRate: 400_000)
        defer { nginx.stop() }
        let target = try fixture.target(at: nginx.url("targets/db.gz"))
        _ = try await cancelPartWay(target, fixture)

        // Uploaded again (the same bytes, a new modification time): nginx's ETag changes.
        try FileManager.default.removeItem(at: served)
        try root.write("targets/db.gz", fixture.data)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)],
                                              ofItemAtPath: served.path)
        let file = try await ResumableDownloader().download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        let log = nginx.accessLog()
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(log.last?.status, 200, "If-Range no longer holds: the whole file")
        XCTAssertFalse(log.last?.ifRange.isEmpty ?? true)
        XCTAssertEqual(log.last?.bodyBytesSent, 400_000)
    }

    /// Starts downloading `target`, cancels once a quarter is staged, and returns how many
    /// bytes the partial file holds.
    private func cancelPartWay(_ target: DownloadTarget, _ fixture: DownloadFixture) async throws -> Int {
        let quarter = expectation(description: "a quarter received")
        quarter.assertForOverFulfill = false
        let staging = fixture.staging
        let download = Task {
            try await ResumableDownloader().download(target, into: staging) { progress in
                if progress.completedBytes >= 100_000 { quarter.fulfill() }
            }
        }
        await fulfillment(of: [quarter], timeout: 20)
        download.cancel()
        do {
            _ = try await download.value
            XCTFail("the cancelled download finished")
        } catch let error as DownloadError {
            XCTAssertEqual(error, .cancelled(url: target.url))
        }
        let staged = DownloadFixture.size(fixture.partial(of: target))
        XCTAssertGreaterThanOrEqual(staged, 100_000)
        XCTAssertLessThan(staged, 400_000)
        return staged
    }
}
