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

    /// Fields bound as integers in INTEGER- and NUMERIC-affinity columns must be stored exactly as the
    /// shell's text bind is: integer-shaped text of every kind, in several groups, into every
    /// kind of column and table, compared with sqlite3.
    func testIntegerShapedFieldsAreStoredAsSQLite3StoresThem() throws {
        let values = ["0", "-1", "-", "--1", "1", "42", "123456789012345678", "-123456789012345678",
                      "1234567890123456789", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                      "007", "-0", "-00", "+3", " 4", "5 ", "1e2", "2.0", "\u{0663}", "1\u{0}2", "0x1F", ""]
        let file = (1...300).map { n in
            "\(n)," + (0..<7).map { column in "\"\(values[(n * (column + 3)) % values.count])\"" }.joined(separator: ",")
        }.joined(separator: "\n") + "\n"
        let commands: [ImportScriptCommand] = [.mode(["csv"]), .import(file: "data.csv", table: "t", options: [])]
        let columns = "a INTEGER, b int8, c POINT, d TEXT, e REAL, f DECIMAL(15,2), g"
        try check(ImportCase("integer-shaped", setupSQL: "CREATE TABLE t(pk INTEGER PRIMARY KEY, \(columns));",
                             file: file, commands: commands, finalSQL: afterImport))
        try check(ImportCase("integer-shaped-without-rowid",
                             setupSQL: "CREATE TABLE t(pk INTEGER PRIMARY KEY, \(columns)) WITHOUT ROWID;",
                             file: file, commands: commands))
        // A STRICT INT column refuses text it cannot convert: only values it takes there.
        let strictValues = ["0", "-1", "42", "123456789012345678", "1234567890123456789", "-9223372036854775808",
                            "007", "-0", " 4", "2.0", "+3"]
        let strictFile = (1...300).map { n in
            "\(n),\(strictValues[n % strictValues.count]),\(values[(n * 5) % values.count]),\(values[n % values.count])"
        }.joined(separator: "\n") + "\n"
        try check(ImportCase("integer-shaped-strict", setupSQL: "CREATE TABLE t(pk INTEGER PRIMARY KEY, a INT, b ANY, c TEXT) STRICT;",
                             file: strictFile, commands: commands))
    }

    func testIntegerAndNumericAffinityColumnsFollowSQLitesDeclaredTypeRules() throws {
        let directory = try TemporaryDirectory("integer-affinity", removedAfter: self)
        let db = try ImportDifferentialHarness.open(directory.url("probe.sqlite"))
        try ImportDifferentialHarness.exec(db, """
            CREATE TABLE t(a INTEGER, b INT, c BIGINT, d POINT, e TEXT, f REAL, g, h NUMERIC, i "tinyint",
                           j DECIMAL(15,2), k DATE, l ANY, m VARCHAR(9), n FLOAT, o BLOB, p "CHARINT");
            CREATE TABLE s(a INT, b INTEGER, c REAL, d TEXT, e BLOB, f ANY) STRICT;
            CREATE TABLE g(a INT, b INT AS (a * 2), c TEXT);
            """)
        XCTAssertEqual(ImportGroupedInsert.integerAffinityColumns(connection: db, table: "T", schema: "main", columnCount: 16),
                       [true, true, true, true, false, false, false, true, true,
                        true, true, false, false, false, false, true])
        XCTAssertEqual(ImportGroupedInsert.integerAffinityColumns(connection: db, table: "s", schema: nil, columnCount: 6),
                       [true, true, false, false, false, false], "STRICT ANY converts nothing")
        XCTAssertEqual(ImportGroupedInsert.integerAffinityColumns(connection: db, table: "g", schema: nil, columnCount: 2),
                       [true, false], "a generated column takes no value")
        XCTAssertEqual(ImportGroupedInsert.integerAffinityColumns(connection: db, table: "g", schema: nil, columnCount: 3),
                       [false, false, false], "columns that do not match the values: no integer binds")
    }

    /// What `plainInteger` accepts, SQLite's INTEGER affinity turns into that same integer
    /// (the oracle is SQLite itself); what it refuses goes to SQLite as text.
    func testPlainIntegerAcceptsOnlyTextSQLiteConvertsToThatInteger() throws {
        let directory = try TemporaryDirectory("plain-integer", removedAfter: self)
        let db = try ImportDifferentialHarness.open(directory.url("probe.sqlite"))
        let accepted = ["0", "7", "-7", "10", "-10", "123456789012345678", "-999999999999999999"]
        let refused = ["", "-", "+7", " 7", "7 ", "07", "-0", "-07", "00", "1e3", "7.0", "1234567890123456789",
                       "9223372036854775807", "0x10", "\u{0667}", "1\u{0}2", "--7", "7-"]
        try ImportDifferentialHarness.exec(db, "CREATE TABLE o(i INTEGER)")
        for text in accepted {
            let bytes = Array(text.utf8)
            let value = bytes.withUnsafeBufferPointer { ImportGroupedInsert.plainInteger($0.baseAddress!, count: $0.count) }
            _ = try db.query("DELETE FROM o")
            _ = try db.query("INSERT INTO o VALUES(?1)", [.text(text)])
            let stored = try XCTUnwrap(db.query("SELECT i FROM o").first)
            guard case .integer(let expected) = stored[0] else { return XCTFail("SQLite kept \(text) as \(stored[0])") }
            XCTAssertEqual(value, expected, text)
        }
        for text in refused {
            let bytes = Array(text.utf8) + [0x31]  // a byte past the field that must not be read
            let value = bytes.withUnsafeBufferPointer { ImportGroupedInsert.plainInteger($0.baseAddress!, count: $0.count - 1) }
            XCTAssertNil(value, text)
        }
    }
}
