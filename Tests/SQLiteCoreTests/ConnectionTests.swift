import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// The query API: values, bound parameters, errors.
final class ConnectionTests: XCTestCase {
    func testValuesRoundTripThroughBoundParameters() throws {
        let directory = try TemporaryDirectory("sqlitecore", removedAfter: self).url
        let path = directory.appendingPathComponent("v.sqlite").path
        let db = try Connection(path: path, create: true)
        try db.execute("CREATE TABLE t (v)")
        let values: [DatabaseValue] = [
            nil, 42, .integer(.min), 1.5, "text with 'quotes' and é", "", .blob(Data([0, 1, 255])), .blob(Data()),
        ]
        for value in values { try db.execute("INSERT INTO t VALUES (?)", [value]) }
        XCTAssertEqual(try db.query("SELECT v FROM t ORDER BY rowid").map { $0[0] }, values)
        // Types as sqlite3 sees them.
        XCTAssertEqual(
            try Oracle.sqlite3Script(path, "SELECT typeof(v) FROM t ORDER BY rowid;"),
            "null\ninteger\ninteger\nreal\ntext\ntext\nblob\nblob\n")
    }

    func testShellTextMatchesSqlite3() throws {
        let directory = try TemporaryDirectory("sqlitecore", removedAfter: self).url
        let path = directory.appendingPathComponent("v.sqlite").path
        let db = try Connection(path: path, create: true)
        let sql =
            "SELECT 1.0, 1e20, 0.1, -2.5e-7, 123456789012345678.0, 1e300*1e300, -1e300*1e300, 3, NULL, 'x', x'4142', 100.0/3"
        let ours = try db.query(sql).map { $0.values.map(\.shellText).joined(separator: "|") + "\n" }.joined()
        XCTAssertEqual(ours, try Oracle.sqlite3Script(path, sql + ";"))
    }

    func testMultipleStatementsReturnAllRowsInOrder() throws {
        let db = try Connection(uri: "file::memory:")
        let rows = try db.query(
            "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2); SELECT a FROM t; -- done\n SELECT 'x' AS b;")
        XCTAssertEqual(
            rows,
            [
                Row(columnNames: ["a"], values: [1]), Row(columnNames: ["a"], values: [2]),
                Row(columnNames: ["b"], values: ["x"]),
            ])
        XCTAssertEqual(rows[2]["B"], "x")
        XCTAssertNil(rows[2]["nope"])
    }

    func testErrorsCarryCodeMessageAndSQL() throws {
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (a UNIQUE)")
        try db.execute("INSERT INTO t VALUES (1)")
        XCTAssertThrowsError(try db.execute("SELECT 1; INSERT INTO t VALUES (1)")) { error in
            let error = error as! SQLiteError
            XCTAssertEqual(error.resultCode, .SQLITE_CONSTRAINT)
            XCTAssertEqual(error.extendedResultCode, .SQLITE_CONSTRAINT_UNIQUE)
            XCTAssertEqual(error.message, "UNIQUE constraint failed: t.a")
            XCTAssertEqual(error.sql, "INSERT INTO t VALUES (1)")
            XCTAssertTrue(
                error.description.contains("2067") && error.description.contains("INSERT INTO t"), error.description)
        }
        XCTAssertThrowsError(try db.execute("SELEC 1")) {
            XCTAssertEqual(($0 as! SQLiteError).resultCode, .SQLITE_ERROR)
        }
        XCTAssertThrowsError(try db.execute("SELECT ?, ?", [1])) {
            XCTAssertEqual(($0 as! SQLiteError).resultCode, .SQLITE_RANGE)
        }
        XCTAssertThrowsError(try db.execute("SELECT 1", [1])) {
            XCTAssertEqual(($0 as! SQLiteError).resultCode, .SQLITE_RANGE)
        }
        db.close()
        XCTAssertThrowsError(try db.execute("SELECT 1"))
    }

