import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// Result codes as values and patterns: a primary code matches its extended codes, an extended
/// code only itself, in `switch`, `catch` and `==`; errors carry them as SQLite reports them.
final class ResultCodeTests: XCTestCase {
    private func constraintError() throws -> SQLiteError {
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (a UNIQUE)")
        try db.execute("INSERT INTO t VALUES (1)")
        do {
            try db.execute("INSERT INTO t VALUES (1)")
        } catch let error as SQLiteError {
            return error
        }
        struct NoError: Error {}
        throw NoError() // the duplicate insert must fail
    }

    func testPrimaryCodesMatchTheirExtendedCodesAndExtendedOnlyThemselves() throws {
        let error = try constraintError()
        XCTAssertEqual(error.extendedResultCode, .SQLITE_CONSTRAINT_UNIQUE)
        XCTAssertEqual(error.resultCode, .SQLITE_CONSTRAINT)
        XCTAssertEqual(error.extendedResultCode.primaryResultCode, .SQLITE_CONSTRAINT)
        XCTAssertTrue(ResultCode.SQLITE_CONSTRAINT.isPrimary)
        XCTAssertFalse(ResultCode.SQLITE_CONSTRAINT_UNIQUE.isPrimary)

        func kind(_ code: ResultCode) -> String {
            switch code {
            case .SQLITE_CONSTRAINT_FOREIGNKEY: return "foreign key"
            case .SQLITE_CONSTRAINT: return "constraint"
            case .SQLITE_BUSY: return "busy"
            default: return "other"
            }
        }
        XCTAssertEqual(kind(error.extendedResultCode), "constraint")
        XCTAssertEqual(kind(.SQLITE_CONSTRAINT_FOREIGNKEY), "foreign key")
        XCTAssertEqual(kind(.SQLITE_BUSY_TIMEOUT), "busy")
        XCTAssertEqual(kind(.SQLITE_READONLY), "other")
        // An extended pattern does not match its primary code or a sibling.
        XCTAssertFalse(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= .SQLITE_CONSTRAINT)
        XCTAssertFalse(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= .SQLITE_CONSTRAINT_NOTNULL)
        // == is exact.
        XCTAssertNotEqual(error.extendedResultCode, .SQLITE_CONSTRAINT)
    }

    func testCatchPatternsMatchThrownErrors() throws {
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (a NOT NULL)")
        var caught = ""
        do {
            try db.execute("INSERT INTO t VALUES (NULL)")
        } catch ResultCode.SQLITE_CONSTRAINT_UNIQUE {
            caught = "unique"
        } catch ResultCode.SQLITE_CONSTRAINT {
            caught = "constraint"
        }
        XCTAssertEqual(caught, "constraint")
        XCTAssertFalse(
            ResultCode.SQLITE_CONSTRAINT ~= (CocoaError(.fileNoSuchFile) as Error), "only an SQLiteError matches")
    }

    func testCodesAreSQLitesOwn() throws {
        // SQLite's own text for each code (sqlite3_errstr), as the description shows it.
        XCTAssertEqual(ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue, 2067)
        XCTAssertEqual(ResultCode.SQLITE_CONSTRAINT_UNIQUE.description, "2067 (constraint failed)")
        XCTAssertEqual(ResultCode.SQLITE_READONLY_DBMOVED.rawValue, 8 | (4 << 8))
        XCTAssertEqual(ResultCode.SQLITE_DONE.description, "101 (no more rows available)")
        // Status-returning calls are typed too: reset reports the failed step's code.
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (a NOT NULL)")
        let insert = try db.prepare("INSERT INTO t VALUES (NULL)")
        XCTAssertThrowsError(try insert.step())
        XCTAssertEqual(insert.reset(), .SQLITE_CONSTRAINT_NOTNULL)
        XCTAssertEqual(insert.reset(), .SQLITE_OK)
    }

    func testAnErrorPointingAtNoTokenHasNoOffset() throws {
        // What every error looks like on an Apple system without sqlite3_error_offset (before
        // macOS 13 / iOS 16): no offset, and dbgen then points at the statement's start
        // (EndToEndTests' DBGenErrorTests, "no such table" at the statement's column).
        let db = try Connection(uri: "file::memory:")
        XCTAssertThrowsError(try db.prepare("SELECT * FROM nosuch")) { error in
            XCTAssertEqual((error as? SQLiteError)?.resultCode, .SQLITE_ERROR)
            XCTAssertNil((error as? SQLiteError)?.offset)
        }
        XCTAssertThrowsError(try db.prepare("SELECT 1 FROM t WHERE")) { error in
            XCTAssertNil((error as? SQLiteError)?.offset, "incomplete input points at no token")
        }
        XCTAssertThrowsError(try db.prepare("SELEC 1")) { error in
            XCTAssertEqual((error as? SQLiteError)?.offset, 0)
        }
    }
}
