@testable import DBGenKit
import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// dbgen diff on hand-made pairs: exact REALs, type changes, schema changes beyond sqldiff,
/// FTS5, triggers, --table, errors.
final class DiffCaseTests: XCTestCase {
    private func pair(_ old: String, _ new: String) throws -> (String, String, TemporaryDirectory) {
        let dir = try TemporaryDirectory("diff case", removedAfter: self)
        let oldPath = dir.url("old.sqlite").path, newPath = dir.url("new.sqlite").path
        _ = try Oracle.sqlite3Script(oldPath, old)
        _ = try Oracle.sqlite3Script(newPath, new)
        return (oldPath, newPath, dir)
    }

    /// Applies dbgen's patch to a copy of OLD and checks the content is NEW's.
    @discardableResult
    private func assertRoundTrip(
        _ old: String, _ new: String, dir: TemporaryDirectory, table: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let patch = try DiffTestSupport.patch(old, new, table: table)
        let patched = try DiffTestSupport.applied(patch, to: old, copy: dir.url("patched.sqlite").path)
        assertSameContent(
            try DatabaseContent.dump(patched), try DatabaseContent.dump(new), "patched OLD vs NEW", file: file,
            line: line)
        return patch
    }

    func testRealsComeBackBitForBitWhereSqldiffRoundsThem() throws {
        let (old, new, dir) = try pair(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, r REAL, x); INSERT INTO t VALUES (1, 1.0, 1), (2, 2.0, 2), (3, 0.0, 3);",
            """
            CREATE TABLE t(id INTEGER PRIMARY KEY, r REAL, x);
            INSERT INTO t VALUES (1, 256.09000000000003, 1.0), (2, 0.1 + 0.2, '2'), (3, -0.0, x'33'), (4, 1e308 * 10, 5e-324);
            """)
        let patch = try assertRoundTrip(old, new, dir: dir)
        XCTAssertTrue(patch.contains("256.09000000000003"), patch)
        let theirs = try DiffTestSupport.sqldiffPatch(old, new)
        XCTAssertTrue(
            theirs.contains("256.09") && !theirs.contains("256.09000000000003"),
            "sqldiff rounds to 15 digits: \(theirs)")
        XCTAssertTrue(patch.contains("x=1.0"), "1 → 1.0 is a change: \(patch)")
    }

    func testExactRealLiteralFallbackIsExact() throws {
        let db = try Connection(uri: "file::memory:?mode=memory")
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<2000 {
            var value = Double(bitPattern: generator.next())
            if !value.isFinite || value == 0 { value = .leastNonzeroMagnitude } // 5e-324
            let expression = "SELECT " + SQLLiteralWriter.powerOfTwoProduct(value)
            guard case .real(let parsed)? = try db.scalar(expression) else { return XCTFail(expression) }
            XCTAssertEqual(parsed.bitPattern, value.bitPattern, expression)
        }
    }

    func testSchemaChangesBeyondSqldiff() throws {
        let (old, new, dir) = try pair(
            """
            CREATE TABLE a(id INTEGER PRIMARY KEY, v TEXT); INSERT INTO a VALUES (1, 'x'), (2, 'y');
            CREATE TABLE b(k TEXT PRIMARY KEY, v) WITHOUT ROWID; INSERT INTO b VALUES ('k', 1);
            CREATE TABLE gone(x); INSERT INTO gone VALUES (1);
            CREATE INDEX a_v ON a(v); CREATE VIEW va AS SELECT v FROM a;
            CREATE TABLE audit(what); CREATE TRIGGER a_ins AFTER INSERT ON a BEGIN INSERT INTO audit VALUES ('ins'); END;
            PRAGMA user_version = 1;
            """,
            """
            CREATE TABLE a(id INTEGER PRIMARY KEY, v INTEGER NOT NULL DEFAULT 0, w GENERATED ALWAYS AS (v * 2) STORED);
            INSERT INTO a(id, v) VALUES (1, 10), (3, 30);
            CREATE TABLE b(k TEXT PRIMARY KEY, v);  INSERT INTO b VALUES ('k', 1), ('l', 2);
            CREATE INDEX a_v ON a(v DESC); CREATE VIEW va AS SELECT v, w FROM a;
            CREATE TABLE audit(what); CREATE TRIGGER a_ins AFTER INSERT ON a BEGIN INSERT INTO audit VALUES ('ins'); END;
            CREATE TABLE "new table"("a b" INTEGER PRIMARY KEY AUTOINCREMENT, c); INSERT INTO "new table"(c) VALUES (1), (2);
            PRAGMA user_version = 2;
            """)
        let patch = try assertRoundTrip(old, new, dir: dir)
        XCTAssertTrue(patch.contains("DROP TABLE gone;"), patch)
        XCTAssertTrue(patch.contains("PRAGMA user_version=2;"), patch)
    }

    /// `sqlite_sequence` is rewritten when an AUTOINCREMENT table changed, as SQLite's program
    /// for an insert tells it, not when the word is only a column's name, a default or a comment.
    func testSequenceFollowsAutoincrementTablesNotTheWord() throws {
        let schema = """
            CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT, a); INSERT INTO counted(a) VALUES (1), (2);
            CREATE TABLE words(id INTEGER PRIMARY KEY, "AUTOINCREMENT" DEFAULT 'AUTOINCREMENT' /* AUTOINCREMENT */);
            """
        let (old, new, dir) = try pair(
            schema + "INSERT INTO words VALUES (1, 'x');",
            schema + "INSERT INTO words VALUES (1, 'y');")
        let patch = try assertRoundTrip(old, new, dir: dir)
        XCTAssertTrue(patch.contains(#"UPDATE words SET "AUTOINCREMENT"='y' WHERE id=1;"#), patch)
        XCTAssertFalse(patch.contains("sqlite_sequence"), patch)
        let (old2, new2, dir2) = try pair(schema, schema + "DELETE FROM counted WHERE id = 2;")
        let rewritten = try assertRoundTrip(old2, new2, dir: dir2)
        XCTAssertTrue(rewritten.contains("DELETE FROM sqlite_sequence;"), rewritten)
    }

    func testTriggersDoNotFireWhileRowsChange() throws {
        let (old, new, dir) = try pair(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, v); CREATE TABLE log(x); CREATE TRIGGER t_u AFTER UPDATE ON t BEGIN INSERT INTO log VALUES (new.v); END; INSERT INTO t VALUES (1, 'a');",
            "CREATE TABLE t(id INTEGER PRIMARY KEY, v); CREATE TABLE log(x); CREATE TRIGGER t_u AFTER UPDATE ON t BEGIN INSERT INTO log VALUES (new.v); END; INSERT INTO t VALUES (1, 'b');"
        )
        let patch = try assertRoundTrip(old, new, dir: dir)
        XCTAssertTrue(patch.contains("DROP TRIGGER t_u;"), patch)
    }

    func testFTS5TablesAndTheirShadowTables() throws {
        let (old, new, dir) = try pair(
            """
            CREATE VIRTUAL TABLE docs USING fts5(title, body);
            INSERT INTO docs VALUES ('one', 'alpha beta'), ('two', 'gamma delta');
            CREATE VIRTUAL TABLE dropped USING fts5(x);
            """,
            """
            CREATE VIRTUAL TABLE docs USING fts5(title, body);
            INSERT INTO docs VALUES ('one', 'alpha beta'), ('two', 'gamma delta'), ('three', 'epsilon');
            DELETE FROM docs WHERE title = 'one';
            CREATE VIRTUAL TABLE fresh USING fts5(a, tokenize = 'porter');
            INSERT INTO fresh VALUES ('running dogs');
            """)
        let patch = try assertRoundTrip(old, new, dir: dir)
        XCTAssertTrue(patch.contains("CREATE VIRTUAL TABLE fresh"), patch)
        XCTAssertTrue(patch.contains("DROP TABLE dropped;"), patch)
        let patched = dir.url("patched.sqlite").path
        XCTAssertEqual(
            try Oracle.sqlite3Script(
                patched,
                "SELECT title FROM docs WHERE docs MATCH 'epsilon'; SELECT count(*) FROM fresh WHERE fresh MATCH 'run'; INSERT INTO docs(docs) VALUES ('integrity-check');"
            ), "three\n1\n")
    }

    func testTableOptionLimitsTheDiff() throws {
        let (old, new, dir) = try pair(
            "CREATE TABLE a(x); CREATE TABLE b(y); INSERT INTO a VALUES (1); INSERT INTO b VALUES (1);",
            "CREATE TABLE a(x); CREATE TABLE b(y); INSERT INTO a VALUES (2); INSERT INTO b VALUES (2); PRAGMA user_version = 9;"
        )
        let patch = try DiffTestSupport.patch(old, new, table: "b")
        XCTAssertEqual(patch, "BEGIN TRANSACTION;\nUPDATE b SET y=2 WHERE rowid=1;\nCOMMIT;\n")
        XCTAssertThrowsError(try DatabaseDiff(oldPath: old, newPath: new, table: "nope")) {
            XCTAssertEqual($0 as? DBGenError, DBGenError(.noSuchTable, "no such table in either database: nope"))
        }
        _ = dir
    }

    func testIdenticalDatabasesGiveAnEmptyPatch() throws {
        let script = "CREATE TABLE a(x REAL); INSERT INTO a VALUES (0.1), (-0.0); PRAGMA user_version = 3;"
        let (old, new, _) = try pair(script, script)
        XCTAssertEqual(try DiffTestSupport.patch(old, new), "")
    }

    func testBadInputsNameTheFile() throws {
        let dir = try TemporaryDirectory("diff errors", removedAfter: self)
        let good = dir.url("good.sqlite").path
        _ = try Oracle.sqlite3Script(good, "CREATE TABLE a(x);")
        let text = try dir.write("text.sqlite", String(repeating: "not a database\n", count: 100)).path
        XCTAssertThrowsError(try DatabaseDiff(oldPath: dir.url("missing.sqlite").path, newPath: good)) {
            XCTAssertEqual(($0 as? DBGenError)?.description, "\(dir.url("missing.sqlite").path): error: no such file")
        }
        XCTAssertThrowsError(try DatabaseDiff(oldPath: good, newPath: text)) {
            let error = $0 as? DBGenError
            XCTAssertEqual(error?.code, .unreadableDatabase)
            XCTAssertEqual(error?.location, SourceLocation(file: text))
            XCTAssertTrue(error?.description.hasPrefix("\(text): error: not a SQLite database (") ?? false, "\($0)")
        }
        XCTAssertThrowsError(try DatabaseDiff(oldPath: good, newPath: dir.path)) {
            let error = $0 as? DBGenError
            XCTAssertEqual(error?.code, .unreadableDatabase)
            XCTAssertEqual(error?.description, "\(dir.path): error: not a SQLite database (not a regular file)")
        }
    }

    func testTableWhoseRowidIsHiddenIsRewrittenWholeAsSqldiffDoes() throws {
        let (old, new, dir) = try pair(
            "CREATE TABLE hidden(rowid, _rowid_, oid); INSERT INTO hidden VALUES (1, 2, 3), (4, 5, 6); CREATE TABLE same(rowid, _rowid_, oid); INSERT INTO same VALUES (1, 1, 1);",
            "CREATE TABLE hidden(rowid, _rowid_, oid); INSERT INTO hidden VALUES (1, 2, 4), (4, 5, 6); CREATE TABLE same(rowid, _rowid_, oid); INSERT INTO same VALUES (1, 1, 1);"
        )
        let patch = try assertRoundTrip(old, new, dir: dir)
        XCTAssertTrue(
            patch.contains("DELETE FROM hidden;\nINSERT INTO hidden(rowid,_rowid_,oid) VALUES(1,2,4);"), patch)
        XCTAssertFalse(patch.contains("same"), "an unchanged keyless table is left alone: \(patch)")
        XCTAssertEqual(
            try DatabaseDiff(oldPath: old, newPath: new).summary(),
            try DiffTestSupport.sqldiffPatch(old, new, summary: true))
    }

    func testStatisticsTablesAreCarried() throws {
        let (old, new, dir) = try pair(
            "CREATE TABLE t(a, b); CREATE INDEX t_a ON t(a); INSERT INTO t VALUES (1, 2), (1, 3), (2, 4);",
            "CREATE TABLE t(a, b); CREATE INDEX t_a ON t(a); INSERT INTO t VALUES (1, 2), (1, 3), (2, 4); ANALYZE;")
        let patch = try assertRoundTrip(old, new, dir: dir)
        XCTAssertTrue(patch.contains("ANALYZE sqlite_master;"), patch)
    }
}
