import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// The feed's default compression against python3's bz2 module: what Shipyard compresses python
/// decompresses, what python compresses Shipyard decompresses, and a stream that lies is refused
/// by what it did. ``TargetCompression`` picks each codec by its facts' name.
final class Bzip2StreamTests: XCTestCase {
    private func decompress(
        _ compressed: Data, limit: Int64, pieceSize: Int = 7_777, compression: TargetCompression = .bzip2
    ) throws -> Data {
        try compression.decompress(compressed, limit: limit, pieceSize: pieceSize)
    }

    private func python(_ program: String, input: Data) throws -> Data {
        try Oracle.python3.run(["-c", "import sys, bz2, zlib\n" + program], input: input).stdout
    }

    func testPythonDecompressesWhatShipyardCompressesAndTheBytesAreTheSameEachTime() throws {
        let directory = try TemporaryDirectory("shipyard-bzip2", removedAfter: self)
        var generator = SeededGenerator(seed: 29)
        // More than one 900 kB block, so the stream has several.
        let text = (0..<120_000).map { _ in "row \(UInt32.random(in: 0...999, using: &generator))|food\n" }.joined()
        let source = try directory.write("data.sql", text)
        let first = directory.url("first.bz2"), second = directory.url("second.bz2")
        let length = try Bzip2Stream.compress(fileAt: source.path, to: first.path)
        try TargetCompression.bzip2.compress(fileAt: source.path, to: second.path)
        let compressed = try Data(contentsOf: first)
        XCTAssertEqual(Int64(compressed.count), length)
        XCTAssertEqual(compressed, try Data(contentsOf: second), "the same input must compress to the same bytes")
        XCTAssertEqual(
            compressed,
            try python("sys.stdout.buffer.write(bz2.compress(sys.stdin.buffer.read(), 9))", input: Data(text.utf8)),
            "level 9 as python's bz2 (the same libbz2) writes it")
        XCTAssertLessThan(compressed.count, text.utf8.count / 2)
        let decompressed = try python(
            "sys.stdout.buffer.write(bz2.decompress(sys.stdin.buffer.read()))", input: compressed)
        XCTAssertEqual(decompressed, Data(text.utf8))
    }

    func testShipyardDecompressesWhatPythonCompressesInAnyPieces() throws {
        let original = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) })
        let compressed = try python(
            "sys.stdout.buffer.write(bz2.compress(sys.stdin.buffer.read(), 6))", input: original)
        for pieceSize in [1, 13, 65_536, compressed.count] {
            XCTAssertEqual(try decompress(compressed, limit: Int64(original.count), pieceSize: pieceSize), original)
        }
        // Exactly the cap is allowed.
        XCTAssertEqual(try decompress(compressed, limit: Int64(original.count)).count, original.count)
    }

    func testABombIsRefusedAtItsCapNotAfterDecompressingIt() throws {
        // 256 MiB of zeros compresses to a few hundred bytes; the cap says 1 MiB.
        let bomb = try python(
            "c = bz2.BZ2Compressor(9)\nout = [c.compress(bytes(1 << 20)) for _ in range(256)]\n"
                + "sys.stdout.buffer.write(b''.join(out) + c.flush())", input: Data())
        let decompressor = try Bzip2Stream.Decompressor(limit: 1 << 20)
        var written = 0
        XCTAssertThrowsError(
            try bomb.withUnsafeBytes { bytes in try decompressor.append(bytes) { written += $0.count } }
        ) { error in
            XCTAssertEqual(error as? CompressionFailure, CompressionFailure(.bzip2, .tooLarge(limit: 1 << 20)))
        }
        XCTAssertLessThanOrEqual(written, 1 << 20, "nothing past the cap reaches the sink")
    }

    func testATruncatedCorruptOrTrailingStreamIsRefusedByName() throws {
        let original = Data(repeating: 65, count: 10_000) + Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0) })
        let compressed = try python("sys.stdout.buffer.write(bz2.compress(sys.stdin.buffer.read()))", input: original)
        XCTAssertThrowsError(try decompress(compressed.prefix(compressed.count - 3), limit: 1 << 20)) {
            XCTAssertEqual($0 as? CompressionFailure, CompressionFailure(.bzip2, .truncated))
        }
        XCTAssertThrowsError(try decompress(compressed + Data([0]), limit: 1 << 20)) {
            XCTAssertEqual($0 as? CompressionFailure, CompressionFailure(.bzip2, .trailingBytes))
        }
        // A second stream after the first is trailing bytes too (one stream per target).
        XCTAssertThrowsError(try decompress(compressed + compressed, limit: 1 << 20, pieceSize: 1 << 20)) {
            XCTAssertEqual($0 as? CompressionFailure, CompressionFailure(.bzip2, .trailingBytes))
        }
        var corrupt = compressed
        corrupt[corrupt.count / 2] ^= 0xff
        XCTAssertThrowsError(try decompress(corrupt, limit: 1 << 20)) { error in
            guard let failure = error as? CompressionFailure, failure.codec == .bzip2, case .corrupt = failure.reason
            else {
                return XCTFail("expected .corrupt, got \(error)")
            }
        }
        XCTAssertThrowsError(try decompress(Data("not bzip2 at all".utf8), limit: 1 << 20)) { error in
            guard let failure = error as? CompressionFailure, failure.codec == .bzip2, case .corrupt = failure.reason
            else {
                return XCTFail("expected .corrupt, got \(error)")
            }
        }
    }

    func testEachCompressionIsChosenByItsNameAndExtension() throws {
        XCTAssertEqual(TargetCompression(rawValue: "bzip2"), .bzip2)
        XCTAssertEqual(TargetCompression(rawValue: "zlib"), .zlib)
        XCTAssertNil(TargetCompression(rawValue: "xz"))
        XCTAssertEqual(TargetCompression.allCases.map(\.fileExtension), ["zlib", "bz2"])
        let original = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let deflated = try python("sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))", input: original)
        XCTAssertEqual(try decompress(deflated, limit: 50_000, compression: .zlib), original)
        // A zlib stream handed to the bzip2 decompressor is refused, not misread.
        XCTAssertThrowsError(try decompress(deflated, limit: 50_000, compression: .bzip2)) { error in
            XCTAssertTrue(error is any TargetEncodingFailure, "\(error)")
        }
    }
}
