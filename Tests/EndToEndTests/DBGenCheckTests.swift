import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen check`: 0 when OUTPUT holds what SCHEMA builds, 1 when it differs (naming tables), 2 on error.
final class DBGenCheckTests: XCTestCase {
    private func makeBuiltProject() throws -> URL {
        let dir = try TemporaryDirectory("dbgen-check", removedAfter: self).url
        try DBGenTestSupport.write(
            """
            CREATE TABLE food (pk INTEGER PRIMARY KEY, name TEXT, kcal REAL, note);
            CREATE TABLE version (ver INTEGER);
            INSERT INTO food VALUES (1, 'apple', 52.0, 1), (2, 'pear', 57.5, NULL);
            INSERT INTO version VALUES (2);
            CREATE INDEX idx_food_name ON food (name);
            PRAGMA user_version = 9;

            """, to: "schema.txt", in: dir)
        // The database under check is built by sqlite3 itself (the oracle), not by dbgen.
        let built = try DBGenTestSupport.sqlite3Build(schema: "schema.txt", output: "out.sqlite", in: dir)
        XCTAssertEqual(built.stderrText, "")
        return dir
    }

    private func check(_ dir: URL) throws -> ProcessResult {
        try DBGenTestSupport.dbgen(["check", "schema.txt", "-o", "out.sqlite"], in: dir)
    }

    func testIdenticalContentExitsZero() throws {
        let dir = try makeBuiltProject()
        let result = try check(dir)
        XCTAssertEqual(result.status, 0, result.stdoutText + result.stderrText)
        // VACUUM rewrites the bytes (and may renumber implicit rowids) but not the content.
        _ = try DBGenTestSupport.query(dir.appendingPathComponent("out.sqlite"), "VACUUM;")
        XCTAssertEqual(try check(dir).status, 0)
    }

    func testChangedRowsNameTheTable() throws {
        let dir = try makeBuiltProject()
        _ = try DBGenTestSupport.query(
            dir.appendingPathComponent("out.sqlite"), "UPDATE food SET kcal = 52 WHERE pk = 1;")
        XCTAssertEqual(try check(dir).status, 0, "52 in a REAL column is stored as 52.0: same content")
        // Same value, other type: the text '1' instead of the integer 1 is a difference.
        _ = try DBGenTestSupport.query(
            dir.appendingPathComponent("out.sqlite"), "UPDATE food SET note = '1' WHERE pk = 1;")
        let result = try check(dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdoutText.contains("food"), result.stdoutText)
        XCTAssertFalse(result.stdoutText.contains("version"), result.stdoutText)
    }

    func testMissingAndExtraObjectsAndUserVersion() throws {
        let dir = try makeBuiltProject()
        _ = try DBGenTestSupport.query(
            dir.appendingPathComponent("out.sqlite"),
            "DROP INDEX idx_food_name; CREATE TABLE leftover (x); PRAGMA user_version = 1;")
        let result = try check(dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdoutText.contains("idx_food_name"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("leftover"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("user_version"), result.stdoutText)
    }

    func testErrorsExitTwo() throws {
        let dir = try makeBuiltProject()
        let missing = try DBGenTestSupport.dbgen(["check", "schema.txt", "-o", "nope.sqlite"], in: dir)
        XCTAssertEqual(missing.status, 2, missing.stderrText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("nope.sqlite").path))
        try DBGenTestSupport.write("CREATE TABLE broken (;\n", to: "bad.txt", in: dir)
        let broken = try DBGenTestSupport.dbgen(["check", "bad.txt", "-o", "out.sqlite"], in: dir)
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.stderrText.hasPrefix("bad.txt:1:22: error:"), broken.stderrText)
        try DBGenTestSupport.write(
            "not a database, just text that is long enough to have a header............", to: "junk.sqlite", in: dir)
        XCTAssertEqual(try DBGenTestSupport.dbgen(["check", "schema.txt", "-o", "junk.sqlite"], in: dir).status, 2)
    }
}
