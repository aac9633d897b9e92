import Foundation
import ShipyardTestSupport
import XCTest

/// A fresh temporary directory, removed when the test ends.
func makeScratchDirectory(_ test: XCTestCase, name: String = "layered") throws -> URL {
    try TemporaryDirectory(name, removedAfter: test).url
}

/// Runs the real sqlite3 shell (the oracle): `sqlite3 -batch -bail PATH` with `script` on stdin;
/// throws when sqlite3 reports an error.
@discardableResult
func sqlite3(_ path: String, _ script: String) throws -> String {
    try Oracle.sqlite3Script(path, script)
}

/// The shipped database of the tests, built by the sqlite3 shell (not by the code under test).
let bundledSchema = """
    CREATE TABLE food ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT);
    CREATE TABLE version (ver INTEGER);
    INSERT INTO food VALUES (1, 10, 'Apple', 'fruit'), (2, 20, 'Bread', NULL), (3, 10, 'Pear', 'fruit');
    INSERT INTO version VALUES (2);
    PRAGMA user_version = 7;
    """

/// The user template: the user's twin table, at schema version 1.
let templateSchema = """
    CREATE TABLE user_food ("pk" INTEGER PRIMARY KEY NOT NULL, "group" INTEGER, "name" TEXT, "desc" TEXT);
    INSERT INTO user_food VALUES (1000, 99, 'Template soup', 'from the template');
    PRAGMA user_version = 1;
    """

/// Paths of a bundled database and a user template in `directory`.
struct Fixture {
    let directory: URL
    var bundled: String { directory.appendingPathComponent("database.sqlite").path }
    var template: String { directory.appendingPathComponent("user-template.sqlite").path }
    var user: String { directory.appendingPathComponent("user.sqlite").path }

    /// Builds both databases with the sqlite3 shell.
    static func make(_ test: XCTestCase, in directory: URL? = nil) throws -> Fixture {
        let fixture = Fixture(directory: try directory ?? makeScratchDirectory(test))
        try sqlite3(fixture.bundled, bundledSchema)
        try sqlite3(fixture.template, templateSchema)
        return fixture
    }
}

/// The bytes of a file (for before/after comparisons).
func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// The directory's entries, sorted.
func listing(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}
