import FeedClient
import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// The HTTP transport against a loopback server: bytes as served, never more than the cap, typed errors
/// naming the URL; and the whole client workflow over it. The tests are synchronous (the fetcher is awaited
/// through `synchronously`): the server is a child process started from the test's own thread, whose
/// signal mask it inherits, so the teardown's SIGTERM reaches it.
final class HTTPFetcherTests: XCTestCase {
    private func server() throws -> (LoopbackServer, TemporaryDirectory) {
        let directory = try TemporaryDirectory("served", removedAfter: self)
        try directory.write("small.json", "{\"a\": 1}")
        try directory.write("large.bin", Data(repeating: 0x42, count: 100_000))
        return (try LoopbackServer(serving: directory.url, test: self), directory)
    }

    func testFetchesTheServedBytes() throws {
        let (server, _) = try server()
        XCTAssertEqual(
            try synchronously { try await HTTPFetcher().fetch(server.url("small.json"), maximumLength: 8) },
            Data("{\"a\": 1}".utf8))
    }

    func testDeclaredLengthOverTheCapIsRefused() throws {
        let (server, _) = try server()
        XCTAssertThrowsError(
            try synchronously { try await HTTPFetcher().fetch(server.url("large.bin"), maximumLength: 1_000) }
        ) { error in
            XCTAssertEqual(error as? FetchError, .tooLarge(url: server.url("large.bin").absoluteString, limit: 1_000))
        }
    }

    func testEndlessBodyIsCutAtTheCap() throws {
        let (server, _) = try server()
        XCTAssertThrowsError(
            try synchronously { try await HTTPFetcher().fetch(server.url("endless"), maximumLength: 200_000) }
        ) { error in
            XCTAssertEqual(error as? FetchError, .tooLarge(url: server.url("endless").absoluteString, limit: 200_000))
        }
    }

    func testStatusesAreTypedErrors() throws {
        let (server, _) = try server()
        XCTAssertThrowsError(
            try synchronously { try await HTTPFetcher().fetch(server.url("missing.json"), maximumLength: 100) }
        ) { error in
            XCTAssertEqual(error as? FetchError, .notFound(url: server.url("missing.json").absoluteString))
        }
        XCTAssertThrowsError(
            try synchronously { try await HTTPFetcher().fetch(server.url("status/403"), maximumLength: 100) }
        ) { error in
            XCTAssertEqual(error as? FetchError, .notFound(url: server.url("status/403").absoluteString))
        }
        XCTAssertThrowsError(
            try synchronously { try await HTTPFetcher().fetch(server.url("status/503"), maximumLength: 100) }
        ) { error in
            XCTAssertEqual(error as? HTTPFetchError, .status(url: server.url("status/503").absoluteString, code: 503))
        }
    }

    func testRefusedConnectionNamesTheURL() throws {
        // Port 1 of the loopback interface: nothing listens there.
        let unused = URL(string: "http://127.0.0.1:1/small.json")!
        XCTAssertThrowsError(try synchronously { try await HTTPFetcher().fetch(unused, maximumLength: 100) }) { error in
            guard case .transport(let failed, _) = error as? HTTPFetchError else { return XCTFail("\(error)") }
            XCTAssertEqual(failed, unused.absoluteString)
        }
    }

    func testUpdaterRefreshesAndDownloadsOverHTTP() throws {
        let repository = try RepositoryFixture()
        let server = try LoopbackServer(serving: repository.directory.url, test: self)
        let client = try TemporaryDirectory("http-client", removedAfter: self)
        let updater = try Updater(
            metadataDirectory: client.url, metadataBaseURL: server.url("metadata"),
            targetBaseURL: server.url("targets"), fetcher: HTTPFetcher(), bootstrapRoot: repository.initialRoot
        )
        let target = try XCTUnwrap(try synchronously { try await updater.targetInfo(for: "file.txt") })
        let file = try synchronously { try await updater.download(target, to: client.url) }
        XCTAssertEqual(try Data(contentsOf: file), Data("the target's content\n".utf8))
    }
}