    func testTransactionRollsBackOnError() throws {
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (a)")
        XCTAssertThrowsError(
            try db.inTransaction { try db.execute("INSERT INTO t VALUES (1); INSERT INTO nope VALUES (2)") })
        XCTAssertEqual(try db.scalar("SELECT count(*) FROM t"), 0)
    }

    /// A statement runs from its first step until it is done, reset or finalized; a prepared
    /// statement that has not stepped, and one read to the end, are not running.
    func testRunningStatements() throws {
        let db = try Connection(uri: "file::memory:")
        try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2)")
        XCTAssertFalse(db.hasRunningStatement)
        var seenWhileReading: [Bool] = []
        try db.forEachRow("SELECT x FROM t") { _ in seenWhileReading.append(db.hasRunningStatement) }
        XCTAssertEqual(seenWhileReading, [true, true])
        XCTAssertFalse(db.hasRunningStatement, "read to the end")
        let statement = try db.prepare("SELECT x FROM t")
        XCTAssertFalse(db.hasRunningStatement, "prepared, not stepped")
        XCTAssertTrue(try statement.step())
        XCTAssertTrue(db.hasRunningStatement)
        _ = statement.reset()
        XCTAssertFalse(db.hasRunningStatement, "reset")
        db.close()
        XCTAssertFalse(db.hasRunningStatement, "closed")
    }
}

/// Questions about a connection's schemas, answered by SQLite's C API and catalog instead of by
/// an error message.
final class ConnectionSchemasTests: XCTestCase {
    func testTableExistsAsSQLiteResolvesNames() throws {
        let dir = try TemporaryDirectory("schemas", removedAfter: self)
        let other = dir.url("other db.sqlite").path
        let setup = try Connection(path: other, create: true)
        try setup.execute("CREATE TABLE shipped (x)")
        setup.close()
        let db = try Connection(path: dir.url("main.sqlite").path, create: true)
        try db.execute("CREATE TABLE t (a); CREATE VIEW v AS SELECT a FROM t; CREATE TEMP TABLE scratch (b)")
        try db.execute("ATTACH DATABASE ? AS aux", [.text(other)])
        XCTAssertTrue(try db.tableExists("t"))
        XCTAssertTrue(try db.tableExists("T"), "ASCII case-insensitive, as SQLite")
        XCTAssertTrue(try db.tableExists("v"), "views count: SELECT * FROM a view works")
        XCTAssertTrue(try db.tableExists("scratch"))
        XCTAssertTrue(try db.tableExists("scratch", schema: "temp"))
        XCTAssertFalse(try db.tableExists("scratch", schema: "main"))
        XCTAssertTrue(try db.tableExists("shipped"))
        XCTAssertTrue(try db.tableExists("shipped", schema: "AUX"))
        XCTAssertFalse(try db.tableExists("t", schema: "aux"))
        XCTAssertFalse(try db.tableExists("nosuch"))
        XCTAssertFalse(try db.tableExists("t", schema: "nowhere"), "an unknown schema holds nothing")
    }

    func testReadOnlyAndFilenameOfSchemas() throws {
        let dir = try TemporaryDirectory("schemas", removedAfter: self)
        let shipped = dir.url("shipped.sqlite").path
        try Connection(path: shipped, create: true).execute("CREATE TABLE s (x)")
        let db = try Connection(path: dir.url("user.sqlite").path, create: true)
        try db.execute("ATTACH DATABASE ? AS ro", [.text("file:\(shipped)?mode=ro")])
        XCTAssertTrue(db.isReadOnly(schema: "ro"))
        XCTAssertFalse(db.isReadOnly(schema: "main"))
        XCTAssertFalse(db.isReadOnly(schema: "nosuch"))
        XCTAssertEqual(db.filename(ofSchema: "ro").map { URL(fileURLWithPath: $0).lastPathComponent }, "shipped.sqlite")
        XCTAssertNil(db.filename(ofSchema: "nosuch"))
        db.close()
        XCTAssertFalse(db.isInTransaction)
    }
}
