import Foundation
import LayeredDatabase
import ShipyardTestSupport
import SyncProtocol
import XCTest
@testable import SyncClient

/// The sync over real HTTP: HTTPTransport (libcurl here, URLSession on Apple platforms) against python3's
/// http.server, and against the tests' fault-injecting server for what a client must survive.
final class HTTPSyncTransportTests: XCTestCase {
    func testAWholeSyncOverHTTP() async throws {
        let endpoint = try PythonSyncEndpoint()
        let fixture = try SyncFixture(self)
        try fixture.sql("INSERT INTO note VALUES ('n1', 'hello')")
        try endpoint.answer(
            SyncAnswer(
                clock: 1_800_000_000_000, batch: 1, status: .applied,
                tables: [SyncTableColumns(name: "note", columns: ["body"])],
                rows: [Pull.row(0, "n2", exists: true, [(1, .text("from the server"))])], cursor: 7
            ).encoded())
        let sync = UserDatabaseSync(databasePath: fixture.path, serverURL: endpoint.url, token: { "the-token" })
        let report = try await sync.sync()
        XCTAssertEqual(report.requests, 1)
        XCTAssertEqual(report.sent, 2)
        XCTAssertEqual(report.received, 1)
        XCTAssertEqual(try fixture.lines("SELECT * FROM note ORDER BY id"), ["n1|hello", "n2|from the server"])

        let head = try endpoint.head(0)
        XCTAssertEqual(head.method, "POST")
        XCTAssertEqual(head.path, "/v1/sync")
        XCTAssertEqual(head.headers["content-type"], "application/x-shipyard-sync")
        XCTAssertEqual(head.headers["accept-encoding"], "identity")
        XCTAssertEqual(head.headers["authorization"], "Bearer the-token")
        let body = try endpoint.body(0)
        XCTAssertEqual(head.headers["content-length"], String(body.count))
        let request = try SyncRequest(decoding: body)
        XCTAssertEqual(request.batch?.summary, ["note 'n1': row=exists body='hello'"])
        XCTAssertEqual(report.bytesSent, body.count)
    }

    func testARefusalOverHTTPIsNamed() async throws {
        let endpoint = try PythonSyncEndpoint()
        try endpoint.refuse(0, status: 401)
        let fixture = try SyncFixture(self)
        let sync = UserDatabaseSync(databasePath: fixture.path, serverURL: endpoint.url, token: { "t" })
        do {
            _ = try await sync.sync()
            XCTFail("no error")
        } catch let error as SyncClientError {
            XCTAssertEqual(error, .refused(status: 401, reason: "refused by the test"))
        }
    }

    private func send(
        to server: FaultInjectingHTTPServer, maximumAnswerBytes: Int = 1 << 20, idleTimeout: TimeInterval = 10
    ) async throws -> SyncHTTPAnswer {
        try await HTTPSyncTransport().send(
            SyncHTTPRequest(
                url: server.url("v1/sync"), headers: [("Content-Type", "application/x-shipyard-sync")],
                body: [1, 2, 3], idleTimeout: idleTimeout, deadline: 30, maximumAnswerBytes: maximumAnswerBytes))
    }

    func testAnAnswerOverTheCapIsRefusedWhetherDeclaredOrNot() async throws {
        let server = try FaultInjectingHTTPServer()
        for declared in [Int64(8 << 20), nil] {
            server.script("v1/sync", .endless(count: 8 << 20, declaredLength: declared))
            do {
                _ = try await send(to: server)
                XCTFail("accepted an 8 MiB answer")
            } catch SyncClientError.transport(let reason) {
                XCTAssertTrue(reason.contains("over 1048576 bytes"), reason)
            }
        }
    }

    func testAResetAndASilentServerAreTransportErrors() async throws {
        let server = try FaultInjectingHTTPServer()
        server.script("v1/sync", .reset(Data(count: 1000), etag: "\"e\"", after: 10))
        do {
            _ = try await send(to: server)
            XCTFail("no error")
        } catch SyncClientError.transport(let reason) {
            XCTAssertTrue(reason.contains("127.0.0.1"), reason)
        }
        server.script("v1/sync", .trickle(Data(count: 100), etag: "\"e\"", bytesPerChunk: 1, interval: 3))
        let started = Date()
        do {
            _ = try await send(to: server, idleTimeout: 1)
            XCTFail("no error")
        } catch SyncClientError.transport(let reason) {
            let took = Date().timeIntervalSince(started)
            XCTAssertLessThan(took, 10, "the idle timeout ended it: \(reason)")
            XCTAssertGreaterThan(took, 0.9, "ended by the timeout, not at once: \(reason)")
        }
    }

    func testCancellingARequestUnderWayEndsItAtOnce() async throws {
        let server = try FaultInjectingHTTPServer()
        server.script("v1/sync", .trickle(Data(count: 100), etag: "\"e\"", bytesPerChunk: 1, interval: 1))
        let task = Task { try await self.send(to: server) }
        try await Task.sleep(nanoseconds: 300_000_000)
        let started = Date()
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("no error")
        } catch let error as SyncClientError {
            XCTAssertEqual(error, .cancelled)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }
}
