import Foundation
import XCTest

/// readfile, writefile, edit, lsmode and usleep against the sqlite3 shell.
final class FileIOTests: XCTestCase {
    /// A directory with a unicode name, an empty file, a binary file, a subdirectory.
    private func makeTree() throws -> URL {
        let dir = try makeScratchDirectory(self)
        try Data("héllo wörld\n".utf8).write(to: dir.appendingPathComponent("ünïcødé ✓.txt"))
        try Data().write(to: dir.appendingPathComponent("empty"))
        try Data((0..<256).map { UInt8($0) } + [0, 0, 1]).write(to: dir.appendingPathComponent("binary.bin"))
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("sub/deeper"), withIntermediateDirectories: true)
        try Data("nested".utf8).write(to: dir.appendingPathComponent("sub/deeper/n.txt"))
        return dir
    }

    func testReadfileMatchesShellForRelativePaths() throws {
        let dir = try makeTree()
        for path in [
            "ünïcødé ✓.txt", "empty", "binary.bin", "sub/deeper/n.txt", "./sub/../binary.bin", "missing", "sub",
        ] {
            let quoted = path.replacingOccurrences(of: "'", with: "''")
            try assertSameAsShell(
                "SELECT typeof(readfile('\(quoted)')), quote(readfile('\(quoted)')), length(readfile('\(quoted)'));",
                in: dir)
        }
    }

    func testReadfileMatchesShellForAbsoluteAndNullPaths() throws {
        let dir = try makeTree()
        let absolute = dir.appendingPathComponent("binary.bin").path
        try assertSameAsShell(
            "SELECT hex(readfile('\(absolute)')), typeof(readfile(NULL)), quote(readfile('')), quote(readfile(42));",
            in: dir)
    }

    func testReadfileRecordsTheResolvedPath() throws {
        let dir = try makeTree()
        let recorder = InputRecorder()
        let outcome = runOurs(
            "SELECT length(readfile('sub/deeper/n.txt')), readfile('missing') IS NULL;", baseDirectory: dir.path,
            recorder: recorder)
        XCTAssertEqual(outcome, QueryOutcome(rows: ["6|1"], error: nil))
        // A missing file is recorded too: if it appears, what readfile returns changes.
        XCTAssertEqual(recorder.paths, [dir.path + "/sub/deeper/n.txt", dir.path + "/missing"])
        _ = runOurs("SELECT readfile('sub');", baseDirectory: dir.path, recorder: recorder)
        XCTAssertEqual(
            recorder.paths, [dir.path + "/sub/deeper/n.txt", dir.path + "/missing"], "a directory is not recorded")
    }

    func testDirectOnlyFunctionsAndTablesMatchShellInViewsAndTriggers() throws {
        let dir = try makeTree()
        try assertSameAsShell("CREATE VIEW v AS SELECT readfile('empty') AS r; SELECT quote(r) FROM v;", in: dir)
        try assertSameAsShell("CREATE VIEW v AS SELECT name FROM fsdir('sub'); SELECT * FROM v;", in: dir)
        try assertSameAsShell(
            "CREATE VIEW v AS SELECT lsmode(420) AS m, sqlar_compress('x') AS c; SELECT * FROM v;", in: dir)
        try assertSameAsShell(
            """
            CREATE TABLE t(x); CREATE TABLE log(y);
            CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log SELECT length(readfile('binary.bin')); END;
            INSERT INTO t VALUES (1); SELECT * FROM log;
            """, in: dir)
    }

    func testReadfileWithoutBaseDirectoryUsesTheWorkingDirectory() throws {
        let dir = try makeTree()
        let recorder = InputRecorder()
        let previous = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(dir.path))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let outcome = runOurs(
            "SELECT length(readfile('empty')), quote(readfile('sub/deeper/n.txt'));", baseDirectory: nil,
            recorder: recorder)
        XCTAssertEqual(outcome, QueryOutcome(rows: ["0|X'6E6573746564'"], error: nil))
        XCTAssertEqual(recorder.paths, ["empty", "sub/deeper/n.txt"])
    }

    func testWritefileIsRefusedAndWritesNothing() throws {
        let dir = try makeScratchDirectory(self)
        for sql in [
            "SELECT writefile('out.txt', 'data');", "SELECT writefile('out.txt', 'data', 420);",
            "SELECT writefile('out.txt', NULL, 16877);", "SELECT writefile('out.txt');",
        ] {
            let outcome = runOurs(sql, baseDirectory: dir.path)
            XCTAssertEqual(outcome.error, "writefile() is refused: dbgen writes nothing outside the database it builds")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.txt").path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testEditIsRefusedWithOneAndTwoArguments() throws {
        let dir = try makeScratchDirectory(self)
        XCTAssertEqual(
            runOurs("SELECT edit('text');", baseDirectory: dir.path).error,
            "edit() is refused: dbgen does not run programs")
        XCTAssertEqual(
            runOurs("SELECT edit('text', 'touch ran');", baseDirectory: dir.path).error,
            "edit() is refused: dbgen does not run programs")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("ran").path))
        try assertSameAsShell("SELECT edit();", in: dir)
        try assertSameAsShell("SELECT edit(1, 2, 3);", in: dir)
    }

    func testFunctionListMatchesShell() throws {
        let dir = try makeScratchDirectory(self)
        let names = "'readfile','writefile','edit','lsmode','usleep'"
        try assertSameAsShell(
            "SELECT name, type, enc, narg, flags FROM pragma_function_list WHERE name IN (\(names)) ORDER BY name, narg;",
            in: dir)
    }

    func testLsmodeMatchesShell() throws {
        let dir = try makeScratchDirectory(self)
        let modes = [
            "33188", "16877", "41471", "4095", "0", "-1", "'x'", "NULL", "33261", "8630", "24992", "49645",
            "4294967295", "2.9", "'0100644'",
        ]
        try assertSameAsShell("SELECT " + modes.map { "lsmode(\($0))" }.joined(separator: ", ") + ";", in: dir)
    }

    func testUsleepMatchesShell() throws {
        let dir = try makeScratchDirectory(self)
        try assertSameAsShell(
            "SELECT usleep(1000), typeof(usleep(10)), usleep('abc'), usleep(2.7), quote(usleep(NULL)), usleep(-5);",
            in: dir)
        let start = Date()
        XCTAssertEqual(runOurs("SELECT usleep(200000);", baseDirectory: nil).rows, ["200000"])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.19)
    }
}
