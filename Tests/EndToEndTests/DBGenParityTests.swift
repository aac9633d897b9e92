import Foundation
import ShipyardTestSupport
import XCTest

/// Differential tests: `dbgen SCHEMA -o OUT` builds the same content as `sqlite3 OUT < SCHEMA`
/// (the oracle), compared through sqlite3 itself: schema, every row with its type, user_version.
final class DBGenParityTests: XCTestCase {
    /// A script exercising the SQL layout rules of the shell.
    static let layoutCorpus = """
        -- Parity corpus: SQL layout.
        PRAGMA user_version = 42;
        CREATE TABLE "t;x" (id INTEGER PRIMARY KEY, s TEXT, r REAL, b BLOB, n NUMERIC);
        INSERT INTO "t;x" (s, r, b, n) VALUES ('semi;colon', 1.5, X'00FF', '12'),
          ('it''s -- not a comment', 2.0, NULL, '1.0'),
            ('/* not a comment */', -0.0, x'', 'abc'),
          ('multi
        line; string', 1e300, zeroblob(3), 7);
        /* block comment
           spanning lines; with semicolons; */
        CREATE TABLE kv (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
        CREATE TABLE st (a INTEGER, b TEXT, c ANY) STRICT;
        INSERT INTO st VALUES (1, 'x', 2.5), (2, 'y', X'01'), (3, 'z', '3');
        INSERT INTO kv VALUES ('b', 2), ('a', 1);   -- trailing comment; with semicolon
        # hash comment line
        CREATE TABLE log (msg TEXT);
        CREATE TRIGGER kv_ins AFTER INSERT ON kv BEGIN
          INSERT INTO log VALUES ('inserted ' || new.k || ';');
          INSERT INTO log VALUES ('end;');
        END;
        INSERT INTO kv VALUES ('c', 3);
        CREATE VIEW v AS SELECT k, v * 2 AS doubled FROM kv
          WHERE v > 1;
        CREATE INDEX idx_st ON st (b DESC, a);
        CREATE UNIQUE INDEX "idx ünï" ON "t;x"(s);
        CREATE TABLE "żółw" ("ключ" TEXT, "値" INTEGER, [a;b] TEXT, `c"d` TEXT);
        INSERT INTO "żółw" VALUES ('🐢', 1, '[;]', '`;`');
        SELECT 1; SELECT 2;
        INSERT INTO log
          SELECT 'multi'
          || 'line' ;
        .headers on
        .nullvalue NULL
        .bail off
        CREATE TABLE seq (id INTEGER PRIMARY KEY AUTOINCREMENT, x);
        INSERT INTO seq (x) VALUES (1), (2);
        INSERT INTO log VALUES ('go')
        go
        INSERT INTO log VALUES ('slash')
        /

        """

    private func assertParity(
        files: [String: String], schema: String = "schema.txt",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let root = try TemporaryDirectory("dbgen-parity", removedAfter: self).url
        let dbgenDir = root.appendingPathComponent("dbgen"), shellDir = root.appendingPathComponent("sqlite3")
        for (name, text) in files {
            // {DIR} marks paths that dbgen resolves against the naming script and sqlite3 against its cwd.
            try DBGenTestSupport.write(text.replacingOccurrences(of: "{DIR}", with: ""), to: name, in: dbgenDir)
            try DBGenTestSupport.write(text.replacingOccurrences(of: "{DIR}", with: "sub/"), to: name, in: shellDir)
        }
        let oracle = try DBGenTestSupport.sqlite3Build(schema: schema, output: "out.sqlite", in: shellDir)
        XCTAssertEqual(oracle.stderrText, "", "the corpus must be error-free for sqlite3", file: file, line: line)
        let built = try DBGenTestSupport.dbgen([schema, "-o", "out.sqlite"], in: dbgenDir)
        XCTAssertEqual(built.status, 0, built.stderrText, file: file, line: line)
        let expected = try DBGenTestSupport.content(of: shellDir.appendingPathComponent("out.sqlite"))
        let actual = try DBGenTestSupport.content(of: dbgenDir.appendingPathComponent("out.sqlite"))
        XCTAssertFalse(expected.isEmpty, file: file, line: line)
        XCTAssertEqual(actual, expected, file: file, line: line)
        let integrity = try DBGenTestSupport.query(
            dbgenDir.appendingPathComponent("out.sqlite"), "PRAGMA integrity_check;")
        XCTAssertEqual(integrity, "ok\n", file: file, line: line)
    }

