import Foundation
import XCTest

/// A fresh temporary directory, removed when the test ends.
func makeScratchDirectory(_ test: XCTestCase, name: String = "layered") throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// Runs the real sqlite3 shell (the oracle): `sqlite3 -batch PATH` with `script` on stdin.
/// Fails the test when sqlite3 reports an error.
@discardableResult
func sqlite3(_ path: String, _ script: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = ["-batch", "-bail", path]
    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(script.utf8))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "sqlite3 failed: \(String(decoding: err, as: UTF8.self))", file: file, line: line)
    return String(decoding: out, as: UTF8.self)
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
