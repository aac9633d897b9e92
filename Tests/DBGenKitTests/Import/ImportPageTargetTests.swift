@testable import DBGenKit
import Foundation
import SQLiteCore
import XCTest

/// Which tables the page writer takes, read from SQLite's program for the insert: a plain rowid
/// table of `main` with nothing SQLite would do beyond storing the values; anything else
/// (index, trigger, CHECK, enforced foreign key, generated or STRICT column, AUTOINCREMENT,
/// WITHOUT ROWID, another schema) takes SQLite's insert path.
final class ImportPageTargetTests: XCTestCase {
    private func target(_ setup: String, table: String = "t", schema: String? = nil) throws -> ImportPageTarget? {
        let connection = try Connection(uri: "file::memory:?mode=memory")
        try connection.execute(setup)
        guard let info = ImportTable.read(connection: connection, name: table, schema: schema) else { return nil }
        let count = info.columns.filter(\.takesValue).count
        return ImportPageTarget.read(connection: connection, table: info, columnCount: count)
    }

    func testAffinitiesComeFromTheDeclaredTypes() throws {
        let found = try target(
            "CREATE TABLE t(a INTEGER, b TEXT, c REAL, d NUMERIC, e BLOB, f, g VARCHAR(9), h DOUBLE, i DATE, j ANY)")
        XCTAssertEqual(
            found?.columns, [.numeric, .text, .real, .numeric, .text, .text, .text, .real, .numeric, .numeric])
        XCTAssertEqual(found?.notNull, Array(repeating: false, count: 10))
        XCTAssertEqual(try target("CREATE TABLE t(a, b)")?.columns, [.text, .text])
    }

    func testIntegerPrimaryKeyIsTheRowid() throws {
        XCTAssertEqual(
            try target("CREATE TABLE t(x TEXT, id INTEGER PRIMARY KEY, y REAL)")?.columns, [.text, .rowid, .real])
        XCTAssertEqual(try target("CREATE TABLE t(id INTEGER, x, PRIMARY KEY(id ASC))")?.columns, [.rowid, .text])
        XCTAssertEqual(try target("CREATE TABLE t(id INTEGER PRIMARY KEY NOT NULL, x)")?.notNull, [false, false])
    }

    func testNotNullColumnsAreKnown() throws {
        let found = try target("CREATE TABLE t(a INTEGER NOT NULL, b TEXT, c REAL NOT NULL DEFAULT 1.5)")
        XCTAssertEqual(found?.notNull, [true, false, true])
    }

    /// What SQLite's insert into the table does not involve: defaults and collations (every
    /// value is given), foreign keys while they are off, triggers on other tables.
    func testWhatTheInsertDoesNotInvolveChangesNothing() throws {
        XCTAssertNotNil(try target("CREATE TABLE t(a TEXT DEFAULT 'x' COLLATE NOCASE, b INTEGER DEFAULT (1 + 2))"))
        XCTAssertNotNil(
            try target("CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE t(a REFERENCES p(id) ON DELETE CASCADE)"))
        XCTAssertNotNil(
            try target("CREATE TABLE t(a); CREATE TABLE u(b); CREATE TRIGGER r AFTER INSERT ON u BEGIN SELECT 1; END"))
    }

    func testTablesSQLiteDoesMoreForTakeTheInsertPath() throws {
        let refused = [
            "CREATE TABLE t(a UNIQUE)",
            "CREATE TABLE t(a TEXT PRIMARY KEY)",
            "CREATE TABLE t(a INT PRIMARY KEY)",
            "CREATE TABLE t(a INTEGER PRIMARY KEY DESC)",
            "CREATE TABLE t(a, b, PRIMARY KEY(a, b))",
            "CREATE TABLE t(a CHECK (a > 0))",
            "CREATE TABLE t(a, CHECK (length(a) < 9))",
            "CREATE TABLE t(a); CREATE INDEX i ON t(a)",
            "CREATE TABLE t(a); CREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; END",
            "CREATE TABLE t(a); CREATE TEMP TRIGGER r BEFORE INSERT ON main.t BEGIN SELECT 1; END",
            "PRAGMA foreign_keys=ON; CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE t(a REFERENCES p(id))",
            // A parent table: SQLite's program keeps a counter for its children.
            "PRAGMA foreign_keys=ON; CREATE TABLE t(id INTEGER PRIMARY KEY); CREATE TABLE c(a REFERENCES t(id))",
            "CREATE TABLE t(a, b AS (a + 1))",
            "CREATE TABLE t(a, b AS (a + 1) STORED)",
            "CREATE TABLE t(a INTEGER) STRICT",
            "CREATE TABLE t(id INTEGER PRIMARY KEY AUTOINCREMENT, a)",
            "CREATE TABLE t(a PRIMARY KEY) WITHOUT ROWID",
            "CREATE TABLE t(a NOT NULL ON CONFLICT REPLACE DEFAULT 1)",
            "CREATE TABLE t(a NOT NULL ON CONFLICT IGNORE)",
            "CREATE TABLE t(id INTEGER PRIMARY KEY ON CONFLICT REPLACE, a)",
            "CREATE VIEW t AS SELECT 1 AS a",
            "CREATE VIRTUAL TABLE t USING fts5(a)",
        ]
        for setup in refused {
            XCTAssertNil(try target(setup), setup)
        }
    }

    func testOnlyTablesOfMainAreTaken() throws {
        XCTAssertNil(try target("CREATE TEMP TABLE t(a)"))
        XCTAssertNil(try target("ATTACH ':memory:' AS other; CREATE TABLE other.t(a)", schema: "other"))
        XCTAssertNotNil(try target("CREATE TABLE main.t(a)", schema: "main"))
    }
}
