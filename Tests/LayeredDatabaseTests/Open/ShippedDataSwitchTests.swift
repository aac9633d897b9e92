import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// An open LayeredDatabase keeps the shipped data it attached while updates are installed, and
/// switches to the newest at a moment the app chooses (no statement running), or on its next
/// open; never in the middle of a query.
final class ShippedDataSwitchTests: LayeredDatabaseTestCase {
    private func names(_ database: LayeredDatabase) throws -> [String] {
        try database.query("SELECT name FROM bundle.food ORDER BY pk").map { $0[0].shellText }
    }

    private func open(_ fixture: UpdateFixture) throws -> LayeredDatabase {
        try LayeredDatabase(userPath: fixture.user, bundledPath: fixture.bundled, updatesDirectory: fixture.updates)
    }

    func testQueriesSeeTheAttachedDataUntilTheAppSwitches() throws {
        let fixture = try UpdateFixture.make(self)
        let database = try open(fixture)
        try database.createUnionView(named: "all_food", columns: ["name"], bundledTable: "food", userTable: "user_food")
        XCTAssertFalse(try database.hasNewerShippedData)
        XCTAssertFalse(try database.switchToNewestShippedData(), "nothing installed: nothing to switch to")

        let v8 = try fixture.version(
            "v8.sqlite", "INSERT INTO food VALUES (4, 30, 'Kiwi', NULL); PRAGMA user_version = 8;")
        try fixture.installer.installDatabase(at: v8)
        XCTAssertTrue(try database.hasNewerShippedData)
        XCTAssertEqual(try names(database), ["Apple", "Bread", "Pear"], "the open database keeps its data")
        XCTAssertEqual(try database.connection.userVersion(schema: "bundle"), 7)
        XCTAssertEqual(database.databaseInEffect.userVersion, 7)
        XCTAssertFalse(database.databaseInEffect.isInstalledUpdate)

        XCTAssertTrue(try database.switchToNewestShippedData())
        XCTAssertEqual(try names(database), ["Apple", "Bread", "Pear", "Kiwi"])
        XCTAssertEqual(try database.connection.userVersion(schema: "bundle"), 8)
        XCTAssertEqual(database.databaseInEffect.path, fixture.installed)
        XCTAssertEqual(database.databaseInEffect.userVersion, 8)
        XCTAssertTrue(database.databaseInEffect.isInstalledUpdate)
        XCTAssertFalse(try database.hasNewerShippedData)
        XCTAssertEqual(
            try database.query("SELECT name FROM all_food ORDER BY name").map { $0[0].shellText },
            ["Apple", "Bread", "Kiwi", "Pear", "mine"], "the TEMP view reads the new data")

        // Still what an open attaches: read-only, and its DETACH refused.
        XCTAssertThrowsError(try database.execute("DELETE FROM bundle.food")) {
            XCTAssertTrue(($0 as? SQLiteError)?.isReadOnly ?? false, "\($0)")
        }
        XCTAssertThrowsError(try database.execute("DETACH DATABASE bundle"))
        XCTAssertEqual(try names(database).count, 4)
        XCTAssertEqual(try sqlite3(fixture.user, "SELECT name FROM user_food"), "mine\n")
    }

    /// A switch asked for while a SELECT is still stepping is refused; that SELECT reads the old
    /// data to its end, and the switch succeeds once it has finished.
    func testASwitchDuringARunningStatementIsRefusedAndTheQueryFinishesOnTheOldData() throws {
        let fixture = try UpdateFixture.make(self)
        let database = try open(fixture)
        let v8 = try fixture.version(
            "v8.sqlite",
            "UPDATE food SET name = upper(name); INSERT INTO food VALUES (4, 30, 'KIWI', NULL); PRAGMA user_version = 8;"
        )
        var seen: [String] = []
        var refusals: [LayeredDatabaseError] = []
        try database.forEachRow("SELECT name FROM bundle.food ORDER BY pk") { row in
            seen.append(row[0].shellText)
            if seen.count == 1 { try fixture.installer.installDatabase(at: v8) }
            XCTAssertThrowsError(try database.switchToNewestShippedData()) {
                refusals.append($0 as? LayeredDatabaseError ?? .statementRunning)
                XCTAssertEqual($0 as? LayeredDatabaseError, .statementRunning, "\($0)")
            }
        }
        XCTAssertEqual(seen, ["Apple", "Bread", "Pear"], "the running query finished on the data it started with")
        XCTAssertEqual(refusals.count, 3)
        XCTAssertTrue(
            refusals[0].message.contains("while a statement is running"), refusals[0].message)
        XCTAssertEqual(database.databaseInEffect.userVersion, 7)
        XCTAssertEqual(try names(database), ["Apple", "Bread", "Pear"], "nothing switched")

        XCTAssertTrue(try database.switchToNewestShippedData())
        XCTAssertEqual(try names(database), ["APPLE", "BREAD", "PEAR", "KIWI"])
    }

    func testASwitchInsideATransactionIsRefused() throws {
        let fixture = try UpdateFixture.make(self)
        let database = try open(fixture)
        try fixture.installer.installDatabase(
            at: try fixture.version("v8.sqlite", "DELETE FROM food WHERE pk = 1; PRAGMA user_version = 8;"))
        try database.execute("BEGIN")
        XCTAssertThrowsError(try database.switchToNewestShippedData()) {
            XCTAssertEqual($0 as? LayeredDatabaseError, .transactionOpen, "\($0)")
        }
        XCTAssertEqual(try names(database), ["Apple", "Bread", "Pear"])
        try database.execute("COMMIT")
        XCTAssertTrue(try database.switchToNewestShippedData())
        XCTAssertEqual(try names(database), ["Bread", "Pear"])
    }

    /// A patch installed over an installed update, then the next open: each sees the newest.
    func testAPatchInstalledWhileOpenAndTheNextOpen() throws {
        let fixture = try UpdateFixture.make(self)
        let v8 = try fixture.version(
            "v8.sqlite", "INSERT INTO food VALUES (4, 30, 'Kiwi', NULL); PRAGMA user_version = 8;")
        let v9 = try fixture.version(
            "v9.sqlite",
            "INSERT INTO food VALUES (4, 30, 'Kiwi', NULL); INSERT INTO food VALUES (5, 30, 'Fig', NULL); PRAGMA user_version = 9;"
        )
        try fixture.installer.installDatabase(at: v8)
        let database = try open(fixture)
        XCTAssertEqual(try names(database), ["Apple", "Bread", "Pear", "Kiwi"])
        let patch = fixture.directory.appendingPathComponent("v8-v9.sql").path
        try BuiltPatch.write(old: v8, new: v9, to: patch)
        try fixture.installer.installPatch(at: patch)
        XCTAssertEqual(try names(database), ["Apple", "Bread", "Pear", "Kiwi"], "the renamed-over file is still read")
        XCTAssertTrue(try database.hasNewerShippedData)

        let reopened = try open(fixture)
        XCTAssertEqual(
            try names(reopened), ["Apple", "Bread", "Pear", "Kiwi", "Fig"], "the next open sees the new data")
        XCTAssertEqual(reopened.databaseInEffect.userVersion, 9)

        XCTAssertTrue(try database.switchToNewestShippedData())
        XCTAssertEqual(try names(database), ["Apple", "Bread", "Pear", "Kiwi", "Fig"])
        XCTAssertEqual(database.databaseInEffect, reopened.databaseInEffect)
    }
}