    func testSQLLayoutMatchesSqlite3() throws {
        try assertParity(files: ["schema.txt": Self.layoutCorpus])
    }

    func testCRLFScriptMatchesSqlite3() throws {
        try assertParity(files: ["schema.txt": Self.layoutCorpus.replacingOccurrences(of: "\n", with: "\r\n")])
    }

    func testNestedReadInSubdirectoryMatchesSqlite3() throws {
        try assertParity(files: [
            "schema.txt": """
            CREATE TABLE base (x);
            .read sub/inner.txt
            INSERT INTO base SELECT count(*) FROM nested;
            PRAGMA user_version = 3;

            """,
            "sub/inner.txt": """
            CREATE TABLE nested (y);
            INSERT INTO nested VALUES (1), ('two');
            .read {DIR}deeper/more.txt
            INSERT INTO nested VALUES (3.5);
            """,
            "sub/deeper/more.txt": "CREATE VIEW nested_view AS SELECT * FROM nested;\n",
        ])
    }

    func testQuitStopsReadingLikeSqlite3() throws {
        try assertParity(files: ["schema.txt": "CREATE TABLE kept (x);\n.quit\nCREATE TABLE never (x);\n"])
    }

    func testFoodWorkflowWithImportMatchesSqlite3() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let schema = try String(contentsOf: repo.appendingPathComponent("schema/schema.txt"), encoding: .utf8)
        let csv = try String(contentsOf: repo.appendingPathComponent("schema/food.csv"), encoding: .utf8)
        try assertParity(files: ["schema.txt": schema, "food.csv": csv])
    }

    func testUserTemplateMatchesSqlite3() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        try assertParity(files: [
            "schema.txt": try String(contentsOf: repo.appendingPathComponent("schema/user.txt"), encoding: .utf8)
        ])
    }

    func testImportVariantsMatchSqlite3() throws {
        try assertParity(files: [
            "schema.txt": """
            CREATE TABLE typed (a INTEGER, b REAL, c TEXT);
            .import --csv --skip 1 data/header.csv typed
            .import --csv data/header.csv fresh
            .mode tabs
            .import data/tabs.tsv typed
            .mode list
            .separator "\\t" \\n
            .import data/tabs.tsv typed
            .separator ;
            .import 'data/semi colon.txt' typed
            .read sub/inner.txt
            """,
            "data/header.csv": "a,b,c\n1,2.5,\"x, \"\"quoted\"\"\"\n2,,\n",
            "data/tabs.tsv": "3\t4\tfive\n6\t7.0\teight\n",
            "data/semi colon.txt": "9;10;ten\n",
            "sub/inner.txt": ".mode csv\n.separator |\n.import {DIR}rows.psv typed\n",
            "sub/rows.psv": "11|12|\"pipe | inside\"\n",
        ])
    }

    /// Explicit transactions in a script keep their meaning: a ROLLBACK (and ROLLBACK TO a
    /// savepoint) undoes its rows, as in sqlite3 (with journal_mode=OFF it would not).
    func testRollbackInScriptMatchesSqlite3() throws {
        try assertParity(files: [
            "schema.txt": """
            CREATE TABLE t (x);
            BEGIN;
            INSERT INTO t VALUES (1);
            ROLLBACK;
            INSERT INTO t VALUES (2);
            SAVEPOINT s1;
            INSERT INTO t VALUES (3);
            ROLLBACK TO s1;
            RELEASE s1;
            INSERT INTO t VALUES (4);
            """
        ])
    }

    /// The shell's side effects carry from one `.import` to the next: importing in csv mode turns
    /// its "\r\n" row separator into "\n" for good, so a later `.mode tabs` import works (it
    /// would fail with "multi-character row separators" otherwise).
    func testImportSettingsCarryOverLikeSqlite3() throws {
        try assertParity(files: [
            "schema.txt": """
            CREATE TABLE a (x, y);
            CREATE TABLE b (x, y);
            .mode csv
            .import one.csv a
            .mode tabs
            .import two.tsv b
            """,
            "one.csv": "1,2\r\n3,4\r\n",
            "two.tsv": "5\t6\n7\t8\n",
        ])
    }
}
