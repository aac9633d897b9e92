import FeedClient
import FileSystemKit
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import TUF
import XCTest

/// Values a key holder signs that would name files: a target's SHA-256 (the staging files'
/// name) and its path. Whatever they hold (`..`, an absolute path, a NUL, a `/`, an overlong
/// name, letters that are not hexadecimal), the device reads, writes and removes nothing outside
/// DIR: a sentinel file beside DIR, which the staging area's `../../../../sentinel` reaches, and
/// every file outside DIR stay as they were, DIR is as it was, and the error names
/// `targets.json` and the field.
final class MetadataPathTests: XCTestCase {
    static let hostileHashes = [
        "../../../../sentinel", "/tmp/sentinel", String(repeating: "a", count: 63) + "\u{0}",
        String(repeating: "ab/", count: 21) + "a", String(repeating: "a", count: 300),
        String(repeating: "z", count: 64),
        "..", "",
    ]
    static let hostilePaths = [
        "../../../../sentinel", "/releases/x.sqlite.zlib", "releases/../../x.sqlite.zlib",
        "releases/a\u{0}b.sqlite.zlib",
        "releases//x.sqlite.zlib", "releases/" + String(repeating: "x", count: 300), "..", "releases/.", "",
    ]

    /// A targets entry of any content, as a key holder may sign one (the real targets key signs
    /// the document it is listed in).
    static func forged(_ path: String, length: Int, sha256: String, custom: JSONValue) throws -> TargetFile {
        var signed = Targets.signed(version: 1, expires: Date().addingTimeInterval(3_600), targets: [])
        let entry = JSONObject([
            ("length", .integer(Int64(length))), ("hashes", .object(JSONObject([("sha256", .string(sha256))]))),
            ("custom", custom),
        ])
        signed["targets"] = .object(JSONObject([(path, .object(entry))]))
        let data = escapingNUL(try Metadata.sign(signed, with: [Ed25519SigningKey()]))
        return try XCTUnwrap(try Targets(try Metadata(data: data, document: "targets.json")).targets[path])
    }

    /// A document with each NUL written `\u0000`: canonical JSON (what is signed) has the byte
    /// itself, which no JSON parser takes, but a key holder may send the escape, whose parse
    /// has the same canonical form, so the signature holds.
    static func escapingNUL(_ data: Data) -> Data {
        Data(data.flatMap { $0 == 0 ? Array("\\u0000".utf8) : [$0] })
    }

    /// The next targets (NULs escaped), snapshot and timestamp.
    static func writeMetadata(_ writer: FeedWriter) throws {
        let targets = escapingNUL(try writer.writeTargets())
        try writer.write(targets, "\(writer.versions["targets"]!).targets.json")
        try writer.writeSnapshot()
        try writer.writeTimestamp()
    }

    /// Everything outside DIR, file by file.
    private func outside(_ fixture: FeedFixture) -> [String: Data] {
        DirectoryTree.files(under: fixture.temporary.path).filter { !$0.key.hasPrefix("Library/food-updates") }
    }

    private func assertRefused(
        _ fixture: FeedFixture, field: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let sentinel = fixture.temporary.url("sentinel")
        try Data("not to be read, written or removed\n".utf8).write(to: sentinel)
        let before = outside(fixture)
        let error = try await fixture.refused(try fixture.updater(), file: file, line: line)
        XCTAssertEqual(error?.subject, "targets.json", error?.description ?? "", file: file, line: line)
        XCTAssertEqual(error?.check, .malformed, file: file, line: line)
        XCTAssertTrue(
            error?.reason.hasPrefix("signed.targets[") ?? false, error?.description ?? "", file: file, line: line)
        XCTAssertTrue(error?.reason.contains(field) ?? false, error?.description ?? "", file: file, line: line)
        XCTAssertEqual(outside(fixture), before, "nothing outside DIR changed", file: file, line: line)
        XCTAssertEqual(try fixture.inEffect(), fixture.first, file: file, line: line)
    }

    func testAHashThatIsNotADigestNamesNoFile() async throws {
        for hash in Self.hostileHashes {
            let fixture = try FeedFixture(removedAfter: self)
            let v2File = try fixture.release(2)
            let v2 = DatabaseVersion(userVersion: 2, sha256: try ContentHash.sha256(ofFileAt: v2File.path))
            let blob = try fixture.writer.deflate(v2File)
            let facts = fixture.writer.facts(.database, of: v2File, base: nil, result: v2, .init())
            fixture.writer.targets.append(
                try Self.forged(
                    "releases/\(v2.sha256).sqlite.zlib", length: blob.count, sha256: hash, custom: facts.custom))
            try Self.writeMetadata(fixture.writer)
            try await assertRefused(fixture, field: ".hashes.sha256: " + hash.prefix(100).debugDescription.dropLast())
        }
    }

    func testATargetPathThatIsNotAPathNamesNoFile() async throws {
        for path in Self.hostilePaths {
            let fixture = try FeedFixture(removedAfter: self)
            let v2File = try fixture.release(2)
            let v2 = DatabaseVersion(userVersion: 2, sha256: try ContentHash.sha256(ofFileAt: v2File.path))
            let target = try fixture.writer.addTarget(
                "releases/\(v2.sha256).sqlite.zlib", blob: try fixture.writer.deflate(v2File),
                facts: fixture.writer.facts(.database, of: v2File, base: nil, result: v2, .init()))
            fixture.writer.targets = [
                try Self.forged(path, length: Int(target.length), sha256: target.hashes[0].hex, custom: target.custom!)
            ]
            try Self.writeMetadata(fixture.writer)
            try await assertRefused(fixture, field: "]: " + path.prefix(100).debugDescription.dropLast())
        }
    }
}
