import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// The feed's compression against python3's zlib module: what Shipyard deflates python inflates,
/// what python deflates Shipyard inflates, and a stream that lies is refused by what it did.
final class ZlibStreamTests: XCTestCase {
    private func inflate(_ compressed: Data, limit: Int64, pieceSize: Int = 7_777) throws -> Data {
        try TargetCompression.zlib.decompress(compressed, limit: limit, pieceSize: pieceSize)
    }

    private func python(_ program: String, input: Data) throws -> Data {
        try Oracle.python3.run(["-c", "import sys, zlib\n" + program], input: input).stdout
    }

    func testPythonInflatesWhatShipyardDeflatesAndTheBytesAreTheSameEachTime() throws {
        let directory = try TemporaryDirectory("shipyard-zlib", removedAfter: self)
        var generator = SeededGenerator(seed: 29)
        let text = (0..<40_000).map { _ in "row \(UInt32.random(in: 0...999, using: &generator))|food\n" }.joined()
        let source = try directory.write("data.sql", text)
        let first = directory.url("first.zlib"), second = directory.url("second.zlib")
        let length = try ZlibStream.deflate(fileAt: source.path, to: first.path)
        try ZlibStream.deflate(fileAt: source.path, to: second.path)
        let compressed = try Data(contentsOf: first)
        XCTAssertEqual(Int64(compressed.count), length)
        XCTAssertEqual(compressed, try Data(contentsOf: second), "the same input must deflate to the same bytes")
        XCTAssertLessThan(compressed.count, text.utf8.count / 2)
        let inflated = try python(
            "sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))", input: compressed)
        XCTAssertEqual(inflated, Data(text.utf8))
    }

    func testShipyardInflatesWhatPythonDeflatesInAnyPieces() throws {
        let original = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) })
        let compressed = try python(
            "sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read(), 6))", input: original)
        for pieceSize in [1, 13, 65_536, compressed.count] {
            XCTAssertEqual(try inflate(compressed, limit: Int64(original.count), pieceSize: pieceSize), original)
        }
    }

    func testABombIsRefusedAtItsCapNotAfterInflatingIt() throws {
        // 256 MiB of zeros deflates to about 256 KB; the cap says 1 MiB.
        let bomb = try python(
            "c = zlib.compressobj(9)\nout = [c.compress(bytes(1 << 20)) for _ in range(256)]\n"
                + "sys.stdout.buffer.write(b''.join(out) + c.flush())", input: Data())
        XCTAssertThrowsError(try inflate(bomb, limit: 1 << 20, pieceSize: 1 << 16)) { error in
            XCTAssertEqual(error as? CompressionFailure, CompressionFailure(.zlib, .tooLarge(limit: 1 << 20)))
        }
    }

    func testATruncatedCorruptOrTrailingStreamIsRefusedByName() throws {
        let original = Data(repeating: 65, count: 10_000) + Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0) })
        let compressed = try python("sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))", input: original)
        XCTAssertThrowsError(try inflate(compressed.prefix(compressed.count - 3), limit: 1 << 20)) {
            XCTAssertEqual($0 as? CompressionFailure, CompressionFailure(.zlib, .truncated))
        }
        XCTAssertThrowsError(try inflate(compressed + Data([0]), limit: 1 << 20)) {
            XCTAssertEqual($0 as? CompressionFailure, CompressionFailure(.zlib, .trailingBytes))
        }
        var corrupt = compressed
        corrupt[corrupt.count / 2] ^= 0xff
        XCTAssertThrowsError(try inflate(corrupt, limit: 1 << 20)) { error in
            guard let failure = error as? CompressionFailure, failure.codec == .zlib, case .corrupt = failure.reason
            else {
                return XCTFail("expected .corrupt, got \(error)")
            }
        }
    }
}
