import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// A 10 GB answer (streamed by the fault-injecting server, never in memory) to a document of a
/// few hundred bytes, and to a target: cut at the cap, nothing installed.
final class EndlessDataTests: XCTestCase {
    static let tenGigabytes: Int64 = 10 << 30

    func testTenGigabytesForTheTimestampAreCutAtItsCap() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        try fixture.serve(on: server)
        server.script("timestamp.json", .endless(count: Self.tenGigabytes, declaredLength: nil))

        let error = try await fixture.refused(try fixture.updater(url: server.url("/")))
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .tooLarge)
        // FoundationNetworking drains the connection for a moment after the transfer is
        // cancelled; what counts is that the answer was refused at the cap, not read whole.
        XCTAssertLessThan(Int64(server.bytesSent), Self.tenGigabytes / 4)
    }

    func testADeclaredTenGigabytesAreRefusedBeforeTheBody() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        try fixture.serve(on: server)
        server.script("timestamp.json", .endless(count: Self.tenGigabytes, declaredLength: Self.tenGigabytes))

        let error = try await fixture.refused(try fixture.updater(url: server.url("/")))
        XCTAssertEqual(error?.subject, "timestamp.json")
        XCTAssertEqual(error?.check, .tooLarge)
    }

    func testTenGigabytesForATargetAreCutAtItsSignedLength() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2 = try fixture.writer.publish(try fixture.release(2))
        let patch = try XCTUnwrap(fixture.writer.patchTarget(fixture.first, v2))
        let server = try FaultInjectingHTTPServer()
        defer { server.stop() }
        try fixture.serve(on: server)
        let path = fixture.writer.blobURL(of: patch).path.dropFirst(fixture.writer.directory.path.count + 1)
        server.script(String(path), .endless(count: Self.tenGigabytes, declaredLength: nil))

        let error = try await fixture.refused(try fixture.updater(url: server.url("/")))
        XCTAssertEqual(error?.subject, patch.path)
        XCTAssertEqual(error?.check, .tooLarge)
        // FoundationNetworking drains the connection for a moment after the transfer is
        // cancelled (hundreds of MB on loopback); what counts is that none of it is kept.
        XCTAssertLessThan(Int64(server.bytesSent), Self.tenGigabytes)
        XCTAssertEqual(fixture.staged, [], "nothing past the signed length kept")
    }
}
