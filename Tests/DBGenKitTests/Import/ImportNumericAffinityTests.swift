@testable import DBGenKit
import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// ``ImportNumericAffinity`` against the linked SQLite: each text is stored in a NUMERIC column
/// by SQLite itself and read back (its storage class and value, a real to the bit), and must be
/// what the page writer would store. Seeded, so a failure names a text that reproduces it.
final class ImportNumericAffinityTests: XCTestCase {
    /// Texts at the edges of SQLite's rules: spaces, signs, points, exponents, the 64-bit
    /// limits, the double limits, hexadecimal, words that are not numbers.
    static let edges: [String] = [
        "", " ", "-", "+", ".", "-.", "+.", "1e", "1e+", "1e-", ".e5", "e5", "0x10", "0X1F", "1.", ".5", "-.5", "+.5",
        "5.", "-5.", "0", "-0", "+0", "00", "-00.000", "0.0", "-0.0", "0e5", "-0e-5", "007", "-007", "12.50",
        "  12  ", "\t12\n", "\u{0B}12\u{0C}", "\r-3.5\r", "1 2", "1.5.2", "1e5.5", "1e5e5", "--5", "+-5", "5-", "5+",
        "NaN", "nan", "inf", "-inf", "Infinity", "1,000", "1_000", "١٢", "12\u{00A0}", "\u{00A0}12", "0b101",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "99999999999999999999999", "-99999999999999999999999",
        "922337203685477579", "922337203685477580", "9223372036854775807.0", "9223372036854775806.5",
        "1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "2e308", "-2e308",
        "4.9e-324", "5e-324", "2.4e-324", "2.5e-324", "1e-400", "-1e-400", "2.2250738585072014e-308",
        "4503599627370496.0", "4503599627370495.5", "9007199254740993", "9007199254740993.0", "9007199254740992.5",
        "123456789012345678", "1234567890123456789", "12345678901234567890", "1234567890123456789.5",
        "12345678901234567.0", "123456789012345678.9", "0.1", "0.2", "0.30000000000000004", "1e22", "1e23", "1e-22",
        "1e-23", "123e-400", "1e9999999999", "1e-9999999999", "0.000000000000000000000000000001",
        "100000000000000000000000000000000000.0", "1.000000000000000000000000000001", "1E5", "1e+05", "1e-05",
        "  -1.5e3  ", "1.5e3x", "x1.5e3", "NULL", "null", "TRUE", "true", "1.0e0", "811.15", "811.00", "-811.00",
        // Decimals whose quotient, rounded to long double, lands halfway between two doubles:
        // SQLite's double differs from the correctly rounded one.
        "6796731.589966984", "8706182520.256917", "2195532228.494663", "0.02913236644921007",
        "0.05401099902774344", "7584111.442557937", "0.01183163808420687", "630498943.9783234",
        "0.007778733362184266", "6093.664946115568", "0.007551416532103315", "2.967394848356671",
        "-2.967394848356671", "12345678", "-12345678", "1234567.8", "123456.78", "0.1234567", "1.0000000",
        "00000000", "0000000.", ".0000000", "1996-03-13", "12345678-", "1234567-8", "12345678.9",
    ]

    func testEdgeCasesMatchSQLite() throws {
        try assertMatchesSQLite(Self.edges.map { Array($0.utf8) })
    }

    func testRandomNumberShapesMatchSQLite() throws {
        var generator = SeededGenerator(seed: 20_241_128)
        let texts = (0..<40_000).map { _ in Self.randomNumberText(using: &generator) }
        try assertMatchesSQLite(texts)
    }

