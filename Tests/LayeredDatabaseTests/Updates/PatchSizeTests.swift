import Foundation
import LayeredDatabase
import ShipyardTestSupport
import XCTest

/// Installing a patch takes time in proportion to its size, whatever its shape: one statement of
/// many lines, many statements, many statements on one line, one long line. Each patch here is
/// about 6 MB; read linearly it installs in a few seconds on a loaded machine, while the square
/// of one of its dimensions (200,000 lines in one statement: a reading that looked at the whole
/// statement again at each line took 32 s for 40,000 lines, so about 800 s for these) is far
/// past the bound, which is many times what a linear reading needs.
final class PatchSizeTests: LayeredDatabaseTestCase {
    private static let bound: TimeInterval = 60

    private func install(_ name: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> (seconds: TimeInterval, fixture: UpdateFixture)
    {
        let fixture = try UpdateFixture.make(self)
        let path = fixture.directory.appendingPathComponent(name).path
        try Data((body + "PRAGMA user_version = 9;\n").utf8).write(to: URL(fileURLWithPath: path))
        let start = Date()
        XCTAssertEqual(try fixture.updater.installPatch(at: path).userVersion, 9, file: file, line: line)
        let seconds = Date().timeIntervalSince(start)
        XCTAssertLessThan(seconds, Self.bound, "\(name): \(body.utf8.count) bytes", file: file, line: line)
        return (seconds, fixture)
    }

    func testOneStatementOfManyLines() throws {
        let lines = 200_000
        let value = (0..<lines).map { "line \($0) of the value;" }.joined(separator: "\n")
        let (_, fixture) = try install("lines.sql", "INSERT INTO food VALUES (9, 1, '\(value)', NULL);\n")
        XCTAssertEqual(
            try sqlite3(
                fixture.installed, "SELECT length(name) - length(replace(name, char(10), '')) FROM food WHERE pk = 9"),
            "\(lines - 1)\n")
    }

    func testManyStatementsOfOneLine() throws {
        let statements = (0..<50_000).map { "INSERT INTO version VALUES (\($0));" }.joined(separator: "\n")
        let (_, fixture) = try install("statements.sql", statements + "\n")
        XCTAssertEqual(try sqlite3(fixture.installed, "SELECT count(*) FROM version"), "50001\n")
    }

    func testManyStatementsOnOneLine() throws {
        let statements = (0..<50_000).map { "INSERT INTO version VALUES (\($0));" }.joined(separator: " ")
        let (_, fixture) = try install("one-line.sql", statements + "\n")
        XCTAssertEqual(try sqlite3(fixture.installed, "SELECT count(*) FROM version"), "50001\n")
    }

    func testOneLongLine() throws {
        let value = String(repeating: "0123456789abcdef", count: 400_000)
        let (_, fixture) = try install("long-line.sql", "UPDATE food SET desc = '\(value)' WHERE pk = 1;\n")
        XCTAssertEqual(try sqlite3(fixture.installed, "SELECT length(desc) FROM food WHERE pk = 1"), "6400000\n")
    }

    /// The header is read a line at a time too: a first line of 6 MB costs one pass over it.
    func testALongFirstLineBeforeTheHeader() throws {
        let comment = "-- " + String(repeating: "x", count: 6_400_000) + "\n"
        _ = try install("long-comment.sql", comment + "UPDATE food SET name = 'x' WHERE pk = 1;\n")
    }
}
