@testable import DBGenKit
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// `.import` inserts runs of records with one multi-row INSERT (``ImportGroupedInsert``):
/// files long enough to fill several groups, compared with the sqlite3 3.40 CLI (which inserts
/// one row per statement), including failures in the middle of a group and the cases where
/// grouping would change the outcome and must not be used.
final class ImportGroupedInsertTests: XCTestCase {
    private let food =
        #"CREATE TABLE "food" ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT, "kcal" REAL);"#
    private let csvPipe: [ImportScriptCommand] = [
        .mode(["csv"]), .separator("|", nil), .import(file: "data.csv", table: "food", options: []),
    ]
    /// What the connection says right after the import (kept in a table so both sides dump it).
    private let afterImport = "CREATE TABLE after_import AS SELECT changes() AS changes, last_insert_rowid() AS rowid;"

    /// `count` food records; `line(n)` replaces record n (1-based) when it returns a string.
    private func foodFile(_ count: Int, _ line: (Int) -> String? = { _ in nil }) -> String {
        let values = ["12", " 7", "1e3", "x", "", "0x10", "3.0", "\"a|b\"", "\"say \"\"hi\"\"\"", "-0"]
        return (1...count).map { n in
            line(n)
                ?? "\(n)|\(values[n % values.count])|name \(n)|\(values[(n * 7) % values.count])|\(values[(n * 3) % values.count])"
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
        let group = try XCTUnwrap(
            ImportGroupedInsert.prepare(
                connection: db, table: ImportTable.read(connection: db, name: "food", schema: nil),
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
            try check(
                ImportCase(
                    "grouped-\(count)", setupSQL: food, file: foodFile(count), commands: csvPipe,
                    finalSQL: afterImport))
        }
    }

    func testFailedInsertInsideAGroupNamesTheRecordAndMessageLikeSQLite3() throws {
        try checkStops(
            ImportCase(
                "duplicate-in-group", setupSQL: food,
                file: foodFile(400) { $0 == 150 ? "20|1|dup|dup|1" : nil }, commands: csvPipe))
        try checkStops(
            ImportCase(
                "not-null-in-group", setupSQL: "CREATE TABLE food(a, b, c, d, e NOT NULL);",
                file: foodFile(400) { $0 == 200 ? "200|1" : nil }, commands: csvPipe))
        try checkStops(
            ImportCase(
                "rowid-mismatch-in-group", setupSQL: food,
                file: foodFile(400) { $0 == 170 ? "abc|1|2|3|4" : nil }, commands: csvPipe))
        try checkStops(
            ImportCase(
                "check-in-group", setupSQL: "CREATE TABLE food(a, b, c, d, e CHECK (e <> 'stop'));",
                file: foodFile(400) { $0 == 250 ? "250|1|2|3|stop" : nil }, commands: csvPipe))
    }

    func testFailConflictClauseIsNotGrouped() throws {
        // FAIL keeps a failing statement's earlier rows: a group could not be replayed row by row.
        let table = "CREATE TABLE food(pk INTEGER PRIMARY KEY ON CONFLICT FAIL, b, c, d, e);"
        try checkStops(
            ImportCase(
                "fail-clause", setupSQL: table,
                file: foodFile(400) { $0 == 150 ? "20|1|dup|dup|1" : nil }, commands: csvPipe))
    }

    func testTriggerRaisingFailIsNotGrouped() throws {
        let setup =
            food
            + " CREATE TRIGGER stop BEFORE INSERT ON food WHEN new.pk = 150 BEGIN SELECT RAISE(FAIL, 'stop here'); END;"
        try checkStops(ImportCase("trigger-fail", setupSQL: setup, file: foodFile(400), commands: csvPipe))
        let temporary =
            food
            + " CREATE TEMP TRIGGER stop BEFORE INSERT ON main.food WHEN new.pk = 150 BEGIN SELECT RAISE(FAIL, 'stop here'); END;"
        try checkStops(ImportCase("temp-trigger-fail", setupSQL: temporary, file: foodFile(400), commands: csvPipe))
    }

    func testImmediateForeignKeyToALaterRecordIsNotGrouped() throws {
        // Checked at the end of each statement: record 100 names record 101, not yet inserted.
        let setup =
            "PRAGMA foreign_keys=ON; CREATE TABLE food(pk INTEGER PRIMARY KEY, parent REFERENCES food(pk), c, d, e);"
        let file = (1...300).map { $0 == 100 ? "100|101|x|y|z" : "\($0)|\($0)|x|y|z" }.joined(separator: "\n") + "\n"
        try checkStops(ImportCase("foreign-key", setupSQL: setup, file: file, commands: csvPipe))
    }

    /// ``ImportGroupedInsert/isSafe(_:)`` for the table the import would read.
    private func isSafe(_ db: Connection, _ table: String, _ schema: String?) -> Bool {
        ImportTable.read(connection: db, name: table, schema: schema).map(ImportGroupedInsert.isSafe) ?? false
    }

    /// ``ImportGroupedInsert/integerAffinityColumns(_:columnCount:)`` for the table the import would read.
    private func integerColumns(_ db: Connection, _ table: String, _ schema: String?, _ columnCount: Int) throws
        -> [Bool]
    {
        ImportGroupedInsert.integerAffinityColumns(
            try XCTUnwrap(ImportTable.read(connection: db, name: table, schema: schema)), columnCount: columnCount)
    }

    func testUnsafeTargetsAreRecognised() throws {
        let directory = try TemporaryDirectory("grouped-insert", removedAfter: self)
        let db = try ImportDifferentialHarness.open(directory.url("probe.sqlite"))
        try ImportDifferentialHarness.exec(
            db,
            """
            CREATE TABLE plain(a, b);
            CREATE TABLE failing(a UNIQUE ON CONFLICT FAIL, b);
            CREATE TABLE rolling(a, b, UNIQUE(a) ON CONFLICT ROLLBACK);
            CREATE VIEW v AS SELECT * FROM plain;
            CREATE TEMP TABLE plain(a, b);
            """)
        XCTAssertFalse(isSafe(db, "plain", nil), "same name in temp and main")
        XCTAssertTrue(isSafe(db, "PLAIN", "main"))
        XCTAssertTrue(isSafe(db, "plain", "temp"))
        XCTAssertFalse(isSafe(db, "failing", nil))
        XCTAssertFalse(isSafe(db, "rolling", nil))
        XCTAssertFalse(isSafe(db, "v", nil))
        try ImportDifferentialHarness.exec(db, "PRAGMA foreign_keys=ON")
        XCTAssertFalse(isSafe(db, "plain", "main"))
        try ImportDifferentialHarness.exec(
            db, "PRAGMA foreign_keys=OFF; CREATE TRIGGER t AFTER INSERT ON failing BEGIN SELECT 1; END;")
        XCTAssertFalse(isSafe(db, "plain", "main"), "a trigger in the schema")
    }

    /// FAIL, ROLLBACK and AUTOINCREMENT are read from SQLite's program for an insert, not from the
    /// CREATE text: the words in a column's name, a default value or a comment change nothing.
    func testConflictClausesAndAutoincrementAreReadFromSQLiteNotFromTheText() throws {
        let directory = try TemporaryDirectory("grouped-insert-words", removedAfter: self)
        let db = try ImportDifferentialHarness.open(directory.url("probe.sqlite"))
        try ImportDifferentialHarness.exec(
            db,
            """
            CREATE TABLE words("FAIL" TEXT, failures INTEGER DEFAULT 0, note DEFAULT 'ROLLBACK', -- on conflict fail
                               b /* ON CONFLICT ROLLBACK */);
            CREATE TABLE counted_not(id INTEGER PRIMARY KEY,
                                     "AUTOINCREMENT" DEFAULT 'AUTOINCREMENT' /* AUTOINCREMENT */);
            CREATE TABLE not_null_fail(a NOT NULL ON CONFLICT FAIL, b);
            CREATE TABLE key_rollback(a INTEGER PRIMARY KEY ON CONFLICT ROLLBACK, b);
            CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT, a);
            """)
        XCTAssertTrue(isSafe(db, "words", nil))
        XCTAssertTrue(isSafe(db, "counted_not", nil))
        XCTAssertFalse(isSafe(db, "not_null_fail", nil))
        XCTAssertFalse(isSafe(db, "key_rollback", nil))
        XCTAssertTrue(isSafe(db, "counted", nil))
        func alias(_ table: String) -> ImportGroupedInsert.RowidAlias? {
            ImportGroupedInsert.prepare(
                connection: db, table: ImportTable.read(connection: db, name: table, schema: nil),
                qualifiedTable: table, columnCount: 2)?.rowidAlias
        }
        XCTAssertEqual(
            alias("counted_not").map { [$0.column, Int($0.next)] }, [0, 1],
            "not AUTOINCREMENT: the key is the rowid")
        XCTAssertNil(alias("counted"))
        // The import itself gives what sqlite3 gives.
        let words = #"CREATE TABLE food(pk INTEGER PRIMARY KEY, b, c, d, "AUTOINCREMENT" DEFAULT 'FAIL');"#
        try check(ImportCase("words-in-create", setupSQL: words, file: foodFile(300), commands: csvPipe))
    }

    /// The rowid alias is found where, and only where, a NULL in its place gives a row the rowid
    /// its key names when that key is one more than the largest: an INTEGER PRIMARY KEY of a
    /// rowid table, wherever it stands, not AUTOINCREMENT; with the rowid that comes next.
    func testRowidAliasIsFoundOnlyWhereANullGivesTheKeyedRowid() throws {
        let directory = try TemporaryDirectory("rowid-alias", removedAfter: self)
        let db = try ImportDifferentialHarness.open(directory.url("probe.sqlite"))
        try ImportDifferentialHarness.exec(
            db,
            food + """
                CREATE TABLE later(a TEXT, b INT AS (length(a)), id INTEGER PRIMARY KEY, c);
                INSERT INTO later(a, id, c) VALUES ('x', -7, 1), ('y', 41, 2);
                CREATE TABLE negative(id INTEGER PRIMARY KEY, a); INSERT INTO negative VALUES (-9, 1);
                CREATE TABLE full(id INTEGER PRIMARY KEY, a); INSERT INTO full VALUES (9223372036854775807, 1);
                CREATE TABLE descending(id INTEGER PRIMARY KEY DESC, a);
                CREATE TABLE int_key(id INT PRIMARY KEY, a);
                CREATE TABLE text_key(id TEXT PRIMARY KEY, a);
                CREATE TABLE two_keys(id INTEGER, a INTEGER, PRIMARY KEY (id, a));
                CREATE TABLE no_key(id INTEGER, a);
                CREATE TABLE counted(id INTEGER PRIMARY KEY AUTOINCREMENT, a);
                CREATE TABLE keyless_rows(id INTEGER PRIMARY KEY, a) WITHOUT ROWID;
                CREATE TABLE constraint_key(id INTEGER, a, PRIMARY KEY (id DESC));
                """)
        func alias(_ table: String, _ columns: Int) -> ImportGroupedInsert.RowidAlias? {
            ImportGroupedInsert.prepare(
                connection: db, table: ImportTable.read(connection: db, name: table, schema: nil),
                qualifiedTable: SQLIdentifier.quote(table), columnCount: columns)?.rowidAlias
        }
        XCTAssertEqual(
            alias("food", 5).map { [$0.column, Int($0.next)] }, [0, 1], "an empty table: rowid 1 comes next")
        XCTAssertEqual(
            alias("later", 3).map { [$0.column, Int($0.next)] }, [1, 42], "after a generated column; the largest + 1")
        XCTAssertEqual(alias("negative", 2).map { Int($0.next) }, -8)
        XCTAssertEqual(
            alias("constraint_key", 2).map { [$0.column, Int($0.next)] }, [0, 1],
            "PRIMARY KEY (id DESC) as a table constraint is the rowid")
        for table in ["full", "descending", "int_key", "text_key", "two_keys", "no_key", "counted", "keyless_rows"] {
            XCTAssertNil(alias(table, 2), table)
        }
    }

    /// Keys bound as NULL (one more than the largest rowid, in a group) give the rows, rowids and
    /// `last_insert_rowid()` sqlite3 gives, through gaps, keys below the largest, keys SQLite
    /// converts from text, a table that already has rows, a NULL key, and duplicates; and an
    /// AUTOINCREMENT table whose sequence is ahead of its rows keeps its keys.
    func testKeysBoundAsNullGiveTheRowsSQLite3Gives() throws {
        let afterImportAndSequence = afterImport + " CREATE TABLE sequence AS SELECT name, seq FROM sqlite_sequence;"
        func keyed(_ keys: [String]) -> String {
            keys.enumerated().map { "\($1)|\($0 % 25)|name \($0)|d|\($0).5" }.joined(separator: "\n") + "\n"
        }
        let run = (1...300).map(String.init)
        // A wrong NULL would give a row a rowid another row then asks for: that group fails and is
        // inserted again row by row, with the keys. So the cases below avoid such collisions,
        // where only the rowids could tell a wrong NULL.
        // Consecutive keys, then gaps, and consecutive again.
        try check(
            ImportCase(
                "rowid-gaps", setupSQL: food,
                file: keyed(run + ["500", "501", "7000"] + (7001...7200).map(String.init)),
                commands: csvPipe, finalSQL: afterImport))
        // Keys below the largest, then consecutive again after it.
        try check(
            ImportCase(
                "rowid-below-largest", setupSQL: food,
                file: keyed(run + ["900"] + (302...330).map(String.init) + (901...1000).map(String.init)),
                commands: csvPipe, finalSQL: afterImport))
        // Rows already there: the count starts after the largest (and below it nothing is NULL).
        try check(
            ImportCase(
                "rowid-after-existing",
                setupSQL: food + "INSERT INTO food VALUES (1000, 1, 'x', 'y', 2.5), (-5, 1, 'x', 'y', 1);",
                file: keyed((1001...1300).map(String.init) + run), commands: csvPipe, finalSQL: afterImport))
        // A key SQLite converts from text (" 9") moves the largest rowid past what was counted:
        // the next "6" must keep its key, not take rowid 10.
        try check(
            ImportCase(
                "rowid-after-converted-key", setupSQL: food,
                file: keyed(["1", "2", "3", "4", "5", " 9", "6", "7"] + (1000...1200).map(String.init)),
                commands: csvPipe, finalSQL: afterImport))
        // AUTOINCREMENT: the sequence (10) is ahead of the largest rowid (5); the keys 6, 7, ... stay.
        try check(
            ImportCase(
                "rowid-autoincrement",
                setupSQL:
                    #"CREATE TABLE "food" ("pk" INTEGER PRIMARY KEY AUTOINCREMENT, "group" INTEGER, "name" TEXT, "desc" TEXT, "kcal" REAL);"#
                    + "INSERT INTO food (pk) VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10); DELETE FROM food WHERE pk > 5;",
                file: keyed((6...300).map(String.init)), commands: csvPipe, finalSQL: afterImportAndSequence))
        // Keys that are not the rowid keep their values: NULL there would be stored as NULL.
        for key in ["INTEGER PRIMARY KEY DESC", "INT PRIMARY KEY"] {
            try check(
                ImportCase(
                    "not-rowid-\(key)",
                    setupSQL: #"CREATE TABLE "food" ("pk" "# + key
                        + #", "group" INTEGER, "name" TEXT, "desc" TEXT, "kcal" REAL);"#,
                    file: keyed(run), commands: csvPipe, finalSQL: afterImport))
        }
        // A NULL key (a short record; the key is its last field) takes the next rowid; a key
        // equal to it afterwards is a duplicate, as in sqlite3.
        let late = "CREATE TABLE food (name TEXT, kcal REAL, pk INTEGER PRIMARY KEY);"
        let lateRows = (1...200).map { "n|1.5|\($0)" } + ["short|2.5"] + (202...300).map { "n|1.5|\($0)" }
        try check(
            ImportCase(
                "rowid-null-key", setupSQL: late, file: lateRows.joined(separator: "\n") + "\n",
                commands: csvPipe, finalSQL: afterImport))
        try checkStops(
            ImportCase(
                "rowid-null-key-then-duplicate", setupSQL: late,
                file: ((1...150).map { "n|1.5|\($0)" } + ["short|2.5", "n|1.5|151"] + (152...300).map { "n|1.5|\($0)" })
                    .joined(separator: "\n") + "\n",
                commands: csvPipe))
        try checkStops(
            ImportCase(
                "rowid-duplicate-of-counted-key", setupSQL: food,
                file: keyed(run + ["150"] + (301...400).map(String.init)), commands: csvPipe))
    }

    /// Fields bound as integers in INTEGER- and NUMERIC-affinity columns must be stored exactly as the
    /// shell's text bind is: integer-shaped text of every kind, in several groups, into every
    /// kind of column and table, compared with sqlite3.
    func testIntegerShapedFieldsAreStoredAsSQLite3StoresThem() throws {
        let values = [
            "0", "-1", "-", "--1", "1", "42", "123456789012345678", "-123456789012345678",
            "1234567890123456789", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "007", "-0", "-00", "+3", " 4", "5 ", "1e2", "2.0", "\u{0663}", "1\u{0}2", "0x1F", "",
        ]
        let file =
            (1...300).map { n in
                "\(n),"
                    + (0..<7).map { column in "\"\(values[(n * (column + 3)) % values.count])\"" }.joined(
                        separator: ",")
            }.joined(separator: "\n") + "\n"
        let commands: [ImportScriptCommand] = [.mode(["csv"]), .import(file: "data.csv", table: "t", options: [])]
        let columns = "a INTEGER, b int8, c POINT, d TEXT, e REAL, f DECIMAL(15,2), g"
        try check(
            ImportCase(
                "integer-shaped", setupSQL: "CREATE TABLE t(pk INTEGER PRIMARY KEY, \(columns));",
                file: file, commands: commands, finalSQL: afterImport))
        try check(
            ImportCase(
                "integer-shaped-without-rowid",
                setupSQL: "CREATE TABLE t(pk INTEGER PRIMARY KEY, \(columns)) WITHOUT ROWID;",
                file: file, commands: commands))
        // A STRICT INT column refuses text it cannot convert: only values it takes there.
        let strictValues = [
            "0", "-1", "42", "123456789012345678", "1234567890123456789", "-9223372036854775808",
            "007", "-0", " 4", "2.0", "+3",
        ]
        let strictFile =
            (1...300).map { n in
                "\(n),\(strictValues[n % strictValues.count]),\(values[(n * 5) % values.count]),\(values[n % values.count])"
            }.joined(separator: "\n") + "\n"
        try check(
            ImportCase(
                "integer-shaped-strict",
                setupSQL: "CREATE TABLE t(pk INTEGER PRIMARY KEY, a INT, b ANY, c TEXT) STRICT;",
                file: strictFile, commands: commands))
    }

    func testIntegerAndNumericAffinityColumnsFollowSQLitesDeclaredTypeRules() throws {
        let directory = try TemporaryDirectory("integer-affinity", removedAfter: self)
        let db = try ImportDifferentialHarness.open(directory.url("probe.sqlite"))
        try ImportDifferentialHarness.exec(
            db,
            """
            CREATE TABLE t(a INTEGER, b INT, c BIGINT, d POINT, e TEXT, f REAL, g, h NUMERIC, i "tinyint",
                           j DECIMAL(15,2), k DATE, l ANY, m VARCHAR(9), n FLOAT, o BLOB, p "CHARINT");
            CREATE TABLE s(a INT, b INTEGER, c REAL, d TEXT, e BLOB, f ANY) STRICT;
            CREATE TABLE g(a INT, b INT AS (a * 2), c TEXT);
            """)
        XCTAssertEqual(
            try integerColumns(db, "T", "main", 16),
            [
                true, true, true, true, false, false, false, true, true,
                true, true, false, false, false, false, true,
            ])
        XCTAssertEqual(
            try integerColumns(db, "s", nil, 6),
            [true, true, false, false, false, false], "STRICT ANY converts nothing")
        XCTAssertEqual(
            try integerColumns(db, "g", nil, 2),
            [true, false], "a generated column takes no value")
        XCTAssertEqual(
            try integerColumns(db, "g", nil, 3),
            [false, false, false], "columns that do not match the values: no integer binds")
    }

    /// What `plainInteger` accepts, SQLite's INTEGER affinity turns into that same integer
    /// (the oracle is SQLite itself); what it refuses goes to SQLite as text.
    func testPlainIntegerAcceptsOnlyTextSQLiteConvertsToThatInteger() throws {
        let directory = try TemporaryDirectory("plain-integer", removedAfter: self)
        let db = try ImportDifferentialHarness.open(directory.url("probe.sqlite"))
        let accepted = ["0", "7", "-7", "10", "-10", "123456789012345678", "-999999999999999999"]
        let refused = [
            "", "-", "+7", " 7", "7 ", "07", "-0", "-07", "00", "1e3", "7.0", "1234567890123456789",
            "9223372036854775807", "0x10", "\u{0667}", "1\u{0}2", "--7", "7-",
        ]
        try ImportDifferentialHarness.exec(db, "CREATE TABLE o(i INTEGER)")
        for text in accepted {
            let bytes = Array(text.utf8)
            let value = bytes.withUnsafeBufferPointer {
                ImportGroupedInsert.plainInteger($0.baseAddress!, count: $0.count)
            }
            _ = try db.query("DELETE FROM o")
            _ = try db.query("INSERT INTO o VALUES(?1)", [.text(text)])
            let stored = try XCTUnwrap(db.query("SELECT i FROM o").first)
            guard case .integer(let expected) = stored[0] else { return XCTFail("SQLite kept \(text) as \(stored[0])") }
            XCTAssertEqual(value, expected, text)
        }
        for text in refused {
            let bytes = Array(text.utf8) + [0x31] // a byte past the field that must not be read
            let value = bytes.withUnsafeBufferPointer {
                ImportGroupedInsert.plainInteger($0.baseAddress!, count: $0.count - 1)
            }
            XCTAssertNil(value, text)
        }
    }
}
