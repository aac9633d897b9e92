import Foundation
import ShipyardTestSupport
import XCTest

#if os(Linux)
/// On Linux, HTTP costs a process nothing until it makes a request: `dbgen` links neither
/// libcurl nor FoundationNetworking (which links libcurl and its TLS library), and loads libcurl
/// with dlopen at the first request. readelf reads the executable's dynamic section; the
/// dynamic loader's own trace (`LD_DEBUG=files`) says what each run loaded.
final class NetworkingLoadTests: XCTestCase {
    func testDbgenNeedsNoHTTPLibraryToStart() throws {
        let result = try ProcessRunner.run("/usr/bin/readelf", ["-d", BuiltProducts.path("dbgen")])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let needed = result.stdoutText.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        XCTAssertFalse(needed.isEmpty, result.stdoutText)
        let networking = needed.filter { $0.contains("libcurl") || $0.contains("FoundationNetworking") }
        XCTAssertEqual(networking, [], "dbgen loads HTTP at start-up")
    }

    func testLibcurlIsLoadedByAFetchAndByNothingElse() throws {
        let check = try BuiltProducts.run("dbgen", ["--help"], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(check.status, 0)
        XCTAssertFalse(check.stderrText.contains("libcurl"), "dbgen --help loaded libcurl")

        let fixture = try FeedFixture(removedAfter: self)
        let root = fixture.temporary.url("root.json")
        try fixture.writer.bundledRoot.write(to: root)
        // Nothing listens on port 1: the fetch fails at its first request, after loading libcurl.
        let fetch = try BuiltProducts.run(
            "dbgen",
            [
                "fetch", "http://127.0.0.1:1/feed/", "--root", root.path, "--bundled", fixture.bundled.path,
                "--updates", fixture.updates.path,
            ], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(fetch.status, 1)
        XCTAssertTrue(
            fetch.stderrText.contains("libcurl.so.4"),
            "the fetch did not load libcurl:\n\(fetch.stderrText.suffix(2_000))")
    }
}
#endif
