import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// The user database sets what it relies on, so it behaves alike under Apple's SQLite build
/// defaults (emulated: ``AppleSQLiteDefaults``) and this machine's.
final class UserDatabaseSettingsTests: LayeredDatabaseTestCase {
    override func setUp() {
        super.setUp()
        AppleSQLiteDefaults.enable()
    }

    override func tearDown() {
        AppleSQLiteDefaults.disable()
        super.tearDown()
    }

    func testTheEmulationIsInEffect() throws {
        let directory = try makeScratchDirectory(self)
        let plain = try Connection(path: directory.appendingPathComponent("plain.sqlite").path, create: true)
        XCTAssertEqual(try plain.scalar("PRAGMA recursive_triggers"), 1)
        try plain.execute("CREATE TABLE t(x)")
        XCTAssertEqual(
            try plain.scalar("PRAGMA auto_vacuum"), 1, "FULL, as Apple's DEFAULT_AUTOVACUUM gives a new database")
    }

    func testTheUserDatabaseSetsRecursiveTriggersAndAutoVacuum() throws {
        let fixture = try Fixture.make(self)
        let database = try LayeredDatabase(userPath: fixture.user, templatePath: nil, bundledPath: fixture.bundled)
        XCTAssertEqual(try database.connection.scalar("PRAGMA recursive_triggers"), 0)
        try database.execute("CREATE TABLE user_food(pk INTEGER PRIMARY KEY, name TEXT)")
        XCTAssertEqual(
            try database.connection.scalar("PRAGMA main.auto_vacuum"), 0, "a user database created empty: NONE")
        XCTAssertEqual(
            try sqlite3(fixture.user, "PRAGMA auto_vacuum;"), "0\n", "in the file, read by the sqlite3 shell")
    }

    /// With recursive_triggers ON, `INSERT OR REPLACE` fires the DELETE trigger of the row it
    /// replaces; the user database behaves as the sqlite3 shell here does (the oracle).
    func testReplaceFiresNoDeleteTriggerAsWithTheShell() throws {
        let fixture = try Fixture.make(self)
        let script = """
            CREATE TABLE deleted_log(pk INTEGER);
            CREATE TRIGGER log_delete AFTER DELETE ON user_food BEGIN INSERT INTO deleted_log VALUES (old.pk); END;
            """
        try sqlite3(fixture.template, script)
        let replace = "INSERT OR REPLACE INTO user_food VALUES (1000, 1, 'Soup', NULL);"
        let oracleCopy = fixture.directory.appendingPathComponent("oracle.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.template, toPath: oracleCopy)
        let expected = try sqlite3(oracleCopy, replace + " SELECT count(*) FROM deleted_log;")
        let database = try LayeredDatabase(
            userPath: fixture.user, templatePath: fixture.template, bundledPath: fixture.bundled)
        try database.execute(replace)
        XCTAssertEqual("\(try database.connection.scalar("SELECT count(*) FROM deleted_log")!.shellText)\n", expected)
        XCTAssertEqual(expected, "0\n")
    }
}
