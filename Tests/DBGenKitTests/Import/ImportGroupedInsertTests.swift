@testable import DBGenKit
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// `.import` inserts runs of records with one multi-row INSERT (``ImportGroupedInsert``):
/// files long enough to fill several groups, compared with the sqlite3 3.40 CLI (which inserts
/// one row per statement), including failures in the middle of a group and the cases where
/// grouping would change the outcome and must not be used.
final class ImportGroupedInsertTests: XCTestCase {
    private let food = #"CREATE TABLE "food" ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT, "kcal" REAL);"#
    private let csvPipe: [ImportScriptCommand] = [.mode(["csv"]), .separator("|", nil), .import(file: "data.csv", table: "food", options: [])]
    /// What the connection says right after the import (kept in a table so both sides dump it).
    private let afterImport = "CREATE TABLE after_import AS SELECT changes() AS changes, last_insert_rowid() AS rowid;"

    /// `count` food records; `line(n)` replaces record n (1-based) when it returns a string.
    private func foodFile(_ count: Int, _ line: (Int) -> String? = { _ in nil }) -> String {
        let values = ["12", " 7", "1e3", "x", "", "0x10", "3.0", "\"a|b\"", "\"say \"\"hi\"\"\"", "-0"]
        return (1...count).map { n in
            line(n) ?? "\(n)|\(values[n % values.count])|name \(n)|\(values[(n * 7) % values.count])|\(values[(n * 3) % values.count])"
        }.joined(separator: "\n") + "\n"
    }

    private func check(_ testCase: ImportCase, file: StaticString = #filePath, line: UInt = #line) throws {
        try ImportDifferentialHarness.assertSameAsSQLite3(testCase, file: file, line: line)
    }

    private func checkStops(_ testCase: ImportCase, file: StaticString = #filePath, line: UInt = #line) throws {
        try ImportDifferentialHarness.assertSameAsSQLite3(testCase, expectingError: true, file: file, line: line)
    }

    func testFoodTableIsGroupedAndTheRowsAndWarningsMatchSQLite3() throws {
        // The plain food table does take the grouped path (else this test proves nothing).
        let directory = try TemporaryDirectory("grouped-insert", removedAfter: self)
        let db = try ImportDifferentialHarness.open(directory.url("probe.sqlite"))
        try ImportDifferentialHarness.exec(db, food)
        let group = try XCTUnwrap(ImportGroupedInsert.prepare(connection: db, table: "food", schema: nil,
                                                              qualifiedTable: "\"food\"", columnCount: 5))
        XCTAssertEqual(group.rows, ImportGroupedInsert.maximumRows)

        // Short and long records in the middle of groups flush them; changes() is 1 afterwards.
        let file = foodFile(700) { n in
            switch n {
            case 100: return "100|1"
            case 333: return "333|2|a|b|4|extra|more"
            case 334: return "334|3"
            default: return nil
            }
        }
        try check(ImportCase("grouped-food", setupSQL: food, file: file, commands: csvPipe, finalSQL: afterImport))
    }

    func testRecordCountsAroundTheGroupSizeMatchSQLite3() throws {
        for count in [63, 64, 65, 66, 128, 129, 130, 2047, 2048, 2049, 4097] {
            try check(ImportCase("grouped-\(count)", setupSQL: food, file: foodFile(count), commands: csvPipe,
                                 finalSQL: afterImport))
        }
    }

    func testFailedInsertInsideAGroupNamesTheRecordAndMessageLikeSQLite3() throws {
        try checkStops(ImportCase("duplicate-in-group", setupSQL: food,
                                  file: foodFile(400) { $0 == 150 ? "20|1|dup|dup|1" : nil }, commands: csvPipe))
        try checkStops(ImportCase("not-null-in-group", setupSQL: "CREATE TABLE food(a, b, c, d, e NOT NULL);",
                                  file: foodFile(400) { $0 == 200 ? "200|1" : nil }, commands: csvPipe))
        try checkStops(ImportCase("rowid-mismatch-in-group", setupSQL: food,
                                  file: foodFile(400) { $0 == 170 ? "abc|1|2|3|4" : nil }, commands: csvPipe))
        try checkStops(ImportCase("check-in-group", setupSQL: "CREATE TABLE food(a, b, c, d, e CHECK (e <> 'stop'));",
                                  file: foodFile(400) { $0 == 250 ? "250|1|2|3|stop" : nil }, commands: csvPipe))
    }

