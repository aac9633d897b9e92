@testable import DBGenKit
import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// The page reader of dbgen diff's record comparison: it reads the rows SQLite reads, in
/// rowid order, knows which overflow their leaf, and stops with ``UnreadablePages`` (never a
/// crash, never rowids out of order) on pages it does not expect.
final class TableBTreeCursorTests: XCTestCase {
    private func makeDatabase(_ dir: TemporaryDirectory, pageSize: Int = 512) throws -> String {
        let path = dir.url("db.sqlite").path
        _ = try Oracle.sqlite3Script(
            path,
            """
            PRAGMA page_size = \(pageSize);
            CREATE TABLE t(id INTEGER PRIMARY KEY, a, b BLOB);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO t SELECT i * 3 + (i % 2), 'row ' || i, CASE WHEN i % 50 = 0 THEN randomblob(700 + i) END FROM n;
            """)
        return path
    }

    private func root(_ path: String) throws -> UInt32 {
        guard
            case .integer(let root)? = try Connection(path: path, readOnly: true).scalar(
                "SELECT rootpage FROM sqlite_schema WHERE name = 't'")
        else { throw UnreadablePages(path: path, reason: "no root") }
        return UInt32(root)
    }

    func testReadsTheRowsSQLiteReadsInRowidOrder() throws {
        for pageSize in [512, 4096, 65536] {
            let dir = try TemporaryDirectory("btree cursor", removedAfter: self)
            let path = try makeDatabase(dir, pageSize: pageSize)
            let expected = try Connection(path: path, readOnly: true).query(
                "SELECT id, length(b) IS NOT NULL FROM t ORDER BY id"
            ).map { row -> String in "\(row[0]) \(row[1])" }
            let pages = try DatabasePages(path: path)
            XCTAssertEqual(pages.pageSize, pageSize)
            var cursor = try TableBTreeCursor(pages: pages, root: try root(path))
            var rows: [String] = []
            while try cursor.next() {
                XCTAssertEqual(cursor.ordinal, rows.count)
                // Only the rows with a blob of 700 bytes or more leave a small page's leaf.
                rows.append("\(DatabaseValue.integer(cursor.rowid)) \(DatabaseValue.integer(cursor.overflows ? 1 : 0))")
            }
            if pageSize == 512 {
                XCTAssertEqual(rows, expected, "page size \(pageSize)")
            } else {
                XCTAssertEqual(rows.map { $0.split(separator: " ")[0] }, expected.map { $0.split(separator: " ")[0] })
            }
            XCTAssertFalse(try cursor.next(), "stays at the end")
        }
    }

    func testDamagedPagesStopTheReaderAndNothingElse() throws {
        let dir = try TemporaryDirectory("btree cursor damage", removedAfter: self)
        let path = try makeDatabase(dir)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let root = try root(path)
        var generator = SeededGenerator(seed: 7)
        var stopped = 0
        for _ in 0..<400 {
            var bytes = original
            // A few bytes anywhere after page 1 (headers, cell pointers, varints, child numbers).
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let offset = Int.random(in: 512..<bytes.count, using: &generator)
                bytes[offset] = UInt8.random(in: 0...255, using: &generator)
            }
            let damaged = dir.url("damaged.sqlite")
            try bytes.write(to: damaged)
            do {
                let pages = try DatabasePages(path: damaged.path)
                var cursor = try TableBTreeCursor(pages: pages, root: root)
                var previous = Int64.min, count = 0
                while try cursor.next() {
                    XCTAssertGreaterThan(cursor.rowid, previous)
                    previous = cursor.rowid
                    count += 1
                    XCTAssertLessThan(count, 1_000_000, "a walk that does not end")
                    if count >= 1_000_000 { break }
                }
            } catch is UnreadablePages {
                stopped += 1
            }
        }
        XCTAssertGreaterThan(stopped, 0, "some damage is found")
    }

    func testAWALFileAndAShortFileAreNotRead() throws {
        let dir = try TemporaryDirectory("btree cursor files", removedAfter: self)
        let path = try makeDatabase(dir)
        let copy = dir.url("short.sqlite").path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count - 512).write(to: URL(fileURLWithPath: copy))
        XCTAssertThrowsError(try DatabasePages(path: copy)) { XCTAssertTrue($0 is UnreadablePages, "\($0)") }
        _ = try Oracle.sqlite3Script(path, "PRAGMA journal_mode = WAL;")
        XCTAssertThrowsError(try DatabasePages(path: path)) {
            XCTAssertTrue("\($0)".contains("rollback-journal"), "\($0)")
        }
    }
}
