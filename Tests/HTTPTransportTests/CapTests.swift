import Foundation
import HTTPTransport
import ShipyardTestSupport
import XCTest

/// Every byte the client accepts is counted against the cap fixed before the request, whatever
/// the framing: a declared length over it is refused from the head (the server gets to send
/// little more than the head), and a body without a length or in chunks is cut at it (the server
/// is left writing into a closed connection, never read on). The bytes handed on never pass it.
final class CapTests: XCTestCase {
    private var server: FaultInjectingHTTPServer!
    static let teraByte: Int64 = 1_000_000_000_000
    /// What the kernel's socket buffers can hold between the server's writes and the client's
    /// reads on loopback (tcp_wmem and tcp_rmem maxima), and then some: what the server may have
    /// sent after the client stopped reading.
    static let socketSlack = 32 << 20

    override func setUpWithError() throws {
        server = try FaultInjectingHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    private func assertRefusedAtTheCap(
        _ path: String, cap: Int64, collector: Collector = Collector(), file: StaticString = #filePath,
        line: UInt = #line
    ) async {
        let url = server.url(path)
        let error = await failure(HTTPRequest(url: url, maximumBodyLength: cap), to: collector)
        XCTAssertEqual(error as? HTTPTransferError, .tooLarge(url: url, limit: cap), file: file, line: line)
        XCTAssertLessThanOrEqual(
            Int64(collector.body.count), cap, "nothing past the cap handed on", file: file, line: line)
    }

    func testADeclaredTeraByteIsRefusedFromTheHead() async throws {
        server.script("huge", .endless(count: 4 << 30, declaredLength: Self.teraByte))
        let collector = Collector()
        await assertRefusedAtTheCap("huge", cap: 16_384, collector: collector)
        XCTAssertEqual(collector.body.count, 0, "refused before any of the body")
        XCTAssertLessThan(server.bytesSent, Self.socketSlack, "the body was not read on")
    }

    func testAnEndlessBodyWithoutALengthIsCutAtTheCap() async throws {
        server.script("endless", .endless(count: 4 << 30, declaredLength: nil))
        await assertRefusedAtTheCap("endless", cap: 200_000)
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertLessThan(server.bytesSent, 200_000 + Self.socketSlack, "the body was not read on past the cap")
    }

    func testAnEndlessChunkedBodyIsCutAtTheCap() async throws {
        server.script("chunked", .chunked(count: 4 << 30))
        await assertRefusedAtTheCap("chunked", cap: 200_000)
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertLessThan(server.bytesSent, 200_000 + Self.socketSlack, "the body was not read on past the cap")
    }

    func testABodyOfExactlyTheCapIsAccepted() async throws {
        server.script("exact", .body(Data(count: 5_000), declaredLength: nil))
        server.script("chunks", .chunked(count: 5_000))
        for path in ["exact", "chunks"] {
            let collector = Collector()
            let head = try await HTTPClient().send(
                HTTPRequest(url: server.url(path), maximumBodyLength: 5_000), to: collector)
            XCTAssertEqual(head.status, 200, path)
            XCTAssertEqual(collector.body.count, 5_000, path)
        }
    }

    #if !canImport(Darwin) // URLSession keeps its own limit on header fields
    func testEndlessHeaderFieldsAreRefused() async throws {
        // A redirect chain is bounded too: each hop's fields count against the same limit.
        server.script("a", .redirect(302, to: "/b"))
        server.script("b", .redirect(302, to: "/a"))
        let url = server.url("a")
        let error = await failure(
            HTTPRequest(url: url, maximumBodyLength: 100, maximumHeaderBytes: 500), to: Collector())
        XCTAssertEqual(error as? HTTPTransferError, .headersTooLarge(url: url, limit: 500))
    }
    #endif
}
