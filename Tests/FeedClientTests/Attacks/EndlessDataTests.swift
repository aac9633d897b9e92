import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// A 10 GB answer (streamed by the fault-injecting server, never in memory) to a document of a
/// few hundred bytes, and to a target: refused at the cap, nothing installed.
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
        // Refused at the cap (nothing past it parsed or kept). How many bytes the server got to
        // send is FoundationNetworking's: on a loaded machine its delegate callbacks can come
        // late while the connection is read on, up to the whole 10 GB (a known limit on Linux,
        // not asserted here).
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
        // As above: what FoundationNetworking reads on after the cut is not asserted; none of it
        // is kept.
        XCTAssertEqual(fixture.staged, [], "nothing past the signed length kept")
    }
}
