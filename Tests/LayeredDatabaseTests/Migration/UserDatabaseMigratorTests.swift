import Foundation
import LayeredDatabase
import XCTest

/// Migrations by `PRAGMA user_version`: applied in order, each atomically; a failure
/// leaves the database as it was before that step.
final class UserDatabaseMigratorTests: LayeredDatabaseTestCase {
    /// The app's migrations from template version 1 to 3.
    static func appMigrator() -> UserDatabaseMigrator {
        var migrator = UserDatabaseMigrator()
        migrator.registerMigration(
            version: 1, "create user_food",
            sql: """
                CREATE TABLE user_food ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT);
                """)
        migrator.registerMigration(version: 2, "notes", sql: "ALTER TABLE user_food ADD COLUMN notes TEXT DEFAULT ''")
        migrator.registerMigration(version: 3, "favourites") { db in
            try db.execute("CREATE TABLE favourite (food_pk INTEGER NOT NULL)")
            try db.execute("INSERT INTO favourite SELECT pk FROM user_food WHERE name LIKE ?", ["%soup%"])
        }
        return migrator
    }

    func testOldUserDatabaseIsBroughtForwardKeepingRows() throws {
        let f = try Fixture.make(self)
        // An old user database (template version 1) with the user's rows.
        try sqlite3(
            f.user, templateSchema + "INSERT INTO user_food VALUES (1001, 1, 'My soup', NULL), (1002, 2, 'Tea', 'x');")
        let rowsBefore = try sqlite3(f.user, "SELECT pk, \"group\", name, desc FROM user_food ORDER BY pk;")
        let db = try LayeredDatabase(
            userPath: f.user, templatePath: f.template, bundledPath: f.bundled, migrator: Self.appMigrator())
        XCTAssertEqual(db.appliedMigrations, [2, 3])
        db.connection.close()
        XCTAssertEqual(try sqlite3(f.user, "PRAGMA user_version;"), "3\n")
        XCTAssertEqual(try sqlite3(f.user, "SELECT pk, \"group\", name, desc FROM user_food ORDER BY pk;"), rowsBefore)
        XCTAssertEqual(
            try sqlite3(f.user, "SELECT notes IS '' FROM user_food LIMIT 1; SELECT food_pk FROM favourite ORDER BY 1;"),
            "1\n1000\n1001\n")
        // Opening again applies nothing.
        let again = try LayeredDatabase(userPath: f.user, bundledPath: f.bundled, migrator: Self.appMigrator())
        XCTAssertEqual(again.appliedMigrations, [])
    }

    func testFreshDatabaseRunsAllStepsAndNewTemplateSkipsThem() throws {
        let f = try Fixture.make(self)
        let empty = try LayeredDatabase(userPath: f.user, bundledPath: f.bundled, migrator: Self.appMigrator())
        XCTAssertEqual(empty.appliedMigrations, [1, 2, 3])
        // A newer template already at version 3 needs nothing.
        let newTemplate = f.directory.appendingPathComponent("template-v3.sqlite").path
        try sqlite3(newTemplate, "CREATE TABLE user_food (pk INTEGER PRIMARY KEY); PRAGMA user_version = 3;")
        let user2 = f.directory.appendingPathComponent("user2.sqlite").path
        let db = try LayeredDatabase(
            userPath: user2, templatePath: newTemplate, bundledPath: f.bundled, migrator: Self.appMigrator())
        XCTAssertEqual(db.appliedMigrations, [])
    }

    func testMigrationFailingHalfWayLeavesUserDatabaseUnchanged() throws {
        let f = try Fixture.make(self)
        try sqlite3(f.user, templateSchema + "INSERT INTO user_food VALUES (1001, 1, 'My soup', NULL);")
        let dumpBefore = try sqlite3(f.user, ".dump")
        let bytesBefore = bytes(f.user)
        var migrator = UserDatabaseMigrator()
        migrator.registerMigration(
            version: 2, "half way",
            sql: """
                ALTER TABLE user_food ADD COLUMN notes TEXT;
                DELETE FROM user_food;
                CREATE TABLE extra (a);
                INSERT INTO no_such_table VALUES (1);
                """)
        migrator.registerMigration(version: 3, "later") { try $0.execute("CREATE TABLE later (a)") }
        XCTAssertThrowsError(try LayeredDatabase(userPath: f.user, bundledPath: f.bundled, migrator: migrator)) {
            error in
            guard case .migrationFailed(let version, let identifier, let underlying)? = error as? LayeredDatabaseError
            else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(version, 2)
            XCTAssertEqual(identifier, "half way")
            XCTAssertTrue(underlying.message.contains("no_such_table"), underlying.message)
            XCTAssertEqual(underlying.sql, "INSERT INTO no_such_table VALUES (1);")
        }
        XCTAssertEqual(try sqlite3(f.user, ".dump"), dumpBefore)
        XCTAssertEqual(try sqlite3(f.user, "PRAGMA user_version;"), "1\n")
        XCTAssertEqual(bytes(f.user), bytesBefore)
    }

    func testEarlierStepsStayWhenALaterStepFails() throws {
        let f = try Fixture.make(self)
        var migrator = UserDatabaseMigrator()
        migrator.registerMigration(version: 2, "ok", sql: "CREATE TABLE two (a); INSERT INTO two VALUES (2);")
        migrator.registerMigration(version: 3, "closure fails") { db in
            try db.execute("CREATE TABLE three (a)")
            struct Refused: Error {}
            throw Refused()
        }
        migrator.registerMigration(version: 4, "never") { try $0.execute("CREATE TABLE four (a)") }
        XCTAssertThrowsError(
            try LayeredDatabase(userPath: f.user, templatePath: f.template, bundledPath: f.bundled, migrator: migrator)
        ) {
            guard case .migrationFailed(3, "closure fails", _)? = $0 as? LayeredDatabaseError else {
                return XCTFail("\($0)")
            }
        }
        XCTAssertEqual(
            try sqlite3(f.user, "PRAGMA user_version; SELECT name FROM sqlite_schema ORDER BY name;"),
            "2\ntwo\nuser_food\n")
    }

    func testStepsOutOfOrderAreRefusedBeforeAnythingRuns() throws {
        let f = try Fixture.make(self)
        for versions in [[2, 2], [3, 2], [0]] as [[Int32]] {
            var migrator = UserDatabaseMigrator()
            for v in versions { migrator.registerMigration(version: v, "v\(v)", sql: "CREATE TABLE t\(v) (a)") }
            XCTAssertThrowsError(
                try LayeredDatabase(
                    userPath: f.user, templatePath: f.template, bundledPath: f.bundled, migrator: migrator)
            ) {
                guard case .invalidMigrationOrder? = $0 as? LayeredDatabaseError else { return XCTFail("\($0)") }
            }
        }
        XCTAssertEqual(try sqlite3(f.user, "PRAGMA user_version; SELECT count(*) FROM sqlite_schema;"), "1\n1\n")
    }
}
