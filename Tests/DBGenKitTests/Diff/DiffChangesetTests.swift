import DBGenKit
import Foundation
import SQLiteCore
import SQLiteSession
import ShipyardTestSupport
import XCTest

/// `--changeset`: applied with sqlite3changeset_apply (the session extension is the oracle),
/// OLD's rows become NEW's.
final class DiffChangesetTests: XCTestCase {
    func testChangesetAppliedToOldGivesNewsRows() throws {
        let dir = try TemporaryDirectory("changeset", removedAfter: self)
        let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
        let schema = """
            CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, r REAL, b BLOB);
            CREATE TABLE pairs(k TEXT, n INTEGER, v, PRIMARY KEY(k, n)) WITHOUT ROWID;
            """
        _ = try Oracle.sqlite3Script(
            old,
            schema + """
                INSERT INTO items VALUES (1, 'a', 1.5, x'00'), (2, 'b', 2.5, NULL), (3, 'c', 3.5, x'ff');
                INSERT INTO pairs VALUES ('x', 1, 'one'), ('y', 2, 'two');
                """)
        _ = try Oracle.sqlite3Script(
            new,
            schema + """
                INSERT INTO items VALUES (1, 'a', 256.09000000000003, x'00'), (3, 'C', 3.5, x'ff'), (4, 'd', -0.0, x'0102');
                INSERT INTO pairs VALUES ('x', 1, 1), ('z', 3, 'three');
                """)
        let changeset = try DatabaseDiff(oldPath: old, newPath: new).changeset()
        XCTAssertFalse(changeset.isEmpty)
        XCTAssertEqual(try DatabaseDiff(oldPath: old, newPath: new).changeset(), changeset, "same pair, same bytes")
        let copy = dir.url("copy.sqlite").path
        try FileManager.default.copyItem(atPath: old, toPath: copy)
        let connection = try Connection(path: copy)
        try Changeset.apply(changeset, to: connection)
        connection.close()
        assertSameContent(
            try DatabaseContent.dump(copy), try DatabaseContent.dump(new), "changeset applied to OLD vs NEW")
    }

    func testSchemaDifferenceAndKeylessTableAreErrorsNamingTheTable() throws {
        let dir = try TemporaryDirectory("changeset errors", removedAfter: self)
        let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path, other = dir.url("other.sqlite").path
        _ = try Oracle.sqlite3Script(
            old, "CREATE TABLE keyless(x); INSERT INTO keyless VALUES (1); CREATE TABLE k(id INTEGER PRIMARY KEY);")
        _ = try Oracle.sqlite3Script(
            new, "CREATE TABLE keyless(x); INSERT INTO keyless VALUES (2); CREATE TABLE k(id INTEGER PRIMARY KEY);")
        _ = try Oracle.sqlite3Script(
            other, "CREATE TABLE keyless(x); INSERT INTO keyless VALUES (1); CREATE TABLE k(id INTEGER PRIMARY KEY, v);"
        )
        XCTAssertThrowsError(try DatabaseDiff(oldPath: old, newPath: new).changeset()) {
            XCTAssertEqual(
                $0 as? DBGenError,
                DBGenError(
                    .unsupported,
                    "keyless: a changeset cannot carry the rows of a table without a declared PRIMARY KEY; use the SQL patch"
                ))
        }
        XCTAssertThrowsError(try DatabaseDiff(oldPath: old, newPath: other).changeset()) {
            XCTAssertEqual(
                $0 as? DBGenError,
                DBGenError(
                    .unsupported, "k: a changeset cannot carry a schema difference (table changed); use the SQL patch"))
        }
        XCTAssertNoThrow(try DatabaseDiff(oldPath: old, newPath: new, table: "k").changeset())
    }
}
