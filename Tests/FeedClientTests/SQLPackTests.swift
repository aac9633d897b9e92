@testable import FeedClient
import Foundation
import ShipyardTestSupport
import XCTest

/// The device's SQLPack reader against packed bytes built here from the format's description:
/// it gives what python3's own reader gives, in pieces of any size, and refuses every way a
/// packed patch can break the format or outgrow its declared length (producing nothing past it).
final class SQLPackTests: XCTestCase {
    /// A packed patch of `words` and `body` (the bytes after the dictionary), as the format says.
    private func packed(_ words: [String], _ body: [UInt8]) -> Data {
        var bytes = SQLPack.signature + [UInt8(words.count)]
        for word in words { bytes += [UInt8(word.utf8.count)] + Array(word.utf8) }
        return Data(bytes + body)
    }

    private let word = SQLPack.wordCode, key = SQLPack.keyCode

    private func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    private func unpack(_ data: Data, limit: Int64 = 1 << 20, pieceSize: Int = 7_777) throws -> String {
        String(decoding: try SQLPack.Unpacker(limit: limit).decode(data, pieceSize: pieceSize), as: UTF8.self)
    }

    private func refusal(_ data: Data, limit: Int64 = 1 << 20) -> SQLPack.Failure? {
        do {
            _ = try SQLPack.Unpacker(limit: limit).decode(data, pieceSize: 3)
            return nil
        } catch {
            return error as? SQLPack.Failure
        }
    }

    func testWordsAndKeyDifferencesUnpackAsPythonsReaderUnpacksThemInPiecesOfAnySize() throws {
        let data = packed(
            ["banana", "brûlée"],
            text("UPDATE t SET a='") + [word, 0] + text(" ") + [word, 1] + text("' WHERE pk=") + [key] + text("1755;\n")
                + text("DELETE FROM t WHERE pk=") + [key] + text("72;\n")
                + text("DELETE FROM t WHERE pk=") + [key] + text("-1827;\n")
                + text("DELETE FROM t WHERE pk=") + [key] + text("-1;\n") + text("-- kcal=9 ") + [word, 0])
        let expected = """
            UPDATE t SET a='banana brûlée' WHERE pk=1755;
            DELETE FROM t WHERE pk=1827;
            DELETE FROM t WHERE pk=0;
            DELETE FROM t WHERE pk=-1;
            -- kcal=9 banana
            """
        for pieceSize in [1, 2, 5, 64, 100_000] {
            XCTAssertEqual(try unpack(data, pieceSize: pieceSize), expected, "pieces of \(pieceSize)")
        }
        let directory = try TemporaryDirectory("shipyard-sqlpack", removedAfter: self)
        let blob = directory.url("patch.sqlpack.bz2")
        try Oracle.python3.run(
            ["-c", "import sys, bz2; open(sys.argv[1], 'wb').write(bz2.compress(sys.stdin.buffer.read()))", blob.path],
            input: data)
        let python = try PythonTargetDecoder.decode(blob.path, compression: "bzip2", packing: "sqlpack1")
        XCTAssertEqual(String(decoding: python, as: UTF8.self), expected)
        // Through the target's encoding (bzip2, then unpacking), as the client decodes it.
        let encoding = TargetEncoding(compression: .bzip2, packing: .sqlPack)
        let decoded = try encoding.decoder(limit: 1 << 20).decode(try Data(contentsOf: blob), pieceSize: 11)
        XCTAssertEqual(String(decoding: decoded, as: UTF8.self), expected)
    }

    func testAPatchWithoutDictionaryOrEscapesIsItsOwnBody() throws {
        XCTAssertEqual(try unpack(packed([], text("BEGIN;\nCOMMIT;\n"))), "BEGIN;\nCOMMIT;\n")
        XCTAssertEqual(try unpack(packed([], [])), "")
    }

    func testEachBreakOfTheFormatIsRefusedByWhatItBroke() {
        XCTAssertEqual(refusal(Data(text("BEGIN;"))), .corrupt("no SQLPack signature"))
        XCTAssertEqual(refusal(Data(SQLPack.signature.dropLast())), .truncated)
        XCTAssertEqual(refusal(Data(SQLPack.signature + [2, 3] + text("abc"))), .truncated, "a missing word")
        XCTAssertEqual(refusal(Data(SQLPack.signature + [1, 0])), .corrupt("dictionary word 0 is empty"))
        XCTAssertEqual(
            refusal(Data(SQLPack.signature + [1, 2, 0x61, 0xF9])), .corrupt("dictionary word 0 holds byte 249"))
        XCTAssertEqual(refusal(packed(["abc"], [word, 1])), .corrupt("word 1 of a dictionary of 1"))
        XCTAssertEqual(refusal(packed(["abc"], [word])), .truncated, "a word code cut after its escape")
        XCTAssertEqual(refusal(packed([], text("x") + [0xFF])), .corrupt("byte 255 in the body"))
        XCTAssertEqual(refusal(packed([], text("x") + [0xF5])), .corrupt("byte 245 in the body"))
        XCTAssertEqual(refusal(packed([], [key] + text(";"))), .corrupt("a key escape without digits"))
        XCTAssertEqual(refusal(packed([], [key] + text("-;"))), .corrupt("a key escape without digits"))
        XCTAssertEqual(refusal(packed([], [key] + text("12"))), .truncated, "a key is always followed by `;`")
        XCTAssertEqual(
            refusal(packed([], [key] + text("99999999999999999999;"))), .corrupt("a key difference past 64 bits"))
        XCTAssertEqual(
            refusal(packed([], [key] + text("9223372036854775807;") + [key] + text("1;"))),
            .corrupt("a key past 64 bits"))
    }

    func testABombOfWordCodesStopsAtTheDeclaredLength() throws {
        // 2 bytes per 255-byte word: 200 kB of codes stand for 25 MB.
        let long = String(repeating: "a", count: 255)
        let bomb = packed([long], Array(repeating: [word, 0], count: 100_000).flatMap { $0 })
        let unpacker = SQLPack.Unpacker(limit: 1_000)
        var produced = 0
        XCTAssertThrowsError(
            try bomb.withUnsafeBytes { bytes in try unpacker.append(bytes) { produced += $0.count } }
        ) { error in
            XCTAssertEqual(error as? SQLPack.Failure, .tooLarge(limit: 1_000))
        }
        XCTAssertEqual(produced, 0, "nothing past the cap is handed on")
        XCTAssertEqual(refusal(packed([long], [word, 0, word, 0]), limit: 509), .tooLarge(limit: 509))
        XCTAssertEqual(try unpack(packed([long], [word, 0, word, 0]), limit: 510).count, 510)
    }
}
