@testable import FileSystemKit
import Foundation
import ShipyardTestSupport
import XCTest

/// File stamps against python3's os.stat, and content hashes against python3's hashlib.
final class FileStampTests: XCTestCase {
    func testTheStampIsWhatStatSays() throws {
        let directory = try TemporaryDirectory("stamp", removedAfter: self)
        let path = try directory.write("in put/é.csv", "1|2\n").path
        // A time with nanoseconds, set by the oracle.
        _ = try Oracle.python3.output([
            "-c", "import os, sys; os.utime(sys.argv[1], ns=(1, 1700000000123456789))", path,
        ])
        let stamp = try XCTUnwrap(FileStamp.of(path))
        // python prints a negative 32-bit device id (Darwin) as negative: its bit pattern is the stamp's.
        let fields = try Oracle.python3.output([
            "-c",
            "import os, sys; s = os.stat(sys.argv[1]); print(s.st_size, s.st_mtime_ns // 10**9, s.st_mtime_ns % 10**9, s.st_ino, s.st_dev % 2**32 if s.st_dev < 0 else s.st_dev)",
            path,
        ]).split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        XCTAssertEqual(
            [
                "\(stamp.size)", "\(stamp.mtimeSeconds)", "\(stamp.mtimeNanoseconds)", "\(stamp.inode)",
                "\(stamp.device)",
            ], fields)
        XCTAssertEqual(stamp.mtimeNanoseconds, 123_456_789)
    }

    func testTheStampChangesWhenTheFileIsTouchedOrReplaced() throws {
        let directory = try TemporaryDirectory("stamp", removedAfter: self)
        let path = try directory.write("schema.txt", "a").path
        let first = try XCTUnwrap(FileStamp.of(path))
        _ = try Oracle.python3.output([
            "-c",
            "import os, sys; st = os.stat(sys.argv[1]); os.utime(sys.argv[1], ns=(st.st_atime_ns, st.st_mtime_ns + 1))",
            path,
        ])
        let touched = try XCTUnwrap(FileStamp.of(path))
        XCTAssertNotEqual(touched, first, "one nanosecond later")
        try AtomicFile.replace(path, with: Data("a".utf8), tag: "test")
        XCTAssertNotEqual(FileStamp.of(path)?.inode, touched.inode, "a replaced file is another inode")
        XCTAssertNil(FileStamp.of(directory.url("missing").path))
    }

    func testIdentifiersConvertByBitPatternWithoutTrapping() {
        // Darwin's dev_t is Int32, and some volumes have negative ids.
        XCTAssertEqual(FileStamp.bitPattern(Int32(-2)), 0xFFFF_FFFE)
        XCTAssertEqual(FileStamp.bitPattern(Int32.min), 0x8000_0000)
        XCTAssertEqual(FileStamp.bitPattern(Int32(0x1234)), 0x1234)
        XCTAssertEqual(FileStamp.bitPattern(UInt64.max), UInt64.max)
        XCTAssertEqual(FileStamp.bitPattern(Int64(-1)), UInt64.max)
        XCTAssertEqual(FileStamp.bitPattern(UInt16.max), 0xFFFF)
    }

    func testTheStampRoundTripsThroughJSONUnderTheFieldNamesFingerprintsUse() throws {
        let stamp = FileStamp(size: 3, mtimeSeconds: 4, mtimeNanoseconds: 5, inode: 6, device: 0xFFFF_FFFE)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(stamp), as: UTF8.self)
        XCTAssertEqual(json, #"{"device":4294967294,"inode":6,"mtimeNanoseconds":5,"mtimeSeconds":4,"size":3}"#)
        XCTAssertEqual(try JSONDecoder().decode(FileStamp.self, from: Data(json.utf8)), stamp)
    }
}

final class ContentHashTests: XCTestCase {
    func testSHA256OfEmptySmallAndMultiMegabyteFilesMatchesHashlib() throws {
        let directory = try TemporaryDirectory("hash", removedAfter: self)
        var generator = SeededGenerator(seed: 5)
        let sizes = [
            0, 3, 55, 56, 63, 64, 65, 1000, ContentHash.chunkSize - 1, ContentHash.chunkSize,
            ContentHash.chunkSize + 1, 5 * ContentHash.chunkSize + 123,
        ]
        for size in sizes {
            let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let path = try directory.write("data-\(size).bin", bytes).path
            XCTAssertEqual(try ContentHash.sha256(ofFileAt: path), try hashlibSHA256(path), "\(size) bytes")
        }
    }

    func testSHA256OfAMissingFileIsAnOpenErrorNamingIt() throws {
        let directory = try TemporaryDirectory("hash", removedAfter: self)
        let path = directory.url("none.sql").path
        XCTAssertThrowsError(try ContentHash.sha256(ofFileAt: path)) {
            XCTAssertEqual($0 as? FileSystemError, FileSystemError(.open, path: path, code: ENOENT))
        }
    }

    func testFNV1aMatchesThePublishedVectors() {
        // From the FNV reference test suite (64-bit FNV-1a).
        XCTAssertEqual(ContentHash.fnv1a(""), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(ContentHash.fnv1a("a"), 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(ContentHash.fnv1a("foobar"), 0x8594_4171_f739_67e8)
    }
}

/// The durable sync calls: errors name the file; a directory sync is best effort.
final class DurableSyncTests: XCTestCase {
    func testSyncingAFileOrItsDirectory() throws {
        let directory = try TemporaryDirectory("sync", removedAfter: self)
        let path = try directory.write("out.sqlite", "db").path
        XCTAssertNoThrow(try DurableSync.synchronize(fileAt: path))
        XCTAssertTrue(DurableSync.synchronizeDirectory(containing: path))
        XCTAssertFalse(DurableSync.synchronizeDirectory(at: directory.url("missing").path))
        XCTAssertThrowsError(try DurableSync.synchronize(fileAt: directory.url("gone").path, reportedAs: "out.sqlite"))
        {
            XCTAssertEqual($0 as? FileSystemError, FileSystemError(.open, path: "out.sqlite", code: ENOENT))
        }
    }
}
