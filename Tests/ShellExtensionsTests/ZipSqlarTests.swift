import Foundation
import XCTest

/// sqlar_compress and sqlar_uncompress give the shell's bytes.
final class ZipSqlarTests: XCTestCase {
    func testCompressMatchesShell() throws {
        let dir = try makeScratchDirectory(self)
        let values = [
            "'abc'", "x'00'", "zeroblob(0)", "zeroblob(100)", "zeroblob(100000)",
            "CAST('text text text text text text' AS BLOB)", "'text text text text text text'",
            "42", "4.5", "NULL", "x'0102030405060708090A'", "CAST(printf('%.*c', 500, 'z') AS BLOB)",
        ]
        for value in values {
            try assertSameAsShell("SELECT typeof(sqlar_compress(\(value))), quote(sqlar_compress(\(value)));", in: dir)
        }
    }

    func testUncompressMatchesShell() throws {
        let dir = try makeScratchDirectory(self)
        let compressed = "sqlar_compress(zeroblob(1000))"
        let cases = [
            "quote(sqlar_uncompress(\(compressed), 1000)) = quote(zeroblob(1000))",
            "length(sqlar_uncompress(\(compressed), 5000))",
            "quote(sqlar_uncompress('abc', 3))", "quote(sqlar_uncompress('abc', 0))",
            "quote(sqlar_uncompress('abc', 'x'))", "quote(sqlar_uncompress('abc', 4294967299))",
            "quote(sqlar_uncompress('abc', -4294967293))",
            "quote(sqlar_uncompress(x'0102', 2))", "quote(sqlar_uncompress(NULL, 0))", "quote(sqlar_uncompress(7, 1))",
            "quote(sqlar_uncompress(sqlar_compress(CAST('abcabcabcabcabcabcabc' AS BLOB)), 21))",
            "typeof(sqlar_uncompress(sqlar_compress(CAST('abcabcabcabcabcabcabc' AS BLOB)), '21'))",
        ]
        for expression in cases {
            try assertSameAsShell("SELECT \(expression);", in: dir)
        }
    }

    func testUncompressErrorsMatchShell() throws {
        let dir = try makeScratchDirectory(self)
        for sql in [
            "SELECT sqlar_uncompress(x'0102', 10);", "SELECT sqlar_uncompress(NULL, 5);",
            "SELECT sqlar_uncompress(sqlar_compress(zeroblob(1000)), 10);", "SELECT sqlar_compress();",
            "SELECT sqlar_uncompress(1);",
            "SELECT sqlar_uncompress('abc', -4);", "SELECT sqlar_uncompress('abc', -4.5);",
            "SELECT sqlar_uncompress(sqlar_compress(zeroblob(1000)), -1);",
        ] {
            let outcome = try assertSameAsShell(sql, in: dir)
            XCTAssertNotNil(outcome.error, sql)
        }
    }
}
