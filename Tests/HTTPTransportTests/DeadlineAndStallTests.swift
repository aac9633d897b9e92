import Foundation
import HTTPTransport
import ShipyardTestSupport
import XCTest

/// Every request has a stall timeout (no byte for that long, before the head or after it) and a
/// total deadline (a server that trickles just fast enough never stalls, yet ends there).
final class DeadlineAndStallTests: XCTestCase {
    private var server: FaultInjectingHTTPServer!

    override func setUpWithError() throws {
        server = try FaultInjectingHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    func testASilentServerStallsBeforeAndAfterTheHead() async throws {
        for sendsHead in [false, true] {
            server.script("silent", .silent(sendsHead: sendsHead))
            let url = server.url("silent")
            let started = Date()
            let error = await failure(
                HTTPRequest(url: url, maximumBodyLength: 1_000_000, deadline: 60, stallTimeout: 1), to: Collector())
            let elapsed = Date().timeIntervalSince(started)
            XCTAssertEqual(error as? HTTPTransferError, .stalled(url: url, seconds: 1), "head sent: \(sendsHead)")
            XCTAssertGreaterThanOrEqual(elapsed, 0.9)
            XCTAssertLessThan(elapsed, 10, "head sent: \(sendsHead)")
        }
    }

    func testATrickleThatNeverStallsEndsAtTheDeadline() async throws {
        // 100 bytes every 0.2 s: never a second without a byte, 200 s to send it all.
        server.script(
            "slow", .trickle(Data(count: 100_000), etag: "\"s\"", bytesPerChunk: 100, interval: 0.2))
        let url = server.url("slow")
        let collector = Collector()
        let started = Date()
        let error = await failure(
            HTTPRequest(url: url, maximumBodyLength: 100_000, deadline: 2, stallTimeout: 1), to: collector)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(error as? HTTPTransferError, .deadlineExceeded(url: url, seconds: 2))
        XCTAssertGreaterThanOrEqual(elapsed, 1.9)
        XCTAssertLessThan(elapsed, 15)
        XCTAssertGreaterThan(collector.body.count, 0, "bytes kept coming: no stall")
    }

    func testEveryRequestHasADeadlineByDefault() {
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1/")!, maximumBodyLength: 16_384)
        XCTAssertEqual(request.deadline, 61)
        XCTAssertEqual(HTTPRequest.deadline(forBodyOf: 50 * 16_384), 110)
        XCTAssertEqual(request.stallTimeout, 30)
    }
}
