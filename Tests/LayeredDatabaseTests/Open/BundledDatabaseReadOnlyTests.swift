import Foundation
import LayeredDatabase
import XCTest

/// Every kind of write into the bundled database fails with a read-only error and leaves
/// the bundled file's bytes as they were.
final class BundledDatabaseReadOnlyTests: LayeredDatabaseTestCase {
    static let writes = [
        "INSERT INTO bundle.food (pk, name) VALUES (99, 'x')",
        "INSERT INTO food (pk, name) VALUES (99, 'x')", // unqualified: resolves to bundle.food
        "UPDATE bundle.food SET name = 'changed'",
        "DELETE FROM bundle.food",
        "DROP TABLE bundle.food",
        "CREATE TABLE bundle.x (a)",
        "CREATE INDEX bundle.idx_food_name ON food (name)",
        "CREATE VIEW bundle.v AS SELECT 1",
        "CREATE TRIGGER bundle.t AFTER INSERT ON food BEGIN SELECT 1; END",
        "ALTER TABLE bundle.food ADD COLUMN extra",
        "ALTER TABLE bundle.food RENAME TO food2",
        "PRAGMA bundle.user_version = 99",
        "VACUUM bundle",
        "REPLACE INTO bundle.version VALUES (3)",
    ]

    func testEveryWriteFailsAsReadOnlyAndBundleBytesNeverChange() throws {
        let f = try Fixture.make(self)
        let before = try XCTUnwrap(bytes(f.bundled))
        let db = try LayeredDatabase(userPath: f.user, templatePath: f.template, bundledPath: f.bundled)
        for sql in Self.writes {
            XCTAssertThrowsError(try db.execute(sql), sql) { error in
                guard let error = error as? SQLiteError else { return XCTFail("\(sql): \(error)") }
                XCTAssertTrue(error.isReadOnly, "\(sql): \(error)")
                XCTAssertEqual(error.resultCode, .SQLITE_READONLY)
                XCTAssertEqual(error.sql, sql)
                XCTAssertTrue(error.description.contains("read-only"), error.description)
            }
        }
        // Also inside an explicit transaction, and a write to the user database in the same
        // transaction still works once the failing statement is skipped.
        try db.execute("BEGIN")
        XCTAssertThrowsError(try db.execute("DELETE FROM bundle.version"))
        try db.execute("INSERT INTO user_food (pk) VALUES (5000)")
        try db.execute("COMMIT")
        XCTAssertEqual(try db.query("SELECT count(*) FROM bundle.food").first?[0], 3)
        XCTAssertEqual(try db.query("PRAGMA bundle.user_version").first?[0], 7)
        db.connection.close()
        XCTAssertEqual(bytes(f.bundled), before, "the bundled file must be byte-identical")
        XCTAssertEqual(try sqlite3(f.user, "SELECT count(*) FROM user_food WHERE pk = 5000;"), "1\n")
    }

    func testBundleCannotBeDetachedAndReattachedWritable() throws {
        let f = try Fixture.make(self)
        let before = bytes(f.bundled)
        let db = try LayeredDatabase(userPath: f.user, templatePath: f.template, bundledPath: f.bundled)
        for sql in ["DETACH bundle", "DETACH DATABASE \"BUNDLE\""] {
            XCTAssertThrowsError(try db.execute(sql), sql) {
                XCTAssertEqual(($0 as? SQLiteError)?.resultCode, .SQLITE_AUTH)
            }
        }
        XCTAssertThrowsError(try db.execute("ATTACH ? AS bundle", [.text(f.bundled)]))
        XCTAssertEqual(try db.query("SELECT count(*) FROM bundle.food").first?[0], 3)
        XCTAssertThrowsError(try db.execute("DELETE FROM bundle.food"))
        // Other attachments can still be detached.
        try db.execute("ATTACH ':memory:' AS scratch; DETACH scratch")
        db.connection.close()
        XCTAssertEqual(bytes(f.bundled), before)
    }

    func testIndexOnBundledTableFromUserSchemaIsRefused() throws {
        let f = try Fixture.make(self)
        let before = bytes(f.bundled)
        let db = try LayeredDatabase(userPath: f.user, templatePath: f.template, bundledPath: f.bundled)
        // An index lives in its table's database: from main it cannot reach bundle.food.
        XCTAssertThrowsError(try db.execute("CREATE INDEX idx ON food (name)"))
        XCTAssertThrowsError(try db.execute("CREATE INDEX main.idx ON food (name)"))
        db.connection.close()
        XCTAssertEqual(bytes(f.bundled), before)
    }
}
