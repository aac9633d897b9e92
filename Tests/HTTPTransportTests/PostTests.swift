import Foundation
import HTTPTransport
import ShipyardTestSupport
import XCTest

/// A POST (the sync client's request) under the same rules as a GET: its body arrives as given,
/// with its length and type, without `Expect: 100-continue`; its answer is capped, never
/// decoded, and bounded by the deadline and the stall timeout, where a slow upload is progress
/// and an upload the server never takes is a stall. A POST follows no redirect.
final class PostTests: XCTestCase {
    private var server: FaultInjectingHTTPServer!

    override func setUpWithError() throws {
        server = try FaultInjectingHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// `count` seeded random bytes, 8 per step (a debug build makes 16 MiB in well under a second).
    private static func bytes(_ count: Int) -> Data {
        var generator = SeededGenerator(seed: UInt64(count))
        var data = Data(capacity: count + 8)
        while data.count < count {
            withUnsafeBytes(of: generator.next()) { data.append(contentsOf: $0) }
        }
        return data.prefix(count)
    }

    func testTheBodyArrivesWithItsLengthAndTypeAndTheAnswerComesBack() async throws {
        let body = Self.bytes(300_000)
        server.script("v1/sync", .echo)
        let collector = Collector()
        let request = HTTPRequest(
            post: server.url("v1/sync"), body: body,
            headerFields: [
                HTTPField("Content-Type", "application/x-shipyard-sync"), HTTPField("Authorization", "Bearer t"),
                HTTPField("Accept-Encoding", "gzip"),
            ], maximumBodyLength: 300_000)
        let head = try await HTTPClient().send(request, to: collector)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(collector.body, body)
        let sent = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(sent.method, "POST")
        XCTAssertEqual(sent.body, body)
        XCTAssertEqual(sent.headers["content-length"], "300000")
        XCTAssertEqual(sent.headers["content-type"], "application/x-shipyard-sync")
        XCTAssertEqual(sent.headers["authorization"], "Bearer t")
        XCTAssertEqual(sent.headers["accept-encoding"], "identity")
        XCTAssertNil(sent.headers["expect"], "the body goes at once, without waiting for 100 Continue")
    }

    func testAPostWithoutATypeIsSentAsOctetStreamAndAnEmptyBodyAsLengthZero() async throws {
        server.script("p", .echo)
        try await HTTPClient().send(
            HTTPRequest(post: server.url("p"), body: Data("x".utf8), maximumBodyLength: 10), to: Collector())
        try await HTTPClient().send(
            HTTPRequest(post: server.url("p"), body: Data(), maximumBodyLength: 10), to: Collector())
        let sent = server.requests
        XCTAssertEqual(sent.map(\.headers["content-type"]), ["application/octet-stream", "application/octet-stream"])
        XCTAssertEqual(sent.map(\.headers["content-length"]), ["1", "0"])
        XCTAssertEqual(sent.map(\.body), [Data("x".utf8), Data()])
    }

    func testTheAnswersCapHoldsWhetherDeclaredOrNot() async throws {
        for declared in [Int64(4 << 20), nil] {
            server.script("p", .endless(count: 4 << 20, declaredLength: declared))
            let url = server.url("p")
            let collector = Collector()
            let error = await failure(
                HTTPRequest(post: url, body: Self.bytes(1_000), maximumBodyLength: 65_536), to: collector)
            XCTAssertEqual(error as? HTTPTransferError, .tooLarge(url: url, limit: 65_536))
            XCTAssertLessThanOrEqual(collector.body.count, 65_536)
        }
    }

    func testACompressedAnswerIsRefusedNotDecoded() async throws {
        server.script("p", .encoded(Data([0x1f, 0x8b, 8, 0]), encoding: "gzip"))
        let url = server.url("p")
        let error = await failure(HTTPRequest(post: url, body: Data("x".utf8), maximumBodyLength: 100), to: Collector())
        XCTAssertEqual(error as? HTTPTransferError, .compressed(url: url, encoding: "gzip"))
    }

    func testARedirectIsTheAnswerNotFollowed() async throws {
        for status in [302, 307] {
            server.script("p", .redirect(status, to: "elsewhere"))
            server.script("elsewhere", .echo)
            let head = try await HTTPClient().send(
                HTTPRequest(post: server.url("p"), body: Data("x".utf8), maximumBodyLength: 100), to: Collector())
            XCTAssertEqual(head.status, status)
            XCTAssertEqual(server.requestCount("elsewhere"), 0, "the body went to the redirect's target")
        }
    }

    func testASlowUploadIsProgressNotAStall() async throws {
        // 2 MiB read 32 KiB at a time, 50 ms apart: about 3 s with no answer byte, yet the upload
        // never pauses for the 1 s stall timeout.
        let body = Self.bytes(2 << 20)
        server.script("p", .readsBodySlowly(bytesPerRead: 32_768, interval: 0.05))
        let collector = Collector()
        let started = Date()
        let head = try await HTTPClient().send(
            HTTPRequest(post: server.url("p"), body: body, maximumBodyLength: 4 << 20, deadline: 60, stallTimeout: 1),
            to: collector)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(collector.body, body)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1.5, "the upload was not slow: the test proves nothing")
    }

    func testAnUploadTheServerNeverTakesStalls() async throws {
        server.script("p", .ignoresBody)
        let url = server.url("p")
        let body = Self.bytes(16 << 20)
        let started = Date()
        let error = await failure(
            HTTPRequest(post: url, body: body, maximumBodyLength: 100, deadline: 60, stallTimeout: 1),
            to: Collector())
        XCTAssertEqual(error as? HTTPTransferError, .stalled(url: url, seconds: 1))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func testTheDeadlineCoversTheUpload() async throws {
        server.script("p", .readsBodySlowly(bytesPerRead: 16_384, interval: 0.05))
        let url = server.url("p")
        let body = Self.bytes(8 << 20)
        let started = Date()
        let error = await failure(
            HTTPRequest(post: url, body: body, maximumBodyLength: 100, deadline: 1.5, stallTimeout: 1),
            to: Collector())
        XCTAssertEqual(error as? HTTPTransferError, .deadlineExceeded(url: url, seconds: 1.5))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func testAPostsDefaultDeadlineCountsBothBodies() {
        let url = URL(fileURLWithPath: "/")
        XCTAssertEqual(HTTPRequest(post: url, body: Data(count: 16_384), maximumBodyLength: 16_384).deadline, 62)
        XCTAssertEqual(HTTPRequest(post: url, body: Data(count: 1), maximumBodyLength: .max).method, .post)
        XCTAssertEqual(HTTPRequest(url: url, maximumBodyLength: 1).method, .get)
    }
}
