import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// User rows that refer to shipped rows (`shipyard_references`) are reported when the shipped
/// data changes: by ``LayeredDatabase/danglingReferences()`` always, and as conflict rows of
/// kind `dangling-reference` when the database syncs, once per change of the shipped data.
final class DanglingReferencesTests: LayeredDatabaseTestCase {
    private let userScript = """
        CREATE TABLE favourite (id TEXT PRIMARY KEY NOT NULL, food_pk INTEGER, note TEXT);
        CREATE TABLE shipyard_references (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
                                          shipped_table TEXT NOT NULL, shipped_column TEXT NOT NULL);
        INSERT INTO shipyard_references VALUES ('favourite', 'food_pk', 'food', 'pk');
        INSERT INTO favourite VALUES ('f1', 1, NULL), ('f2', 2, NULL), ('f3', 3, NULL), ('f4', NULL, 'none');
        """
    private let syncScript = """
        CREATE TABLE shipyard_sync (table_name TEXT NOT NULL, column_name TEXT, rule TEXT NOT NULL);
        INSERT INTO shipyard_sync VALUES ('favourite', NULL, 'last-edit-wins');
        """

    private func fixture(syncing: Bool) throws -> UpdateFixture {
        let fixture = try UpdateFixture.make(self)
        try FileManager.default.removeItem(atPath: fixture.user)
        try sqlite3(fixture.user, userScript + (syncing ? syncScript : ""))
        if syncing {
            let connection = try Connection(path: fixture.user)
            try SyncCapture.refresh(on: connection)
            connection.close()
        }
        return fixture
    }

    private func open(_ fixture: UpdateFixture) throws -> LayeredDatabase {
        try LayeredDatabase(userPath: fixture.user, bundledPath: fixture.bundled, updatesDirectory: fixture.updates)
    }

    private func conflicts(_ fixture: UpdateFixture) throws -> String {
        try sqlite3(
            fixture.user,
            "SELECT table_name, row_key, column_name, kind, device_value FROM shipyard_sync_conflicts ORDER BY id;")
    }

    func testDanglingReferencesAreFoundAfterAnUpdateRemovesShippedRows() throws {
        let fixture = try fixture(syncing: false)
        var database = try open(fixture)
        XCTAssertEqual(try database.danglingReferences(), [])
        let v8 = try fixture.version("v8.sqlite", "DELETE FROM food WHERE pk = 2; PRAGMA user_version = 8;")
        try fixture.installer.installDatabase(at: v8)
        XCTAssertEqual(try database.danglingReferences(), [], "the open database keeps its shipped data")
        XCTAssertTrue(try database.switchToNewestShippedData())
        let reference = ShippedReference(
            table: "favourite", column: "food_pk", shippedTable: "food", shippedColumn: "pk")
        XCTAssertEqual(
            try database.danglingReferences(), [DanglingReference(reference: reference, rowKey: "f2", value: 2)])
        database = try open(fixture)
        XCTAssertEqual(try database.danglingReferences().map(\.rowKey), ["f2"])
        // No sync declared: no conflicts table is made.
        XCTAssertEqual(
            try sqlite3(fixture.user, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'shipyard_sync_%';"), "0\n")
    }

    func testASyncedDatabaseRecordsThemAsConflictsOncePerChange() throws {
        let fixture = try fixture(syncing: true)
        _ = try open(fixture)
        XCTAssertEqual(try conflicts(fixture), "", "the first open checks: nothing dangles")
        let v8 = try fixture.version("v8.sqlite", "DELETE FROM food WHERE pk = 2; PRAGMA user_version = 8;")
        try fixture.installer.installDatabase(at: v8)
        let database = try open(fixture) // an open after an update
        XCTAssertEqual(try conflicts(fixture), "favourite|f2|food_pk|dangling-reference|2\n")
        XCTAssertFalse(try database.switchToNewestShippedData())
        _ = try open(fixture)
        XCTAssertEqual(try conflicts(fixture), "favourite|f2|food_pk|dangling-reference|2\n", "recorded once")

        // Switching while open: the next change is recorded at the switch; the app deleted the
        // row it handled, and it is not recorded again for the same shipped data.
        try sqlite3(fixture.user, "DELETE FROM shipyard_sync_conflicts;")
        let v9 = try fixture.version("v9.sqlite", "DELETE FROM food WHERE pk IN (2, 3); PRAGMA user_version = 9;")
        try fixture.installer.installDatabase(at: v9)
        XCTAssertTrue(try database.switchToNewestShippedData())
        XCTAssertEqual(
            try conflicts(fixture),
            "favourite|f2|food_pk|dangling-reference|2\nfavourite|f3|food_pk|dangling-reference|3\n")
        try sqlite3(fixture.user, "DELETE FROM shipyard_sync_conflicts;")
        _ = try open(fixture)
        XCTAssertEqual(try conflicts(fixture), "")
        // The check is not a local write: nothing was queued.
        XCTAssertEqual(try outboxLines(fixture.user), [])
    }

    func testAShippedTableThatIsGoneLeavesEveryReferenceDangling() throws {
        let fixture = try fixture(syncing: false)
        let v8 = try fixture.version("v8.sqlite", "DROP TABLE food; PRAGMA user_version = 8;")
        try fixture.installer.installDatabase(at: v8)
        XCTAssertEqual(try open(fixture).danglingReferences().map(\.rowKey), ["f1", "f2", "f3"])
    }
}
