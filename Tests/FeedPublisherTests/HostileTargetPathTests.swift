import FeedClient
@testable import FeedPublisher
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF
import XCTest

/// A feed whose targets document (signed with the feed's own key: whoever holds it, or a CI
/// job that pulled what they pushed) lists a release whose path or hash would name a file
/// outside FEED: `prune` would delete it, `publish` inflate it as a base, `feed verify` read it.
/// Each refuses naming the document and the field; nothing in FEED or beside it changes.
final class HostileTargetPathTests: XCTestCase {
    private static let zeros = String(repeating: "0", count: 64)

    /// (path, sha256, the file beside FEED that the old reading named).
    private static let cases: [(path: String, sha256: String, victim: String)] = [
        ("db", "../../sentinel", "sentinel.db"),
        ("../../sentinel", zeros, zeros + ".sentinel"),
        ("releases/../../../sentinel", zeros, zeros + ".sentinel"),
        ("/db", zeros, zeros + ".db"),
        ("releases/" + String(repeating: "x", count: 300), zeros, "unused"),
    ]

    private func forge(_ fixture: FeedFixture, path: String, sha256: String) throws {
        let facts = ReleaseFacts(
            kind: .database, uncompressedLength: 10, uncompressedSHA256: Self.zeros, base: nil,
            result: DatabaseVersion(userVersion: 0, sha256: Self.zeros))
        var signed = Targets.signed(version: 1, expires: Date().addingTimeInterval(3_600), targets: [])
        let entry = JSONObject([
            ("length", .integer(10)), ("hashes", .object(JSONObject([("sha256", .string(sha256))]))),
            ("custom", facts.custom),
        ])
        signed["targets"] = .object(JSONObject([(path, .object(entry))]))
        let parsed = try Targets(
            try Metadata(data: try Metadata.sign(signed, with: [fixture.key]), document: "targets.json"))
        let forged = try XCTUnwrap(parsed.targets[path])
        let state = try FeedState.load(fixture.feed.layout)
        try fixture.feed.writer.publish(targets: state.targetFiles + [forged], over: state, signedBy: [fixture.key])
    }

    /// Every file in and beside FEED.
    private func everything(_ fixture: FeedFixture) -> [String: Data] {
        DirectoryTree.files(under: fixture.directory.path)
    }

    private func assertRefused(
        _ fixture: FeedFixture, document: String, field: String, file: StaticString = #filePath, line: UInt = #line,
        _ command: () throws -> Void
    ) {
        let before = everything(fixture)
        XCTAssertThrowsError(try command(), file: file, line: line) { error in
            guard let error = error as? FeedPublisherError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.subject, document, error.line, file: file, line: line)
            XCTAssertTrue(error.reason.hasPrefix(field), error.line, file: file, line: line)
        }
        XCTAssertEqual(everything(fixture), before, "nothing in or beside FEED changed", file: file, line: line)
    }

    func testPruneDeletesNothingOutsideTheFeed() throws {
        for (path, sha256, victim) in Self.cases {
            let fixture = try FeedFixture(self)
            try fixture.initialize()
            try fixture.publish(try fixture.release("v1", version: 1))
            try fixture.publish(try fixture.release("v2", version: 2, changedEvery: 7))
            try Data("beside the feed\n".utf8).write(to: fixture.directory.url(victim))
            try forge(fixture, path: path, sha256: sha256)
            let targetsDocument = try FeedState.load(fixture.feed.layout).targetsPath
            let field = "signed.targets[\(path.debugDescription)]"
            assertRefused(fixture, document: targetsDocument, field: field) {
                try fixture.feed.prune(key: fixture.key, keySource: "test.key", keep: 1)
            }
            var options = PublishOptions()
            options.patchesFrom = 5
            let v3 = try fixture.release("v3", version: 3, changedEvery: 5)
            assertRefused(fixture, document: targetsDocument, field: field) {
                try fixture.publish(v3, options: options)
            }
            assertRefused(fixture, document: "targets.json", field: field) { _ = try fixture.verify() }
            XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.directory.url(victim).path), victim)
        }
    }
}
