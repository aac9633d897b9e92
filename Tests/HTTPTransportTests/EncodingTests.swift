import Foundation
import HTTPTransport
import ShipyardTestSupport
import XCTest

/// A compressed answer is never decoded: `identity` is asked for, and an answer compressed all
/// the same is refused from its head, so a small gzip body can never become a large one inside
/// the client. The bomb is made by python3's zlib, not by the code under test.
final class EncodingTests: XCTestCase {
    private var server: FaultInjectingHTTPServer!

    override func setUpWithError() throws {
        server = try FaultInjectingHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// 100 MB of zeros, gzip-compressed (about 100 KB).
    static func gzipBomb() throws -> Data {
        let script = """
            import gzip, sys
            sys.stdout.buffer.write(gzip.compress(bytes(100_000_000), 9))
            """
        return try Oracle.python3.run(["-c", script]).stdout
    }

    func testAGzipAnswerIsRefusedNeverDecoded() async throws {
        let bomb = try Self.gzipBomb()
        XCTAssertLessThan(bomb.count, 200_000)
        for encoding in ["gzip", "deflate", "br", "x-gzip"] {
            server.script("doc.json", .encoded(bomb, encoding: encoding))
            let url = server.url("doc.json")
            let collector = Collector()
            // Even a cap that the raw bytes fit under: they are never handed on as a document.
            let error = await failure(HTTPRequest(url: url, maximumBodyLength: 1 << 30), to: collector)
            XCTAssertEqual(error as? HTTPTransferError, .compressed(url: url, encoding: encoding))
            XCTAssertEqual(collector.body.count, 0, encoding)
            XCTAssertEqual(server.requests.last?.headers["accept-encoding"], "identity")
        }
    }

    func testIdentityIsNoCompression() async throws {
        server.script("doc.json", .encoded(Data("{}".utf8), encoding: "identity"))
        let collector = Collector()
        let head = try await HTTPClient().send(
            HTTPRequest(url: server.url("doc.json"), maximumBodyLength: 10), to: collector)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(collector.body, Data("{}".utf8))
    }

    func testTheBodyOfAnErrorStatusNeedNotBeRead() async throws {
        // A handler that skips a 404's body never sees its encoding refused.
        server.script("gone", .encoded(Data("x".utf8), encoding: "gzip"))
        let collector = Collector { _ in .skip }
        let head = try await HTTPClient().send(
            HTTPRequest(url: server.url("gone"), maximumBodyLength: 10), to: collector)
        XCTAssertEqual(head.status, 200)
    }
}
