import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// The updates directory on a full disk (a 64 KiB tmpfs) during the download: a storage error
/// naming the staging file, the database in effect as it was.
final class FullDiskTests: XCTestCase {
    func testAFullDiskDuringTheDownloadInstallsNothing() async throws {
        let fixture = try FeedFixture(rows: 5_000, publishBundled: false, removedAfter: self)
        let v2 = try fixture.writer.publish(
            try fixture.release(2, sql: "UPDATE food SET name = hex(randomblob(16));"))
        let whole = try XCTUnwrap(fixture.writer.wholeTarget(v2))
        XCTAssertGreaterThan(whole.length, 100_000)
        try FileManager.default.createDirectory(at: fixture.updates, withIntermediateDirectories: true)
        let mount = try ProcessRunner.run(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", fixture.updates.path])
        if mount.status != 0, getuid() != 0 { throw XCTSkip("mounting a tmpfs needs root: \(mount.stderrText)") }
        XCTAssertEqual(mount.status, 0, mount.stderrText)
        defer { _ = try? ProcessRunner.run("/bin/umount", [fixture.updates.path]) }

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.check, .storage, error?.description ?? "")
        XCTAssertTrue(error?.subject.hasPrefix(whole.path) ?? false, error?.description ?? "")
        XCTAssertTrue(error?.reason.contains(String(cString: strerror(ENOSPC))) ?? false, error?.description ?? "")
        XCTAssertEqual(try fixture.inEffect().userVersion, 1)
    }
}
