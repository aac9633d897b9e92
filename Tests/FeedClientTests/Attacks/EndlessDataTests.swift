import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// Endless answers (streamed by the fault-injecting server, never in memory) to a document of a
/// few hundred bytes and to a target, in every framing: a declared length far past the cap
/// (refused from the head), no length, and chunks (cut at the cap). Each is refused with nothing
/// installed, and the client stops reading there: the server is left with at most what the
/// socket buffers hold, never the gigabytes it offered.
final class EndlessDataTests: XCTestCase {
    static let tenGigabytes: Int64 = 10 << 30
    static let teraByte: Int64 = 1_000_000_000_000
    /// Loopback's socket buffers (tcp_wmem and tcp_rmem maxima) and then some.
    static let socketSlack = 32 << 20

    func testTenGigabytesForTheTimestampAreCutAtItsCap() async throws {
        for framing in ["no length", "chunked"] {
            let fixture = try FeedFixture(removedAfter: self)
            let server = try FaultInjectingHTTPServer()
            defer { server.stop() }
            try fixture.serve(on: server)
            server.script(
                "timestamp.json",
                framing == "chunked"
                    ? .chunked(count: Self.tenGigabytes) : .endless(count: Self.tenGigabytes, declaredLength: nil))

            let error = try await fixture.refused(try fixture.updater(url: server.url("/")))
            XCTAssertEqual(error?.subject, "timestamp.json", framing)
            XCTAssertEqual(error?.check, .tooLarge, framing)
            XCTAssertLessThan(server.bytesSent, Self.socketSlack, "\(framing): read on past the cap")
        }
    }

    func testADeclaredTeraByteIsRefusedBeforeTheBody() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        try fixture.serve(on: server)
        server.script("timestamp.json", .endless(count: Self.tenGigabytes, declaredLength: Self.teraByte))

        let error = try await fixture.refused(try fixture.updater(url: server.url("/")))
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .tooLarge)
        XCTAssertLessThan(server.bytesSent, Self.socketSlack, "the body was read")
    }

    func testTenGigabytesForATargetAreCutAtItsSignedLength() async throws {
        for framing in ["no length", "chunked", "a declared terabyte"] {
            let fixture = try FeedFixture(removedAfter: self)
            let v2 = try fixture.writer.publish(try fixture.release(2))
            let patch = try XCTUnwrap(fixture.writer.patchTarget(fixture.first, v2))
            let server = try FaultInjectingHTTPServer()
            defer { server.stop() }
            try fixture.serve(on: server)
            let path = fixture.writer.blobURL(of: patch).path.dropFirst(fixture.writer.directory.path.count + 1)
            switch framing {
            case "chunked": server.script(String(path), .chunked(count: Self.tenGigabytes))
            case "no length": server.script(String(path), .endless(count: Self.tenGigabytes, declaredLength: nil))
            default: server.script(String(path), .endless(count: Self.tenGigabytes, declaredLength: Self.teraByte))
            }

            let error = try await fixture.refused(try fixture.updater(url: server.url("/")))
            XCTAssertEqual(error?.subject, patch.path, framing)
            XCTAssertEqual(error?.check, .tooLarge, framing)
            XCTAssertEqual(fixture.staged, [], "\(framing): nothing past the signed length kept")
            XCTAssertLessThan(server.bytesSent, Self.socketSlack, "\(framing): read on past the cap")
        }
    }
}
