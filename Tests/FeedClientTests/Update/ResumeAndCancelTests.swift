import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// A download cut by the network waits in the staging area and the next run resumes it with
/// Range; a cancelled update installs nothing and keeps what it downloaded.
final class ResumeAndCancelTests: XCTestCase {
    func testACutDownloadIsResumedByTheNextRun() async throws {
        let fixture = try FeedFixture(publishBundled: false, removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2, sql: "UPDATE food SET name = hex(randomblob(20));"))
        let target = try XCTUnwrap(fixture.writer.wholeTarget(v2))
        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        try fixture.serve(on: server)
        let blob = try Data(contentsOf: fixture.writer.blobURL(of: target))
        let blobPath = "targets/releases/\(target.hashes[0].hex).\(v2.sha256).sqlite.zlib"
        server.script(blobPath, .cutShort(blob, etag: "\"blob\"", after: 20_000), .file(blob, etag: "\"blob\""))
        let updater = try fixture.updater(url: server.url("/"))

        let error = try await fixture.refused(updater)
        XCTAssertEqual(error?.subject, target.path)
        XCTAssertEqual(error?.check, .network, error?.description ?? "")
        XCTAssertEqual(fixture.staged.filter { $0.hasSuffix(".partial") }.count, 1, "the cut download waits")

        let plan = try await fixture.updater(url: server.url("/")).update()
        XCTAssertEqual(plan.release, v2)
        XCTAssertEqual(try fixture.inEffect(), v2)
        let resumed = server.requests.filter { $0.path == "/" + blobPath }
        XCTAssertEqual(resumed.count, 2)
        XCTAssertEqual(resumed.last?.headers["range"], "bytes=20000-")
        XCTAssertEqual(resumed.last?.headers["if-range"], "\"blob\"")
    }

    func testACancelledUpdateInstallsNothingAndTheNextRunResumes() async throws {
        let fixture = try FeedFixture(rows: 20_000, publishBundled: false, removedAfter: self)
        let v2 = try fixture.writer.publish(
            try fixture.release(2, sql: "UPDATE food SET name = hex(randomblob(20)); VACUUM;"))
        let nginx = try NginxServer(serving: fixture.writer.directory, limitRate: 300_000)
        defer { nginx.stop() }
        let target = try XCTUnwrap(fixture.writer.wholeTarget(v2))
        XCTAssertGreaterThan(target.length, 600_000, "long enough to cancel half-way")
        let before = try fixture.state()
        let updater = try fixture.updater(url: nginx.url("/"))
        let reached = expectation(description: "100 KB downloaded")
        reached.assertForOverFulfill = false
        let task = Task {
            try await updater.update { event in
                if case .downloading(_, let done, _) = event, done >= 100_000 { reached.fulfill() }
            }
        }
        await fulfillment(of: [reached], timeout: 30)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("the cancelled update finished")
        } catch let error as FeedUpdateError {
            XCTAssertEqual(error.check, .cancelled)
            XCTAssertEqual(error.subject, target.path)
        }
        XCTAssertEqual(try fixture.state(), before, "nothing installed, no metadata recorded")
        XCTAssertEqual(fixture.staged.filter { $0.hasSuffix(".partial") }.count, 1)

        try await fixture.updater(url: nginx.url("/")).update()
        XCTAssertEqual(try fixture.inEffect(), v2)
        let blob = nginx.accessLog().filter { $0.uri.hasPrefix("/targets/") }
        XCTAssertEqual(blob.map(\.status), [200, 206])
        XCTAssertTrue(blob.last?.range.hasPrefix("bytes=") ?? false)
    }
}
