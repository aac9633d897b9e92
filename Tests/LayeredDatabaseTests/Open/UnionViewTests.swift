import Foundation
import LayeredDatabase
import XCTest

/// TEMP views that union a shipped table with its user twin.
final class UnionViewTests: LayeredDatabaseTestCase {
    func testUnionViewShowsShippedAndUserRowsOnPar() throws {
        let f = try Fixture.make(self)
        let db = try LayeredDatabase(userPath: f.user, templatePath: f.template, bundledPath: f.bundled)
        let sql = try db.createUnionView(named: "all_food", bundledTable: "food", userTable: "user_food")
        XCTAssertEqual(
            sql,
            #"CREATE TEMP VIEW "all_food" AS SELECT "pk", "group", "name", "desc" FROM "bundle"."food" UNION ALL SELECT "pk", "group", "name", "desc" FROM "main"."user_food""#
        )
        try db.execute("INSERT INTO user_food VALUES (2000, 10, 'My apple pie', NULL)")
        let rows = try db.query(#"SELECT pk, "group", name, desc FROM all_food ORDER BY pk"#)
        // Oracle: sqlite3 computes the same union from the two files.
        let expected = try sqlite3(
            f.user,
            """
            ATTACH '\(f.bundled)' AS b;
            SELECT pk, "group", name, desc FROM b.food UNION ALL SELECT pk, "group", name, desc FROM main.user_food ORDER BY pk;
            """)
        XCTAssertEqual(rows.map { $0.values.map(\.shellText).joined(separator: "|") + "\n" }.joined(), expected)
        XCTAssertEqual(rows.count, 5)
        XCTAssertEqual(try db.query(#"SELECT count(*) FROM all_food WHERE "group" = 10"#).first?[0], 3)
        db.connection.close()
        // The view is TEMP: neither file holds it.
        XCTAssertEqual(try sqlite3(f.user, "SELECT count(*) FROM sqlite_schema WHERE type = 'view';"), "0\n")
        XCTAssertEqual(try sqlite3(f.bundled, "SELECT count(*) FROM sqlite_schema WHERE type = 'view';"), "0\n")
    }

    func testExplicitColumnsWithAwkwardNamesAndSourceColumn() throws {
        let f = try Fixture.make(self)
        try sqlite3(
            f.template,
            #"CREATE TABLE "my ""odd"" table" ("pk" INTEGER, "na me" TEXT); INSERT INTO "my ""odd"" table" VALUES (7, 'mine');"#
        )
        let db = try LayeredDatabase(
            userPath: f.user, templatePath: f.template, bundledPath: f.bundled, bundleName: "shipped")
        // The user table's column is "na me", not "name": explicit columns must exist in both
        // (SQLite would otherwise read "name" as the string 'name').
        XCTAssertThrowsError(
            try db.createUnionView(
                named: "v", columns: ["pk", "name"], bundledTable: "food", userTable: "my \"odd\" table")
        ) {
            XCTAssertEqual(($0 as? SQLiteError)?.message, "no such column: name in main.my \"odd\" table")
        }
        try db.execute(#"ALTER TABLE "my ""odd"" table" RENAME COLUMN "na me" TO "name""#)
        try db.createUnionView(
            named: "all \"odd\"", columns: ["pk", "name"], bundledTable: "food", userTable: "my \"odd\" table",
            sourceColumn: "from")
        let rows = try db.query(#"SELECT * FROM "all ""odd""" ORDER BY pk"#)
        XCTAssertEqual(rows.first?.columnNames, ["pk", "name", "from"])
        XCTAssertEqual(
            rows.map { $0.values },
            [[1, "Apple", "shipped"], [2, "Bread", "shipped"], [3, "Pear", "shipped"], [7, "mine", "main"]])
    }

    func testMissingBundledTableIsAnError() throws {
        let f = try Fixture.make(self)
        let db = try LayeredDatabase(userPath: f.user, templatePath: f.template, bundledPath: f.bundled)
        XCTAssertThrowsError(try db.createUnionView(named: "v", bundledTable: "nope", userTable: "user_food"))
        XCTAssertThrowsError(try db.createUnionView(named: "v", bundledTable: "food", userTable: "nope"))
    }
}
