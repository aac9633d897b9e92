import Foundation
import ShipyardTestSupport
import TUF
import XCTest

/// The `tuf-client` executable speaks the conformance suite's CLI: init, refresh, download; exit 0 or 1
/// with an error naming what failed.
final class TUFClientCommandTests: XCTestCase {
    func testInitRefreshAndDownload() throws {
        let repository = try RepositoryFixture()
        let server = try LoopbackServer(serving: repository.directory.url, test: self)
        let client = try TemporaryDirectory("tuf-client-cli", removedAfter: self)
        let root = try client.write("initial_root.json", repository.initialRoot)
        try FileManager.default.createDirectory(at: client.url("metadata"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: client.url("targets"), withIntermediateDirectories: true)
        let metadata = ["--metadata-dir", client.url("metadata").path]
        let remote = ["--metadata-url", server.url("metadata").absoluteString]
        let download =
            remote + [
                "--target-base-url", server.url("targets/").absoluteString,
                "--target-dir", client.url("targets").path,
            ]

        var result = try BuiltProducts.run("tuf-client", metadata + ["init", root.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        result = try BuiltProducts.run("tuf-client", metadata + remote + ["refresh"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: client.url("metadata").path).sorted(),
            ["root.json", "snapshot.json", "targets.json", "timestamp.json"])

        result = try BuiltProducts.run("tuf-client", metadata + download + ["--target-name", "file.txt", "download"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(try Data(contentsOf: client.url("targets/file.txt")), Data("the target's content\n".utf8))

        result = try BuiltProducts.run(
            "tuf-client", metadata + download + ["--target-name", "missing.txt", "download"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderrText, "tuf-client: error: missing.txt: not found: no trusted targets metadata lists it\n"
        )

        try repository.publishTimestamp(signedBy: [Ed25519SigningKey()])
        result = try BuiltProducts.run("tuf-client", metadata + remote + ["refresh"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderrText.hasPrefix("tuf-client: error: timestamp.json: signatures: 0 valid of the 1 required"),
            result.stderrText
        )
    }
}
