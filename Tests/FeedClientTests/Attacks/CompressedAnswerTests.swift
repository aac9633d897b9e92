import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// A server that compresses its answer although `Accept-Encoding: identity` was asked for (a
/// gzip bomb: about 100 KB that would decode to 100 MB): refused from the head for a document
/// and for a target, never decoded, nothing installed or kept. The bomb is python3's gzip.
final class CompressedAnswerTests: XCTestCase {
    static func gzipBomb() throws -> Data {
        try Oracle.python3.run([
            "-c", "import gzip, sys; sys.stdout.buffer.write(gzip.compress(bytes(100_000_000), 9))",
        ])
        .stdout
    }

    func testAGzipTimestampIsRefusedNeverDecoded() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        try fixture.serve(on: server)
        server.script("timestamp.json", .encoded(try Self.gzipBomb(), encoding: "gzip"))

        let error = try await fixture.refused(try fixture.updater(url: server.url("/")))
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .network)
        XCTAssertTrue(error?.reason.contains("Content-Encoding: gzip") ?? false, "\(String(describing: error))")
        XCTAssertTrue(server.requests.allSatisfy { $0.headers["accept-encoding"] == "identity" })
    }

    func testAGzipTargetIsRefusedAndNothingOfItKept() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        let patch = try XCTUnwrap(fixture.writer.patchTarget(fixture.first, v2))
        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        try fixture.serve(on: server)
        let path = fixture.writer.blobURL(of: patch).path.dropFirst(fixture.writer.directory.path.count + 1)
        // The raw bytes even fit under the signed length: they are still not the file.
        server.script(String(path), .encoded(try Self.gzipBomb().prefix(Int(patch.length)), encoding: "gzip"))

        let error = try await fixture.refused(try fixture.updater(url: server.url("/")))
        XCTAssertEqual(error?.subject, patch.path)
        XCTAssertEqual(error?.check, .network)
        XCTAssertTrue(error?.reason.contains("Content-Encoding: gzip") ?? false, "\(String(describing: error))")
        XCTAssertEqual(fixture.staged, [], "nothing of it kept")
    }
}
