import Foundation
import XCTest

/// The zipfile() aggregate builds the same bytes as the sqlite3 shell's.
final class ZipAggregateTests: XCTestCase {
    /// Deterministic, poorly compressible bytes (no generate_series: only the file half is registered).
    private let noisy =
        "(WITH RECURSIVE n(i, s) AS (SELECT 1, '' UNION ALL SELECT i + 1, s || char((i * 7919 + i * i * 31) % 2000 + 33) FROM n WHERE i <= 1500) SELECT CAST(s AS BLOB) FROM n ORDER BY i DESC LIMIT 1)"

    private func assertArchive(_ rows: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try makeScratchDirectory(self)
        let sql = "SELECT hex(zipfile(name, mode, mtime, data, method)) FROM (\(rows));"
        let outcome = try assertSameAsShell(sql, in: dir, file: file, line: line)
        XCTAssertNil(outcome.error, file: file, line: line)
        XCTAssertNotEqual(outcome.rows, [""], "the archive is not empty", file: file, line: line)
    }

    func testFilesDirectoriesAndMethodsMatchShell() throws {
        try assertArchive(
            """
            SELECT 'a.txt' AS name, 420 AS mode, 1700000000 AS mtime, 'hello hello hello hello hello' AS data, NULL AS method
            UNION ALL SELECT 'tiny', 33188, 1700000001, 'x', NULL
            UNION ALL SELECT 'tiny-deflated', 33188, 1700000002, 'x', 8
            UNION ALL SELECT 'big-stored', 33188, 1700000003, zeroblob(5000), 0
            UNION ALL SELECT 'big-deflated', 33188, 1700000004, zeroblob(5000), NULL
            UNION ALL SELECT 'noisy', 33261, 1700000005, \(noisy), NULL
            UNION ALL SELECT 'empty', 33188, 1700000006, '', NULL
            UNION ALL SELECT 'empty-blob', 33188, 1700000006, zeroblob(0), 8
            UNION ALL SELECT 'number', 33188, 1700000007, 12345, NULL
            UNION ALL SELECT 'dir', 16877, 1700000008, NULL, NULL
            UNION ALL SELECT 'dir2/', 16877, 1700000009, NULL, 8
            UNION ALL SELECT 'dir3///', NULL, 1700000010, NULL, NULL
            UNION ALL SELECT '', NULL, 1700000011, NULL, NULL
            UNION ALL SELECT 'ünïcødé/日本語.txt', NULL, 1700000012, 'unicode', NULL
            """)
    }

    func testModesAndTimesMatchShell() throws {
        try assertArchive(
            """
            SELECT 'f1' AS name, '-rw-r--r--' AS mode, 0 AS mtime, 'a' AS data, NULL AS method
            UNION ALL SELECT 'f2', '-rwxr-x--x', 315532800, 'b', NULL
            UNION ALL SELECT 'd1', 'drwxr-x---', 315532799, NULL, NULL
            UNION ALL SELECT 'link', 'lrwxrwxrwx', 951827399, 'target', NULL
            UNION ALL SELECT 'f3', '0420', 951827400, 'c', NULL
            UNION ALL SELECT 'f4', 33188, 4102444799, 'd', NULL
            UNION ALL SELECT 'f5', 33188, 4294967295, 'e', NULL
            UNION ALL SELECT 'f6', 33188, -1, 'f', NULL
            UNION ALL SELECT 'f7', 33188, '1600000000', 'g', NULL
            UNION ALL SELECT 'f8', 33188, 2147483647.9, 'h', NULL
            UNION ALL SELECT 'f9', 33188, 4294967296 + 1700000000, 'i', 0
            UNION ALL SELECT 'f10', 33188, 1583020799, 'leap', 0
            """)
    }

    func testTwoArgumentFormMatchesShellWhenReadBack() throws {
        let dir = try makeScratchDirectory(self)
        try assertSameAsShell(
            """
            SELECT name, mode, sz, method, quote(data), abs(mtime - strftime('%s', 'now')) < 5
            FROM zipfile((SELECT zipfile(n, d) FROM (SELECT 'a' AS n, 'aaaaaaaaaaaaaaaaaaaa' AS d UNION ALL SELECT 'b/', NULL)));
            """, in: dir)
    }

    func testGroupsAndNoRowsMatchShell() throws {
        let dir = try makeScratchDirectory(self)
        try assertSameAsShell(
            """
            WITH f(g, n, d) AS (VALUES (1, 'x', 'one'), (2, 'y', 'two'), (1, 'z', 'three'))
            SELECT g, hex(zipfile(n, 420, 1000000000, d)) FROM f GROUP BY g ORDER BY g;
            """, in: dir)
        try assertSameAsShell("SELECT quote(zipfile('n', 'd')) FROM (SELECT 1) WHERE 0;", in: dir)
    }

    func testArchiveBuiltInMemoryReadsBackAsShell() throws {
        let dir = try makeScratchDirectory(self)
        try assertSameAsShell(
            """
            SELECT name, mode, mtime, sz, method, hex(data), hex(rawdata) FROM zipfile((
              SELECT zipfile(name, 420, 1234567891, data) FROM (SELECT 'one' AS name, 'data data data data' AS data
                UNION ALL SELECT 'two', \(noisy))));
            """, in: dir)
    }

    func testErrorsMatchShell() throws {
        let dir = try makeScratchDirectory(self)
        let failing = [
            "SELECT zipfile('a', 1, 2);", "SELECT zipfile('a');", "SELECT zipfile(NULL, 'data');",
            "SELECT zipfile('a', 420, 0, 'data', 3);", "SELECT zipfile('a/', 420, 0, 'data');",
            "SELECT zipfile('a', 'bad', 0, 'data');", "SELECT zipfile('a', '-rwsr--r--', 0, 'data');",
            "SELECT zipfile('a', 'xrw-r--r--', 0, 'data');", "SELECT zipfile('a', 16877, 0, 'data');",
            "SELECT zipfile('a', 420, 0, NULL);", "SELECT zipfile('a', -1, 0, 'data');",
            "SELECT zipfile('a', 420, 0, 'data', 1, 2);",
        ]
        for sql in failing {
            let outcome = try assertSameAsShell(sql, in: dir)
            XCTAssertNotNil(outcome.error, sql)
        }
    }

    func testFunctionListMatchesShell() throws {
        let dir = try makeScratchDirectory(self)
        try assertSameAsShell(
            "SELECT name, type, enc, narg, flags FROM pragma_function_list WHERE name LIKE 'zipfile%' OR name LIKE 'sqlar%' ORDER BY name, narg;",
            in: dir)
    }
}
