import Foundation
import LayeredDatabase
import XCTest

/// Paths with spaces, quotes, `?`, `#`, `%`, non-ASCII characters and URI-looking
/// components reach the right files, and nothing is created elsewhere.
final class HostilePathTests: LayeredDatabaseTestCase {
    static let hostileComponents = [
        "with space",
        "it's \"quoted\"",
        "what?mode=rwc",
        "x?mode=rwc&immutable=0",
        "hash#fragment",
        "100% %41%2F",
        "Ünïcødé 食品 🍎",
        "semi;colon&amp=1",
    ]

    func testHostilePathsForBundleUserAndTemplate() throws {
        let root = try makeScratchDirectory(self)
        for component in Self.hostileComponents {
            let directory = root.appendingPathComponent(component, isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let bundled = directory.appendingPathComponent("bundle \(component).sqlite").path
            let template = directory.appendingPathComponent("template \(component).sqlite").path
            let user = directory.appendingPathComponent("user \(component).sqlite").path
            try sqlite3(bundled, bundledSchema)
            try sqlite3(template, templateSchema)
            let bundleBytes = bytes(bundled)
            let rootBefore = try listing(root)
            let directoryBefore = try listing(directory)

            let db = try LayeredDatabase(userPath: user, templatePath: template, bundledPath: bundled)
            XCTAssertEqual(
                try db.query("SELECT file FROM pragma_database_list WHERE name = 'bundle'").first?[0].shellText,
                bundled, component)
            XCTAssertEqual(try db.query("SELECT count(*) FROM bundle.food").first?[0], 3, component)
            XCTAssertThrowsError(try db.execute("DELETE FROM bundle.food"), component)
            try db.execute("INSERT INTO user_food (pk, name) VALUES (1, ?)", [.text(component)])
            db.connection.close()

            XCTAssertEqual(bytes(bundled), bundleBytes, component)
            XCTAssertEqual(try sqlite3(user, "SELECT name FROM user_food WHERE pk = 1;"), component + "\n")
            XCTAssertEqual(try listing(root), rootBefore, "no stray file beside \(component)")
            XCTAssertEqual(
                try listing(directory), (directoryBefore + [(user as NSString).lastPathComponent]).sorted(), component)
        }
    }

    func testRelativePathsResolveAgainstTheCurrentDirectory() throws {
        let f = try Fixture.make(self)
        let saved = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(f.directory.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(saved) }
        let db = try LayeredDatabase(
            userPath: "user.sqlite", templatePath: "user-template.sqlite", bundledPath: "database.sqlite")
        XCTAssertEqual(try db.query("SELECT count(*) FROM bundle.food").first?[0], 3)
        XCTAssertTrue(FileManager.default.fileExists(atPath: f.user))
    }

    func testURIEncoding() {
        XCTAssertEqual(SQLiteURI.encodePath("/a b/c?d#e%f'g\"h/é"), "/a%20b/c%3Fd%23e%25f%27g%22h/%C3%A9")
        XCTAssertEqual(
            SQLiteURI.fileURI(path: "/x/y.sqlite", parameters: [("mode", "ro"), ("immutable", "1")]),
            "file:///x/y.sqlite?mode=ro&immutable=1")
        XCTAssertEqual(SQLiteURI.fileURI(path: "//host/y"), "file:////host/y")
    }
}