    func testFailConflictClauseIsNotGrouped() throws {
        // FAIL keeps a failing statement's earlier rows: a group could not be replayed row by row.
        let table = "CREATE TABLE food(pk INTEGER PRIMARY KEY ON CONFLICT FAIL, b, c, d, e);"
        try checkStops(ImportCase("fail-clause", setupSQL: table,
                                  file: foodFile(400) { $0 == 150 ? "20|1|dup|dup|1" : nil }, commands: csvPipe))
    }

    func testTriggerRaisingFailIsNotGrouped() throws {
        let setup = food + " CREATE TRIGGER stop BEFORE INSERT ON food WHEN new.pk = 150 BEGIN SELECT RAISE(FAIL, 'stop here'); END;"
        try checkStops(ImportCase("trigger-fail", setupSQL: setup, file: foodFile(400), commands: csvPipe))
        let temporary = food + " CREATE TEMP TRIGGER stop BEFORE INSERT ON main.food WHEN new.pk = 150 BEGIN SELECT RAISE(FAIL, 'stop here'); END;"
        try checkStops(ImportCase("temp-trigger-fail", setupSQL: temporary, file: foodFile(400), commands: csvPipe))
    }

    func testImmediateForeignKeyToALaterRecordIsNotGrouped() throws {
        // Checked at the end of each statement: record 100 names record 101, not yet inserted.
        let setup = "PRAGMA foreign_keys=ON; CREATE TABLE food(pk INTEGER PRIMARY KEY, parent REFERENCES food(pk), c, d, e);"
        let file = (1...300).map { $0 == 100 ? "100|101|x|y|z" : "\($0)|\($0)|x|y|z" }.joined(separator: "\n") + "\n"
        try checkStops(ImportCase("foreign-key", setupSQL: setup, file: file, commands: csvPipe))
    }

    func testUnsafeTargetsAreRecognised() throws {
        let directory = try TemporaryDirectory("grouped-insert", removedAfter: self)
        let db = try ImportDifferentialHarness.open(directory.url("probe.sqlite"))
        try ImportDifferentialHarness.exec(db, """
            CREATE TABLE plain(a, b);
            CREATE TABLE failing(a UNIQUE ON CONFLICT FAIL, b);
            CREATE TABLE rolling(a, b, UNIQUE(a) ON CONFLICT ROLLBACK);
            CREATE VIEW v AS SELECT * FROM plain;
            CREATE TEMP TABLE plain(a, b);
            """)
        XCTAssertFalse(ImportGroupedInsert.isSafeTarget(connection: db, table: "plain", schema: nil), "same name in temp and main")
        XCTAssertTrue(ImportGroupedInsert.isSafeTarget(connection: db, table: "PLAIN", schema: "main"))
        XCTAssertTrue(ImportGroupedInsert.isSafeTarget(connection: db, table: "plain", schema: "temp"))
        XCTAssertFalse(ImportGroupedInsert.isSafeTarget(connection: db, table: "failing", schema: nil))
        XCTAssertFalse(ImportGroupedInsert.isSafeTarget(connection: db, table: "rolling", schema: nil))
        XCTAssertFalse(ImportGroupedInsert.isSafeTarget(connection: db, table: "v", schema: nil))
        try ImportDifferentialHarness.exec(db, "PRAGMA foreign_keys=ON")
        XCTAssertFalse(ImportGroupedInsert.isSafeTarget(connection: db, table: "plain", schema: "main"))
        try ImportDifferentialHarness.exec(db, "PRAGMA foreign_keys=OFF; CREATE TRIGGER t AFTER INSERT ON failing BEGIN SELECT 1; END;")
        XCTAssertFalse(ImportGroupedInsert.isSafeTarget(connection: db, table: "plain", schema: "main"), "a trigger in the schema")
    }
}
