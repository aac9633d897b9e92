import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen` builds a user template whose script declares synced tables with the capture in it
/// (writes made afterwards with the sqlite3 shell, the oracle, are queued), refuses a refused
/// declaration at the script line that wrote it, naming the table, and builds a script that
/// declares nothing exactly as before.
final class DBGenSyncTemplateTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory("dbgen-sync", removedAfter: self)
    }

    private let tables = """
        CREATE TABLE list (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL DEFAULT '', owner TEXT);
        CREATE TABLE item (id TEXT PRIMARY KEY NOT NULL, list_id TEXT NOT NULL REFERENCES list(id) ON DELETE CASCADE,
                           name TEXT NOT NULL DEFAULT '', done INTEGER NOT NULL DEFAULT 0,
                           quantity INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);

        """
    private let declarations = """
        INSERT INTO shipyard_sync VALUES ('list', NULL, 'last-edit-wins'), ('list', 'owner', 'keep-server'),
                                         ('item', NULL, 'last-edit-wins'), ('item', 'quantity', 'counter');

        """

    private func dbgen(_ arguments: [String]) throws -> ProcessResult {
        try DBGenTestSupport.dbgen(arguments, in: directory.url)
    }

    private func query(_ name: String, _ sql: String) throws -> String {
        try DBGenTestSupport.query(directory.url(name), sql)
    }

    func testTheTemplateCarriesTheCaptureAndSqlite3WritesAreQueued() throws {
        try directory.write("user.sql", tables + declarations)
        let build = try dbgen(["user.sql", "-o", "user.sqlite"])
        XCTAssertEqual(build.status, 0, build.stderrText)
        XCTAssertEqual(
            try query(
                "user.sqlite", "SELECT device_id IS NULL, cursor, next_batch, applying FROM shipyard_sync_state;"),
            "1|0|1|0\n", "no device id in a template: every device copies it")
        XCTAssertEqual(try query("user.sqlite", "PRAGMA journal_mode;"), "delete\n", "sealed as any template")
        XCTAssertEqual(try query("user.sqlite", "SELECT count(*) FROM shipyard_sync_outbox;"), "0\n")
        _ = try query(
            "user.sqlite",
            """
            PRAGMA foreign_keys = ON;
            INSERT INTO list VALUES ('L1', 'Groceries', NULL);
            INSERT INTO item (id, list_id, name, quantity) VALUES ('I1', 'L1', 'milk', 2), ('I2', 'L1', 'eggs', 0);
            UPDATE item SET quantity = quantity + 1, name = 'oat milk' WHERE id = 'I1';
            DELETE FROM list;
            """)
        XCTAssertEqual(
            try query("user.sqlite", "SELECT tbl, pk, col, op, delta FROM shipyard_sync_outbox ORDER BY tbl, pk, col;"),
            "item|I1||0|\nitem|I2||0|\nlist|L1||0|\n")
        // `dbgen check` reads such a script as any other.
        let fresh = try dbgen(["user.sql", "-o", "fresh.sqlite"])
        XCTAssertEqual(fresh.status, 0, fresh.stderrText)
        let check = try dbgen(["check", "user.sql", "-o", "fresh.sqlite"])
        XCTAssertEqual(check.status, 0, check.stderrText + check.stdoutText)
    }

    func testAScriptThatDeclaresNothingBuildsAsSqlite3Does() throws {
        for (name, script) in [
            ("plain.sql", tables),
            ("other.sql", "CREATE TABLE t (id INTEGER PRIMARY KEY, v);\nINSERT INTO t VALUES (1, 'a');\n"),
        ] {
            try directory.write(name, script)
            let output = name + ".sqlite"
            XCTAssertEqual(try dbgen([name, "-o", output]).status, 0)
            let oracle = try DBGenTestSupport.sqlite3Build(
                schema: name, output: name + ".oracle.sqlite", in: directory.url)
            XCTAssertEqual(oracle.status, 0, oracle.stderrText)
            XCTAssertEqual(
                try DBGenTestSupport.content(of: directory.url(output)),
                try DBGenTestSupport.content(of: directory.url(name + ".oracle.sqlite")))
        }
    }

    /// Each refusal: exit 1, `FILE:LINE: error:` at the statement that inserted the declaration,
    /// naming the table, and no output written.
    func testRefusedDeclarationsAreReportedAtTheirLineNamingTheTable() throws {
        let cases: [(script: String, line: Int, says: String)] = [
            (
                "CREATE TABLE t (id INTEGER PRIMARY KEY, a);\n", 4,
                "table \"t\": its key id is a bare INTEGER PRIMARY KEY"
            ),
            (
                "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, a);\n", 4,
                "table \"t\": its key id is AUTOINCREMENT"
            ),
            ("CREATE TABLE t (a, b);\n", 4, "table \"t\": the table has no PRIMARY KEY"),
            (
                "CREATE TABLE t (a TEXT NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a, b));\n", 4,
                "table \"t\": its PRIMARY KEY has 2 columns"
            ),
            ("CREATE TABLE u (id TEXT PRIMARY KEY NOT NULL);\n", 4, "table \"t\": no such table"),
            (
                "CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, n TEXT);\n", 5,
                "table \"t\", column \"n\": a counter column needs INTEGER affinity"
            ),
            ("CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, a);\n", 5, "table \"t\", column \"n\": no such column"),
            ("CREATE TABLE t (id TEXT PRIMARY KEY NOT NULL, n INTEGER);\n", 6, "table \"t\": unknown rule 'newest'"),
        ]
        for (index, entry) in cases.enumerated() {
            // Line 2: the declaration table; 4: the table's row; 5: a counter on n; 6: a bad rule.
            let script =
                entry.script
                + "CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);\n"
                + "\n" + "INSERT INTO shipyard_sync VALUES ('t', NULL, 'last-edit-wins');\n"
                + (entry.line >= 5 ? "INSERT INTO shipyard_sync VALUES ('t', 'n', 'counter');\n" : "")
                + (entry.line == 6 ? "INSERT INTO shipyard_sync\n  VALUES ('t', NULL, 'newest');\n" : "")
            let name = "bad\(index).sql"
            try directory.write(name, script)
            let result = try dbgen([name, "-o", "bad\(index).sqlite"])
            XCTAssertEqual(result.status, 1, script)
            XCTAssertTrue(
                result.stderrText.hasPrefix("\(name):\(entry.line):1: error: shipyard_sync: \(entry.says)"),
                "\(script)\n→ \(result.stderrText)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url("bad\(index).sqlite").path))
        }
    }

    /// A refused declaration leaves an existing output exactly as it was.
    func testARefusalLeavesTheOutputAsItWas() throws {
        try directory.write("user.sql", tables + declarations)
        XCTAssertEqual(try dbgen(["user.sql", "-o", "user.sqlite"]).status, 0)
        let before = DBGenTestSupport.bytes(directory.url("user.sqlite"))
        try directory.write(
            "user.sql", tables + declarations + "INSERT INTO shipyard_sync VALUES ('nope', NULL, 'reject');\n")
        let result = try dbgen(["user.sql", "-o", "user.sqlite"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderrText.contains("user.sql:8:1: error: shipyard_sync: table \"nope\": no such table"),
            result.stderrText)
        XCTAssertEqual(DBGenTestSupport.bytes(directory.url("user.sqlite")), before)
    }
}
