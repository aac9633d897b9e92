import FeedClient
@testable import FeedPublisher
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF
import XCTest

/// A hosted feed whose targets document, signed with the feed's own key, lists a target whose
/// path or hash would name a file outside the feed: `feed pull` would fetch it from beside the
/// hosted `targets/` and write it beside FEED, `feed verify --against` read the hosted releases
/// by it, `--bundled` choose a chain through it. Each refuses, naming the document and the
/// field, before any such file is read or written; nothing in or beside FEED changes.
final class HostedTargetPathTests: XCTestCase {
    private static let content = Data("a file a key holder signed\n".utf8)
    private static let digest = FileHash.sha256(content).hex

    /// (path, sha256, the field named).
    private static let cases: [(path: String, sha256: String, field: String)] = [
        ("../../sentinel", digest, #"signed.targets["../../sentinel"]: "#),
        ("releases/../../../sentinel", digest, #"signed.targets["releases/../../../sentinel"]: "#),
        ("/sentinel", digest, #"signed.targets["/sentinel"]: "#),
        ("db", "../../sentinel", #"signed.targets["db"].hashes.sha256: "#),
    ]

    /// Adds a target of `content` under `path` with `sha256` (and Shipyard facts when `facts`) to
    /// the feed's next targets, signed with its key; puts the content where a join of the path
    /// under the feed's `targets/` would look. Returns the targets document's name.
    @discardableResult
    private func forge(_ fixture: FeedFixture, path: String, sha256: String, facts: Bool) throws -> String {
        var entry = JSONObject([
            ("length", .integer(Int64(Self.content.count))),
            ("hashes", .object(JSONObject([("sha256", .string(sha256))]))),
        ])
        if facts {
            let zeros = String(repeating: "0", count: 64)
            entry["custom"] =
                ReleaseFacts(
                    kind: .database, uncompressedLength: 10, uncompressedSHA256: zeros, base: nil,
                    result: DatabaseVersion(userVersion: 0, sha256: zeros)
                ).custom
        }
        var signed = Targets.signed(version: 1, expires: Date().addingTimeInterval(3_600), targets: [])
        signed["targets"] = .object(JSONObject([(path, .object(entry))]))
        let parsed = try Targets(
            try Metadata(data: try Metadata.sign(signed, with: [fixture.key]), document: "targets.json"))
        let state = try FeedState.load(fixture.feed.layout)
        try fixture.feed.writer.publish(
            targets: state.targetFiles + [try XCTUnwrap(parsed.targets[path])], over: state, signedBy: [fixture.key])
        // `targets/DIR/SHA256.NAME`, joined as text.
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        try? Self.content.write(
            to: URL(fileURLWithPath: fixture.feedPath + "/targets/" + directory + sha256 + "." + name)
                .standardizedFileURL)
        return "\(state.targets.header.version + 1).targets.json"
    }

    /// A feed of releases 1 and 2.
    private func feed() throws -> FeedFixture {
        let fixture = try FeedFixture(self)
        try fixture.initialize()
        try fixture.publish(try fixture.release("v1", version: 1))
        try fixture.publish(try fixture.release("v2", version: 2, changedEvery: 7))
        return fixture
    }

    private func assertRefused(
        _ fixture: FeedFixture, subject: String, field: String, line: UInt = #line,
        _ command: () async throws -> Void
    ) async {
        let before = DirectoryTree.files(under: fixture.directory.path)
        do {
            try await command()
            XCTFail("not refused", line: line)
        } catch let error as FeedPublisherError {
            XCTAssertEqual(error.subject, subject, error.line, line: line)
            XCTAssertTrue(error.reason.hasPrefix(field), error.line, line: line)
        } catch {
            XCTFail("\(error)", line: line)
        }
        XCTAssertEqual(
            DirectoryTree.files(under: fixture.directory.path), before, "nothing in or beside FEED changed", line: line)
    }

    func testPullWritesNothingOutsideFeed() async throws {
        for (path, sha256, field) in Self.cases {
            let fixture = try feed()
            // Any target is pulled, Shipyard's or not.
            for facts in [false, true] {
                let hosted = URL(fileURLWithPath: fixture.feedPath, isDirectory: true)
                let document = try forge(fixture, path: path, sha256: sha256, facts: facts)
                // FEED two levels down, so that a climbing path would land beside it, not on the source.
                let parent = fixture.directory.url("ci/work")
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
                let into = parent.appendingPathComponent("feed").path
                await assertRefused(fixture, subject: HostedFeed.name(document, at: hosted), field: field) {
                    _ = try await Feed.pull(from: hosted, into: into, root: fixture.rootData, fetcher: FileFetcher())
                }
                XCTAssertFalse(FileManager.default.fileExists(atPath: into), path)
                // The next forged document replaces this one.
                let state = try FeedState.load(fixture.feed.layout)
                try fixture.feed.writer.publish(
                    targets: state.targetFiles.filter { $0.path != path }, over: state, signedBy: [fixture.key])
            }
        }
    }

    func testVerifyAgainstAHostedFeedListingSuchATargetRefusesIt() async throws {
        for (path, sha256, field) in Self.cases {
            let fixture = try feed()
            let document = try forge(fixture, path: path, sha256: sha256, facts: true)
            let hosted = fixture.directory.url("hosted")
            for (name, data) in try fixture.tree() {
                let file = hosted.appendingPathComponent(name)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: file)
            }
            // FEED, the next version, lists it no more: it verifies, and the hosted feed is what is refused.
            let state = try FeedState.load(fixture.feed.layout)
            try fixture.feed.writer.publish(
                targets: state.targetFiles.filter { $0.path != path }, over: state, signedBy: [fixture.key])
            let verifier = FeedVerifier(
                feedURL: URL(fileURLWithPath: fixture.feedPath, isDirectory: true), root: fixture.rootData,
                fetcher: FileFetcher())
            _ = try await verifier.verify()
            await assertRefused(fixture, subject: HostedFeed.name(document, at: hosted), field: field) {
                _ = try await verifier.check(againstHosted: hosted, fetcher: FileFetcher())
            }
        }
    }

    func testVerifyBundledOfAFeedListingSuchATargetReadsNothingOutsideFeed() async throws {
        for (path, sha256, field) in Self.cases {
            let fixture = try feed()
            try forge(fixture, path: path, sha256: sha256, facts: true)
            let bundled = fixture.directory.url("v1.sqlite").path
            let verifier = FeedVerifier(
                feedURL: URL(fileURLWithPath: fixture.feedPath, isDirectory: true), root: fixture.rootData,
                fetcher: FileFetcher())
            await assertRefused(fixture, subject: "targets.json", field: field) {
                _ = try await verifier.verify(bundled: bundled)
            }
        }
    }
}
