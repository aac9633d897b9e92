import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// The download into a staging directory on a full disk (a 64 KiB tmpfs): a typed error naming
/// the staging file and ENOSPC, the bytes that fit kept for a later run.
final class FullDiskDownloadTests: XCTestCase {
    func testAFullDiskIsAStagingErrorAndKeepsWhatFit() async throws {
        let mountPoint = try TemporaryDirectory("shipyard-full-disk", removedAfter: self)
        let mount = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint.path])
        if mount.status != 0, getuid() != 0 {
            throw XCTSkip("mounting a tmpfs needs root: \(mount.stderrText)")
        }
        XCTAssertEqual(mount.status, 0, mount.stderrText)
        addTeardownBlock { _ = try? ProcessRunner.run("/bin/umount", [mountPoint.path]) }

        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        let fixture = try DownloadFixture(count: 300_000, removedAfter: self)
        let target = try fixture.target(at: server.url("db.gz"))
        server.script("db.gz", .file(fixture.data, etag: "\"v1\""))
        let staging = mountPoint.url.appendingPathComponent("staging")

        let error = await DownloadFixture.failure(ResumableDownloader(), target, into: staging)
        let partial = staging.appendingPathComponent(target.sha256 + ".partial")
        XCTAssertEqual(
            error,
            .staging(
                url: target.url, path: partial.path, code: ENOSPC,
                reason: String(cString: strerror(ENOSPC))))
        let kept = DownloadFixture.size(partial)
        XCTAssertGreaterThan(kept, 0)
        XCTAssertLessThan(kept, 300_000)
        XCTAssertEqual(fixture.data.prefix(kept), try Data(contentsOf: partial), "what fit is the file's prefix")
    }
}
