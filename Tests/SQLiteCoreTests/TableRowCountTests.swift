import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// `Connection.rowCount(ofTable:)`, counted from the B-tree's page headers, against SQLite's
/// `count(*)`: rowid tables of one page and of several levels (small pages, overflow pages),
/// a WITHOUT ROWID table (whose interior cells are rows too), an empty table, after deletes;
/// nil where it cannot count (a virtual table, no such table, in memory).
final class TableRowCountTests: XCTestCase {
    func testCountsAgreeWithSQLite() throws {
        let directory = try TemporaryDirectory("row-count")
        let connection = try Connection(path: directory.url("db.sqlite").path, create: true)
        try connection.execute(
            """
            PRAGMA page_size=512;
            CREATE TABLE empty(a);
            CREATE TABLE one(a); INSERT INTO one VALUES(1), (2), (3);
            CREATE TABLE big(a, b);
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20000)
            INSERT INTO big SELECT x, CASE WHEN x % 97 = 0 THEN randomblob(3000) ELSE x * 3 END FROM n;
            CREATE TABLE keyed(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 9000)
            INSERT INTO keyed SELECT printf('key %08d', x), x FROM n;
            DELETE FROM big WHERE a % 3 = 0;
            CREATE VIRTUAL TABLE words USING fts5(w);
            """)
        for table in ["empty", "one", "big", "keyed"] {
            let expected = try connection.scalar("SELECT count(*) FROM \(table)")
            XCTAssertEqual(try connection.rowCount(ofTable: table).map { .integer($0) }, expected, table)
        }
        XCTAssertNil(try connection.rowCount(ofTable: "words"))
        XCTAssertNil(try connection.rowCount(ofTable: "missing"))
        // The connection goes on as before.
        try connection.execute("INSERT INTO one VALUES(4)")
        XCTAssertEqual(try connection.rowCount(ofTable: "one"), 4)
        XCTAssertEqual(try connection.scalar("PRAGMA integrity_check"), .text("ok"))
    }

    func testNothingToCountInMemory() throws {
        let memory = try Connection(uri: "file::memory:?mode=memory")
        try memory.execute("CREATE TABLE t(a); INSERT INTO t VALUES(1)")
        XCTAssertNil(try memory.rowCount(ofTable: "t"))
    }
}
