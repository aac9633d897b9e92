import DBGenKit
import FeedClient
@testable import FeedPublisher
import Foundation
import ShipyardTestSupport
import XCTest

/// The publisher's SQLPack packer: a real `dbgen diff` patch packs to fewer bytes (and fewer
/// still once compressed) and unpacks to itself, in Shipyard's reader and in python3's own;
/// lines the packer must leave alone or handle at the edges of 64 bits round-trip; a patch it
/// cannot pack is published unpacked, and the facts and path say which.
final class SQLPackerTests: XCTestCase {
    /// `bytes` packed, then unpacked by python3's reader (from a bzip2 blob, as a device gets it).
    private func unpackedByPython(_ packed: [UInt8], in directory: TemporaryDirectory) throws -> [UInt8] {
        let source = directory.url("packed-\(UUID().uuidString)"), blob = directory.url("blob.bz2")
        try Data(packed).write(to: source)
        try TargetCompression.bzip2.compress(fileAt: source.path, to: blob.path)
        return [UInt8](try PythonTargetDecoder.decode(blob.path, compression: "bzip2", packing: "sqlpack1"))
    }

    private func bzip2Length(_ bytes: [UInt8], in directory: TemporaryDirectory) throws -> Int64 {
        let source = directory.url("plain-\(UUID().uuidString)")
        try Data(bytes).write(to: source)
        return try TargetCompression.bzip2.compress(fileAt: source.path, to: source.path + ".bz2")
    }

    func testARealPatchPacksSmallerAndUnpacksToItselfInSwiftAndInPython() throws {
        let fixture = try FeedFixture(self)
        let v1 = try fixture.release("v1", version: 1, rows: 20_000)
        let v2 = try fixture.release("v2", version: 2, rows: 20_000, changedEvery: 37)
        var patch: [UInt8] = []
        try DatabaseDiff(oldPath: v1, newPath: v2).writePatch { patch += $0 }
        let packed = try XCTUnwrap(SQLPacker.pack(patch))
        XCTAssertTrue(SQLPacker.unpacks(packed, to: patch))
        XCTAssertEqual(try unpackedByPython(packed, in: fixture.directory), patch)
        XCTAssertEqual(SQLPacker.pack(patch), packed, "the same patch packs to the same bytes")
        XCTAssertTrue(packed.contains(SQLPack.keyCode) && packed.contains(SQLPack.wordCode))
        let plainLength = try bzip2Length(patch, in: fixture.directory)
        let packedLength = try bzip2Length(packed, in: fixture.directory)
        XCTAssertLessThan(Double(packedLength), Double(plainLength) * 0.85, "bzip2: \(packedLength) vs \(plainLength)")
    }

    func testLinesAtTheEdgesRoundTripAndOnlyCanonicalKeysAreDifferenced() throws {
        let directory = try TemporaryDirectory("shipyard-sqlpacker", removedAfter: self)
        let long = String(repeating: "brûlée", count: 60)
        let cases: [(String, Bool)] = [
            ("UPDATE t SET a=1 WHERE pk=5;\nUPDATE t SET a=2 WHERE pk=3;\nDELETE FROM t WHERE pk=-4;\n", true),
            ("DELETE FROM t WHERE pk=9223372036854775807;\nDELETE FROM t WHERE pk=-9223372036854775808;\n", true),
            ("DELETE FROM t WHERE pk=0;\nDELETE FROM t WHERE pk=0;", true),
            ("DELETE FROM t WHERE pk=007;\nDELETE FROM t WHERE pk=-0;\nDELETE FROM t WHERE pk=+5;\n", false),
            ("DELETE FROM t WHERE pk=99999999999999999999;\nDELETE FROM t WHERE a='x=5;';x\n", false),
            ("UPDATE t SET a='line\nUPDATE t SET b=1 WHERE pk=12;\n' WHERE pk=3;\n", true),
            ("DELETE FROM t WHERE pk=12;\r\nINSERT INTO t VALUES(12);\n", false),
            ("UPDATE t SET a='\(long) \(long) \(long)' WHERE pk=1;\n", true),
            ("", false),
        ]
        for (sql, differenced) in cases {
            let bytes = Array(sql.utf8)
            let packed = try XCTUnwrap(SQLPacker.encode(bytes), sql)
            XCTAssertTrue(SQLPacker.unpacks(packed, to: bytes), sql)
            XCTAssertEqual(try unpackedByPython(packed, in: directory), bytes, sql)
            XCTAssertEqual(SQLPacker.differencedKeys(bytes).contains(SQLPack.keyCode), differenced, sql)
        }
        // Keys as differences from the key before, across statements and tables.
        XCTAssertEqual(
            SQLPacker.differencedKeys(Array("DELETE FROM a WHERE k=100;\nUPDATE b SET x=1 WHERE k=93;".utf8)),
            Array("DELETE FROM a WHERE k=".utf8) + [SQLPack.keyCode] + Array("100;\nUPDATE b SET x=1 WHERE k=".utf8)
                + [SQLPack.keyCode] + Array("-7;".utf8))
        // Too short to gain from packing (the signature and dictionary cost more): left plain.
        XCTAssertNil(SQLPacker.pack(Array("DELETE FROM t WHERE pk=5;\n".utf8)))
    }

    func testAPatchHoldingAByteSQLPackReservesIsPublishedUnpacked() throws {
        let directory = try TemporaryDirectory("shipyard-sqlpacker", removedAfter: self)
        var bytes = Array("UPDATE t SET a=X WHERE pk=5;\n".utf8)
        bytes[15] = 0xF8 // not UTF-8: a text value SQLite holds as it was given
        XCTAssertNil(SQLPacker.pack(bytes))
        let source = directory.url("patch.sql")
        try Data(bytes).write(to: source)
        let packedAsked = TargetEncoding(compression: .bzip2, packing: .sqlPack)
        let blob = try TargetBlob.encode(source.path, to: directory.url("patch.out").path, encoding: packedAsked)
        XCTAssertEqual(blob.encoding, TargetEncoding(compression: .bzip2), "published unpacked")
        XCTAssertEqual(
            try PythonTargetDecoder.decode(blob.path, compression: "bzip2", packing: nil), Data(bytes))
        XCTAssertEqual(blob.encoding.patchExtension, "sql.bz2")
        XCTAssertEqual(packedAsked.patchExtension, "sqlpack.bz2")
    }
}
