import FeedClient
import FileSystemKit
import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// A validly signed target that inflates far past the length its facts declare (64 MiB of
/// zeros in a 64 KB zlib stream, facts saying 100 KB): inflating stops at the declared length,
/// nothing is installed and nothing of it is left in the staging area.
final class DecompressionBombTests: XCTestCase {
    func testABombStopsAtTheDeclaredLength() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let zeros = fixture.temporary.url("zeros")
        _ = FileManager.default.createFile(atPath: zeros.path, contents: nil)
        let handle = try FileHandle(forWritingTo: zeros)
        for _ in 0..<64 { handle.write(Data(count: 1 << 20)) }
        try handle.close()
        let bomb = try fixture.writer.deflate(zeros)
        XCTAssertLessThan(bomb.count, 100_000)
        let result = DatabaseVersion(userVersion: 9, sha256: String(repeating: "e", count: 64))
        var facts = fixture.writer.facts(.database, of: zeros, base: nil, result: result, .init())
        facts.uncompressedLength = 100_000
        facts.uncompressedSHA256 = result.sha256
        let target = try fixture.writer.addTarget("releases/\(result.sha256).sqlite.zlib", blob: bomb, facts: facts)
        try fixture.writer.writeMetadata()

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, target.path)
        XCTAssertEqual(error?.check, .decoding)
        XCTAssertTrue(error?.reason.contains("100000") ?? false, error?.description ?? "")
        XCTAssertEqual(fixture.staged, [], "neither the download nor what it inflated to is kept")
    }

    func testATargetThatInflatesShortOfItsLengthIsRefused() async throws {
        let fixture = try FeedFixture(removedAfter: self)
        let v2File = try fixture.release(2)
        let v2 = DatabaseVersion(userVersion: 2, sha256: try ContentHash.sha256(ofFileAt: v2File.path))
        var facts = fixture.writer.facts(.database, of: v2File, base: nil, result: v2, .init())
        facts.uncompressedLength += 1
        let target = try fixture.writer.addTarget(
            "releases/\(v2.sha256).sqlite.zlib", blob: try fixture.writer.deflate(v2File), facts: facts)
        try fixture.writer.writeMetadata()

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, target.path)
        XCTAssertEqual(error?.check, .decoding)
    }

    func testAPackedPatchThatUnpacksPastItsLengthStopsThere() async throws {
        // 100 kB of SQLPack word codes standing for 12.75 MB; its facts say 200 kB.
        let fixture = try FeedFixture(removedAfter: self)
        let v2File = try fixture.release(2)
        let v2 = DatabaseVersion(userVersion: 2, sha256: try ContentHash.sha256(ofFileAt: v2File.path))
        let packed = fixture.temporary.url("bomb.sqlpack")
        let word = [UInt8](repeating: UInt8(ascii: "a"), count: 255)
        let codes = [UInt8](repeating: 0, count: 100_000).enumerated().map { $0.offset % 2 == 0 ? 0xF8 : $0.element }
        try Data([0xF5] + Array("sqlpack1\n".utf8) + [1, 255] + word + codes).write(to: packed)
        var facts = fixture.writer.facts(.patch, of: packed, base: fixture.first, result: v2, .init())
        facts.packing = .sqlPack
        facts.uncompressedLength = 200_000
        let target = try fixture.writer.addTarget(
            "patches/\(fixture.first.sha256)-\(v2.sha256).sqlpack.zlib", blob: try fixture.writer.deflate(packed),
            facts: facts)
        let whole = try fixture.writer.deflate(v2File)
        try fixture.writer.addTarget(
            "releases/\(v2.sha256).sqlite.zlib", blob: whole + Data(count: 100_000),
            facts: fixture.writer.facts(.database, of: v2File, base: nil, result: v2, .init()))
        try fixture.writer.writeMetadata()

        let error = try await fixture.refused(try fixture.updater())
        XCTAssertEqual(error?.subject, target.path)
        XCTAssertEqual(error?.check, .decoding)
        XCTAssertTrue(
            error?.reason.contains("unpacks to more than the 200000 bytes") ?? false, error?.description ?? "")
        XCTAssertEqual(fixture.staged, [], "neither the download nor what it unpacked to is kept")
    }
}
