import Foundation
import SQLiteCore
import XCTest

/// Prepared statements: the hot-path binds, stepping, reset, columns and errors.
final class StatementTests: XCTestCase {
    func testHotPathBindsInsertTextThatAffinityConverts() throws {
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?)")
        XCTAssertEqual(insert.parameterCount, 3)
        for fields in [["1", "2.5", "x"], ["0012", "1e3", ""]] {
            for (index, field) in fields.enumerated() {
                let status = field.withCString {
                    insert.bindText($0, count: Int32(field.utf8.count), at: Int32(index + 1))
                }
                XCTAssertEqual(status, .SQLITE_OK)
            }
            XCTAssertEqual(insert.stepStatus(), .SQLITE_DONE)
            XCTAssertEqual(insert.reset(), .SQLITE_OK)
        }
        insert.clearBindings()
        XCTAssertEqual(insert.stepStatus(), .SQLITE_DONE)
        let rows = try db.query("SELECT i, r, s FROM t ORDER BY rowid").map(\.values)
        XCTAssertEqual(rows, [[1, 2.5, "x"], [12, 1000.0, ""], [nil, nil, nil]])
    }

    func testStepThrowsTheConstraintErrorWithTheStatementSQL() throws {
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (a NOT NULL)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        try insert.bind(.null, at: 1)
        XCTAssertThrowsError(try insert.step()) { error in
            let error = error as? SQLiteError
            XCTAssertEqual(error?.extendedResultCode, .SQLITE_CONSTRAINT_NOTNULL)
            XCTAssertEqual(error?.sql, "INSERT INTO t VALUES (?)")
        }
    }

    func testPrepareErrorCarriesTheOffsetOfTheFault() throws {
        let db = try Connection(uri: "file::memory:")
        XCTAssertThrowsError(try db.prepare("SELECT nosuchcolumn FROM (SELECT 1)")) { error in
            let error = error as? SQLiteError
            XCTAssertEqual(error?.message, "no such column: nosuchcolumn")
            XCTAssertEqual(error?.offset, 7)
        }
        XCTAssertThrowsError(try db.prepare("   -- only a comment")) { error in
            XCTAssertEqual((error as? SQLiteError)?.resultCode, .SQLITE_MISUSE)
        }
    }

    func testColumnsKeepTheirStorageClassAndNames() throws {
        let db = try Connection(uri: "file::memory:")
        let select = try db.prepare("SELECT 1 AS i, 2.0 AS r, 'é' AS t, x'00ff' AS b, NULL AS n, :name AS p")
        XCTAssertEqual(select.parameterName(at: 1), ":name")
        try select.bind(["bound"])
        XCTAssertTrue(try select.step())
        XCTAssertEqual((0..<select.columnCount).map { select.columnName($0) }, ["i", "r", "t", "b", "n", "p"])
        XCTAssertEqual(select.row(), [1, 2.0, "é", .blob(Data([0, 255])), nil, "bound"])
        XCTAssertFalse(try select.step())
        XCTAssertTrue(select.isReadOnly)
    }

    func testClosedConnectionRefusesWork() throws {
        let db = try Connection(uri: "file::memory:")
        db.close()
        XCTAssertThrowsError(try db.prepare("SELECT 1")) { error in
            XCTAssertEqual((error as? SQLiteError)?.resultCode, .SQLITE_MISUSE)
        }
    }
}
