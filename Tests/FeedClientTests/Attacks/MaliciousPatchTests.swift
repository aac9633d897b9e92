import FeedClient
import FileSystemKit
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// Validly signed patches that try to reach outside the database copy (ATTACH, VACUUM INTO,
/// load_extension), and a patch whose header names another base than its facts: DatabaseUpdater
/// and the client refuse them, nothing is installed, nothing is written elsewhere.
final class MaliciousPatchTests: XCTestCase {
    func testPatchesThatReachOutsideTheirCopyAreRefused() async throws {
        for statement in [
            "ATTACH DATABASE 'stolen.db' AS stolen;", "VACUUM INTO 'stolen.db';",
            "SELECT load_extension('/tmp/evil');",
        ] {
            let fixture = try FeedFixture(removedAfter: self)
            let v2File = try fixture.release(2)
            let v2 = DatabaseVersion(userVersion: 2, sha256: try ContentHash.sha256(ofFileAt: v2File.path))
            let patch = fixture.temporary.url("evil.sql")
            try FeedWriter.diff(from: fixture.bundled, to: v2File, into: patch)
            var lines = String(decoding: try Data(contentsOf: patch), as: UTF8.self).components(separatedBy: "\n")
            lines.insert(statement, at: 3) // after the header and BEGIN
            try Data(lines.joined(separator: "\n").utf8).write(to: patch)
            let target = try fixture.writer.addTarget(
                "patches/\(fixture.first.sha256)-\(v2.sha256).sql.zlib", blob: try fixture.writer.deflate(patch),
                facts: fixture.writer.facts(.patch, of: patch, base: fixture.first, result: v2, .init()))
            try fixture.writer.addTarget(
                "releases/\(v2.sha256).sqlite.zlib", blob: try fixture.writer.deflate(v2File),
                facts: fixture.writer.facts(.database, of: v2File, base: nil, result: v2, .init()))
            try fixture.writer.writeMetadata()

            let error = try await fixture.refused(try fixture.updater())
            XCTAssertEqual(error?.subject, target.path, statement)
            XCTAssertEqual(error?.check, .install, statement)
            XCTAssertTrue(error?.reason.contains("refused") ?? false, error?.description ?? "")
            let stray = FileManager.default.enumerator(atPath: fixture.temporary.path)?.compactMap { $0 as? String }
            XCTAssertFalse(stray?.contains { $0.hasSuffix("stolen.db") } ?? true, statement)
        }
    }

    /// A signed patch that tries to control its transaction, the statement hidden from a reading
    /// of the text (a `--` comment ending in CRLF, a block comment, odd case): refused when it
    /// would undo or split the patch, nothing installed; the patch's own BEGIN and COMMIT,
    /// however written, are skipped and the patch installs whole.
    func testASignedPatchControlsNoTransaction() async throws {
        let cases: [(statement: String, refused: Bool)] = [
            ("-- note\r\nROLLBACK;", true), ("/* note */ sAvEpOiNt sp;", true), ("-- x\r\nRELEASE sp;", true),
            ("--\r\nROLLBACK TO sp;", true), ("-- note\r\nCOMMIT;", false), ("/* */eNd\r\n;", false),
            ("-- note\r\nBEGIN;", false),
        ]
        for (statement, refused) in cases {
            let fixture = try FeedFixture(removedAfter: self)
            let v2File = try fixture.release(2)
            let v2 = DatabaseVersion(userVersion: 2, sha256: try ContentHash.sha256(ofFileAt: v2File.path))
            let patch = fixture.temporary.url("control.sql")
            try FeedWriter.diff(from: fixture.bundled, to: v2File, into: patch)
            var lines = String(decoding: try Data(contentsOf: patch), as: UTF8.self).components(separatedBy: "\n")
            lines.insert(statement, at: 4) // after the header, BEGIN and the first statement
            try Data(lines.joined(separator: "\n").utf8).write(to: patch)
            let target = try fixture.writer.addTarget(
                "patches/\(fixture.first.sha256)-\(v2.sha256).sql.zlib", blob: try fixture.writer.deflate(patch),
                facts: fixture.writer.facts(.patch, of: patch, base: fixture.first, result: v2, .init()))
            try fixture.writer.addTarget(
                "releases/\(v2.sha256).sqlite.zlib", blob: try fixture.writer.deflate(v2File) + Data(count: 100_000),
                facts: fixture.writer.facts(.database, of: v2File, base: nil, result: v2, .init()))
            try fixture.writer.writeMetadata()

            guard refused else {
                let plan = try await fixture.updater().update()
                XCTAssertTrue(plan.usesPatches, statement)
                XCTAssertEqual(try fixture.contentInEffect(), try FeedFixture.content(v2File), statement)
                continue
            }
            let error = try await fixture.refused(try fixture.updater())
            XCTAssertEqual(error?.subject, target.path, statement)
            XCTAssertEqual(error?.check, .install, statement)
            XCTAssertTrue(error?.reason.contains("may not control") ?? false, error?.description ?? "")
        }
    }

    func testAPatchWhoseHeaderNamesAnotherBaseIsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2File = try fixture.release(2)
        let v3File = try fixture.release(3)
        let v2 = DatabaseVersion(userVersion: 2, sha256: try ContentHash.sha256(ofFileAt: v2File.path))
        let v3 = DatabaseVersion(userVersion: 3, sha256: try ContentHash.sha256(ofFileAt: v3File.path))
        let patch = fixture.temporary.url("v2-v3.sql")
        try FeedWriter.diff(from: v2File, to: v3File, into: patch)
        // Listed as a patch from the database in effect (release 1): its header says release 2.
        let target = try fixture.writer.addTarget(
            "patches/\(fixture.first.sha256)-\(v3.sha256).sql.zlib", blob: try fixture.writer.deflate(patch),
            facts: fixture.writer.facts(.patch, of: patch, base: fixture.first, result: v3, .init()))
        let whole = try fixture.writer.deflate(v3File)
        try fixture.writer.addTarget(
            "releases/\(v3.sha256).sqlite.zlib", blob: whole + Data(count: 100_000),
            facts: fixture.writer.facts(.database, of: v3File, base: nil, result: v3, .init()))
        try fixture.writer.writeMetadata()
        XCTAssertNotEqual(v2, fixture.first)

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, target.path)
        XCTAssertEqual(error?.check, .facts)
        XCTAssertTrue(error?.reason.contains("header") ?? false, error?.description ?? "")
    }
}
