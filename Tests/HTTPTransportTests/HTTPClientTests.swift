import Foundation
import HTTPTransport
import ShipyardTestSupport
import XCTest

/// The client against the fault-injecting server: what it sends (`Accept-Encoding: identity`
/// always, the caller's fields), what it hands on (the answer's head after redirects, its body
/// as sent), and the errors of a handler and of a refused connection.
final class HTTPClientTests: XCTestCase {
    private var server: FaultInjectingHTTPServer!

    override func setUpWithError() throws {
        server = try FaultInjectingHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    func testTheBodyArrivesAsServedWithTheHead() async throws {
        let data = Data((0..<100_000).map { UInt8($0 % 251) })
        server.script("file.bin", .file(data, etag: "\"v1\""))
        let collector = Collector()
        let head = try await HTTPClient().send(
            HTTPRequest(url: server.url("file.bin"), maximumBodyLength: 100_000), to: collector)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.value("etag"), "\"v1\"")
        XCTAssertEqual(head.contentLength, 100_000)
        XCTAssertEqual(collector.body, data)
    }

    func testIdentityIsAlwaysTheEncodingAskedFor() async throws {
        server.script("doc.json", .file(Data("{}".utf8), etag: "\"e\""))
        let request = HTTPRequest(
            url: server.url("doc.json"),
            headerFields: [HTTPField("Accept-Encoding", "gzip, br"), HTTPField("X-Client", "tests")],
            maximumBodyLength: 100)
        try await HTTPClient().send(request, to: Collector())
        let sent = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(sent.headers["accept-encoding"], "identity")
        XCTAssertEqual(sent.headers["x-client"], "tests")
    }

    func testRangeAndIfRangeAreSentAndA206IsHandedOn() async throws {
        let data = Data((0..<1_000).map { UInt8($0 % 256) })
        server.script("file.bin", .file(data, etag: "\"v1\""))
        let collector = Collector()
        let request = HTTPRequest(
            url: server.url("file.bin"),
            headerFields: [HTTPField("Range", "bytes=600-"), HTTPField("If-Range", "\"v1\"")],
            maximumBodyLength: 1_000)
        let head = try await HTTPClient().send(request, to: collector)
        XCTAssertEqual(head.status, 206)
        XCTAssertEqual(head.value("Content-Range"), "bytes 600-999/1000")
        XCTAssertEqual(collector.body, data.suffix(400))
        XCTAssertEqual(server.requests.first?.headers["range"], "bytes=600-")
    }

    func testASkippedBodyEndsTheExchangeAtItsHead() async throws {
        server.script("big.bin", .endless(count: 1 << 30, declaredLength: 1 << 30))
        let collector = Collector { _ in .skip }
        let head = try await HTTPClient().send(
            HTTPRequest(url: server.url("big.bin"), maximumBodyLength: 10), to: collector)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(collector.body, Data())
        let served = server.requests.first
        XCTAssertEqual(served?.path, "/big.bin")
    }

    func testRedirectsAreFollowedAndOnlyTheAnswerIsShown() async throws {
        server.script("latest", .redirect(302, to: "/moved"))
        server.script("moved", .redirect(307, to: "/file.bin"))
        server.script("file.bin", .file(Data("final".utf8), etag: "\"f\""))
        let collector = Collector()
        let head = try await HTTPClient().send(
            HTTPRequest(url: server.url("latest"), maximumBodyLength: 100), to: collector)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(collector.seenHeads.map(\.status), [200])
        XCTAssertEqual(collector.body, Data("final".utf8))
        XCTAssertEqual(server.requests.map(\.path), ["/latest", "/moved", "/file.bin"])
    }

    func testAHandlersErrorIsThrownAsItWasThrown() async throws {
        struct Refused: Error, Equatable {}
        server.script("file.bin", .file(Data(count: 10_000), etag: "\"v1\""))
        let error = await failure(
            HTTPRequest(url: server.url("file.bin"), maximumBodyLength: 10_000), to: Collector { _ in throw Refused() })
        XCTAssertEqual(error as? Refused, Refused())
    }

    func testARefusedConnectionIsAConnectionErrorNamingTheURL() async throws {
        let unused = URL(string: "http://127.0.0.1:1/file.bin")!
        let error = await failure(HTTPRequest(url: unused, maximumBodyLength: 10), to: Collector())
        guard case .connection(let url, _, let reason) = error as? HTTPTransferError else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(url, unused)
        XCTAssertFalse(reason.isEmpty)
    }

    func testACancelledTaskEndsASilentExchangeAtOnce() async throws {
        server.script("silent", .silent(sendsHead: true))
        let url = server.url("silent")
        let exchange = Task {
            try await HTTPClient().send(
                HTTPRequest(url: url, maximumBodyLength: 1_000_000, stallTimeout: 60), to: Collector())
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let started = Date()
        exchange.cancel()
        do {
            _ = try await exchange.value
            XCTFail("the cancelled exchange succeeded")
        } catch {
            XCTAssertEqual(error as? HTTPTransferError, .cancelled(url: url))
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the wait ended with the cancellation")
    }
}
