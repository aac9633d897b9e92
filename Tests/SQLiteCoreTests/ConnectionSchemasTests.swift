import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

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
