import Foundation
import HTTPTransport
import ShipyardTestSupport
import ShipyardVersion
import XCTest

/// Every request says which release of Shipyard asks (`User-Agent: Shipyard/VERSION`, the version
/// `dbgen --version` prints), so a feed's host can tell clients apart in its logs; a caller's own
/// `User-Agent` replaces it.
final class UserAgentTests: XCTestCase {
    private var server: FaultInjectingHTTPServer!

    override func setUpWithError() throws {
        server = try FaultInjectingHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    func testEveryRequestCarriesTheVersion() async throws {
        server.script("doc.json", .file(Data("{}".utf8), etag: "\"e\""))
        try await HTTPClient().send(HTTPRequest(url: server.url("doc.json"), maximumBodyLength: 100), to: Collector())
        XCTAssertEqual(server.requests.first?.headers["user-agent"], "Shipyard/\(ShipyardVersion.current)")
        XCTAssertEqual(HTTPRequest.userAgent, "Shipyard/\(ShipyardVersion.current)")
    }

    func testTheCallersOwnUserAgentReplacesIt() async throws {
        server.script("doc.json", .file(Data("{}".utf8), etag: "\"e\""))
        let request = HTTPRequest(
            url: server.url("doc.json"), headerFields: [HTTPField("User-Agent", "FoodApp/3.1")],
            maximumBodyLength: 100)
        try await HTTPClient().send(request, to: Collector())
        XCTAssertEqual(server.requests.first?.headers["user-agent"], "FoodApp/3.1")
    }
}