    /// Doubles at random across the whole range, printed with 1 to 21 significant digits
    /// (where SQLite's two roundings through `long double` part from a correctly rounded
    /// conversion), and decimals with 2 to 19 digits around every power of ten.
    func testRandomDoublesMatchSQLite() throws {
        var generator = SeededGenerator(seed: 7_350_013)
        var texts: [[UInt8]] = []
        for _ in 0..<25_000 {
            // Any finite double: random bits, an exponent field short of all ones.
            let exponentField = UInt64.random(in: 0..<0x7FF, using: &generator) << 52
            let bits = UInt64.random(in: 0...UInt64.max, using: &generator) & ~(UInt64(0x7FF) << 52) | exponentField
            let value = Double(bitPattern: bits)
            let digits = Int.random(in: 1...21, using: &generator)
            let style = ["e", "g", "f"].randomElement(using: &generator)! // non-empty literal
            let format = style == "f" && abs(value.exponent) > 60 ? "%.\(digits)e" : "%.\(digits)\(style)"
            texts.append(Array(String(format: format, value).utf8))
            let significand = (0..<Int.random(in: 2...19, using: &generator)).map { _ in
                String(Int.random(in: 0...9, using: &generator))
            }.joined()
            let point = Int.random(in: 0...significand.count, using: &generator)
            var text = String(significand.prefix(point)) + "." + String(significand.dropFirst(point))
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -330...330, using: &generator))" }
            texts.append(Array(text.utf8))
        }
        try assertMatchesSQLite(texts)
    }

    /// A text shaped like a number: spaces, sign, digits with leading zeros, a point, an
    /// exponent, now and then a stray byte.
    static func randomNumberText(using generator: inout SeededGenerator) -> [UInt8] {
        let spaces = [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"]
        func digits(_ most: Int) -> String {
            (0..<Int.random(in: 0...most, using: &generator)).map { _ in
                Int.random(in: 0..<4, using: &generator) == 0 ? "0" : String(Int.random(in: 0...9, using: &generator))
            }.joined()
        }
        var text = ""
        if Int.random(in: 0..<8, using: &generator) == 0 { text += spaces.randomElement(using: &generator)! }
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: text += "-"
        case 1: text += "+"
        default: break
        }
        text += digits(Int.random(in: 0..<5, using: &generator) == 0 ? 25 : 8)
        if Int.random(in: 0..<2, using: &generator) == 0 { text += "." + digits(12) }
        if Int.random(in: 0..<5, using: &generator) == 0 {
            text += ["e", "E"].randomElement(using: &generator)! + ["", "+", "-"].randomElement(using: &generator)!
            text += Int.random(in: 0..<20, using: &generator) == 0 ? "99999999999" : digits(3)
        }
        if Int.random(in: 0..<8, using: &generator) == 0 { text += spaces.randomElement(using: &generator)! }
        if Int.random(in: 0..<15, using: &generator) == 0 {
            var characters = Array(text)
            let stray: [Character] = ["x", "-", ".", "e", " ", "0", "é", ",", "+"]
            characters.insert(
                stray.randomElement(using: &generator)!, at: Int.random(in: 0...characters.count, using: &generator))
            text = String(characters)
        }
        return Array(text.utf8)
    }

    /// Stores every text in a NUMERIC column through SQLite and compares each stored value with
    /// ``ImportNumericAffinity/convert(_:count:)``.
    private func assertMatchesSQLite(_ texts: [[UInt8]], file: StaticString = #filePath, line: UInt = #line) throws {
        let connection = try Connection(uri: "file::memory:?mode=memory")
        try connection.execute("CREATE TABLE t(n NUMERIC)")
        try connection.execute("BEGIN")
        let insert = try connection.prepare("INSERT INTO t VALUES(?1)")
        for text in texts {
            // With NULs after it, so the buffer is never empty (its length is given).
            _ = (text + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    insert.bindText($0.baseAddress, count: Int32(text.count), at: 1)
                }
            }
            _ = insert.stepStatus()
            _ = insert.reset()
        }
        try connection.execute("COMMIT")
        let stored = try connection.query("SELECT n FROM t ORDER BY rowid").map { $0.values[0] }
        XCTAssertEqual(stored.count, texts.count, file: file, line: line)
        var mismatches: [String] = []
        for (text, value) in zip(texts, stored) {
            // Eight bytes after the text, as the import's arena has, since the conversion reads
            // a word at a time.
            let ours = (text + [UInt8](repeating: 0x37, count: 8)).withUnsafeBufferPointer { buffer in
                // Non-nil: the buffer holds at least the eight bytes.
                ImportNumericAffinity.convert(buffer.baseAddress!, count: text.count)
            }
            let same: Bool
            switch (ours, value) {
            case (.text, .text): same = true
            case (.integer(let a), .integer(let b)): same = a == b
            case (.real(let a), .real(let b)): same = a.bitPattern == b.bitPattern
            default: same = false
            }
            if !same {
                mismatches.append(
                    "\(String(decoding: text, as: UTF8.self).debugDescription): ours \(ours), SQLite \(value)")
            }
        }
        XCTAssertEqual(mismatches.count, 0, mismatches.prefix(20).joined(separator: "\n"), file: file, line: line)
    }
}
