import Foundation
import ShipyardTestSupport
import XCTest

/// The output is ready to ship: rollback-journal mode whatever the script set (a warning at
/// the line that set WAL), read-only opens create nothing beside it, and the build's
/// up-to-date record is not in its directory.
final class DBGenSealedOutputTests: XCTestCase {
    private func fixture() throws -> (dir: URL, cache: URL) {
        let dir = try TemporaryDirectory("sealed 'out'", removedAfter: self).url
        try DBGenTestSupport.write(
            """
            CREATE TABLE food(id INTEGER PRIMARY KEY, name TEXT);
            PRAGMA journal_mode=WAL;
            INSERT INTO food VALUES (1, 'apple'), (2, 'pear');
            PRAGMA user_version = 3;
            """, to: "schema.txt", in: dir)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("Resources"), withIntermediateDirectories: true)
        try TemporaryDirectory.backdateContents(of: dir)
        return (dir, dir.appendingPathComponent("cache"))
    }

    private func header(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url).prefix(100))
    }

    func testWALScriptGivesARollbackJournalDatabaseAndAWarningAtThatLine() throws {
        let (dir, cache) = try fixture()
        let result = try DBGenTestSupport.dbgen(
            ["schema.txt", "-o", "Resources/food.sqlite"], in: dir,
            environment: ["DBGEN_CACHE_DIR": cache.path])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertTrue(
            result.stderrText.contains("schema.txt:2:1: warning: journal_mode=WAL is not kept"), result.stderrText)
        let output = dir.appendingPathComponent("Resources/food.sqlite")
        XCTAssertEqual(Array(try header(output)[18...19]), [1, 1], "header bytes 18-19: rollback journal")
        // Content parity with sqlite3 (whose output stays in WAL mode).
        let oracle = dir.appendingPathComponent("oracle.sqlite")
        _ = try DBGenTestSupport.sqlite3Build(schema: "schema.txt", output: oracle.path, in: dir)
        XCTAssertEqual(Array(try header(oracle)[18...19]), [2, 2], "the oracle's output is WAL")
        XCTAssertEqual(try DBGenTestSupport.content(of: output), try DBGenTestSupport.content(of: oracle))
    }

    func testReadOnlyOpenCreatesNoFileBesideTheOutput() throws {
        let (dir, cache) = try fixture()
        _ = try DBGenTestSupport.dbgen(
            ["schema.txt", "-o", "Resources/food.sqlite"], in: dir, environment: ["DBGEN_CACHE_DIR": cache.path])
        let resources = dir.appendingPathComponent("Resources")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: resources.path), ["food.sqlite"])
        let before = try Data(contentsOf: resources.appendingPathComponent("food.sqlite"))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: resources.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: resources.path) }
        let read = try Oracle.sqlite3.run([
            "-readonly", resources.appendingPathComponent("food.sqlite").path, "SELECT count(*) FROM food;",
        ])
        XCTAssertEqual(read.stdoutText, "2\n", read.stderrText)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: resources.path), ["food.sqlite"],
            "no -wal/-shm/-journal")
        XCTAssertEqual(try Data(contentsOf: resources.appendingPathComponent("food.sqlite")), before)
    }

    func testUpToDateRecordIsKeptOutOfTheOutputDirectory() throws {
        let (dir, cache) = try fixture()
        let environment = ["DBGEN_CACHE_DIR": cache.path]
        let resources = dir.appendingPathComponent("Resources")
        XCTAssertEqual(
            try DBGenTestSupport.dbgen(
                ["schema.txt", "-o", "Resources/food.sqlite"], in: dir, environment: environment
            ).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: resources.path), ["food.sqlite"])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: cache.path).count, 1,
            "the record is in the cache directory")
        let output = resources.appendingPathComponent("food.sqlite")
        let built = try DBGenTestSupport.modificationDate(output)
        Thread.sleep(forTimeInterval: 0.05)
        let again = try DBGenTestSupport.dbgen(
            ["schema.txt", "-o", "Resources/food.sqlite", "--json"], in: dir, environment: environment)
        XCTAssertTrue(
            again.stdoutText.contains("\"upToDate\" : true") || again.stdoutText.contains("\"upToDate\":true"),
            again.stdoutText)
        XCTAssertEqual(try DBGenTestSupport.modificationDate(output), built, "up to date: not rewritten")

        // With --depfile, the record sits beside the depfile.
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("build"), withIntermediateDirectories: true)
        XCTAssertEqual(
            try DBGenTestSupport.dbgen(
                ["schema.txt", "-o", "Resources/food.sqlite", "--depfile", "build/food.d"], in: dir,
                environment: environment
            ).status, 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("build").path).sorted(),
            [".food.d.dbgen-fingerprint", "food.d"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: resources.path), ["food.sqlite"])
        let third = try DBGenTestSupport.dbgen(
            ["schema.txt", "-o", "Resources/food.sqlite", "--depfile", "build/food.d", "--json"], in: dir,
            environment: environment)
        XCTAssertTrue(third.stdoutText.contains("true"), third.stdoutText)
    }
}
