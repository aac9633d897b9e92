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

        let staged = try await fixture.cancel(target, afterReceiving: 100_000, test: self)
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
        _ = try await fixture.cancel(target, afterReceiving: 100_000, test: self)

        // Uploaded again (the same bytes, a new modification time): nginx's ETag changes.
        try FileManager.default.removeItem(at: served)
        try root.write("targets/db.gz", fixture.data)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(3600)],
            ofItemAtPath: served.path)
        let file = try await ResumableDownloader().download(target, into: fixture.staging)
        XCTAssertEqual(try Data(contentsOf: file), fixture.data)
        let log = nginx.accessLog()
        XCTAssertEqual(log.count, 2)
        XCTAssertEqual(log.last?.status, 200, "If-Range no longer holds: the whole file")
        XCTAssertFalse(log.last?.ifRange.isEmpty ?? true)
        XCTAssertEqual(log.last?.bodyBytesSent, 400_000)
    }
}
