import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// ``UserDatabaseMigrator`` refreshes the capture after each step, in the step's transaction.
final class SyncMigrationTests: LayeredDatabaseTestCase {
    func testAColumnAddedByAStepIsCapturedAtOnce() throws {
        let path = try makeCapturedDatabase(self)
        var migrator = UserDatabaseMigrator()
        migrator.registerMigration(version: 2, "note", sql: "ALTER TABLE item ADD COLUMN note TEXT")
        let connection = try Connection(path: path)
        XCTAssertEqual(try migrator.migrate(connection), [2])
        connection.close()
        try sqlite3(
            path,
            """
            INSERT INTO list VALUES ('L1', 'a', NULL);
            INSERT INTO item (id, list_id) VALUES ('I1', 'L1');
            DELETE FROM shipyard_sync_outbox;
            UPDATE item SET note = 'hello';
            """)
        XCTAssertEqual(try outboxLines(path), ["item|I1|note|2|"])
    }

    func testAStepThatBreaksTheDeclarationsFailsAndIsRolledBack() throws {
        let path = try makeCapturedDatabase(self)
        var migrator = UserDatabaseMigrator()
        migrator.registerMigration(version: 2, "drop items", sql: "DROP TABLE item")
        let connection = try Connection(path: path)
        XCTAssertThrowsError(try migrator.migrate(connection)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("migration 2 'drop items' failed"), text)
            XCTAssertTrue(text.contains("shipyard_sync: table \"item\": no such table"), text)
        }
        connection.close()
        XCTAssertEqual(
            try sqlite3(path, "PRAGMA user_version; SELECT count(*) FROM sqlite_master WHERE name = 'item';"), "0\n1\n")
    }
}
