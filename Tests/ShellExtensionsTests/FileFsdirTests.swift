import Foundation
import XCTest

/// The fsdir table against the sqlite3 shell, on one tree listed by both.
final class FileFsdirTests: XCTestCase {
    private let columns = "name, mode, mtime, typeof(data), quote(data), lsmode(mode)"

    /// tree/ with unicode names, an empty file, nested directories, an empty directory and
    /// symbolic links (to a file, to a directory, dangling), inside a scratch directory.
    private func makeTree() throws -> URL {
        let dir = try makeScratchDirectory(self)
        let tree = dir.appendingPathComponent("tree")
        let fm = FileManager.default
        try fm.createDirectory(at: tree.appendingPathComponent("sub/dëeper"), withIntermediateDirectories: true)
        try fm.createDirectory(at: tree.appendingPathComponent("empty dir"), withIntermediateDirectories: true)
        try Data("ünïcødé\n".utf8).write(to: tree.appendingPathComponent("日本語.txt"))
        try Data().write(to: tree.appendingPathComponent("empty"))
        try Data([0, 1, 2, 255]).write(to: tree.appendingPathComponent("sub/dëeper/bytes.bin"))
        try Data("x".utf8).write(to: tree.appendingPathComponent("sub/.hidden"))
        try fm.createSymbolicLink(
            atPath: tree.appendingPathComponent("link-to-file").path, withDestinationPath: "日本語.txt")
        try fm.createSymbolicLink(
            atPath: tree.appendingPathComponent("sub/link-to-dir").path, withDestinationPath: "dëeper")
        try fm.createSymbolicLink(
            atPath: tree.appendingPathComponent("dangling").path, withDestinationPath: "nowhere/at/all")
        try fm.setAttributes([.posixPermissions: 0o750], ofItemAtPath: tree.appendingPathComponent("sub").path)
        try fm.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tree.appendingPathComponent("empty").path)
        return dir
    }

    func testRelativeTreeMatchesShell() throws {
        let dir = try makeTree()
        let outcome = try assertSameAsShell("SELECT rowid, \(columns) FROM fsdir('tree');", in: dir)
        XCTAssertEqual(outcome.rows.count, 11)
    }

    func testTrailingSlashDotAndParentPathsMatchShell() throws {
        let dir = try makeTree()
        try assertSameAsShell("SELECT \(columns) FROM fsdir('tree/');", in: dir)
        try assertSameAsShell("SELECT \(columns) FROM fsdir('.');", in: dir)
        try assertSameAsShell("SELECT \(columns) FROM fsdir('tree/sub/../empty dir');", in: dir)
    }

    func testSingleFileAndLinkMatchShell() throws {
        let dir = try makeTree()
        try assertSameAsShell("SELECT \(columns) FROM fsdir('tree/日本語.txt');", in: dir)
        try assertSameAsShell("SELECT \(columns) FROM fsdir('tree/link-to-file');", in: dir)
        try assertSameAsShell("SELECT \(columns) FROM fsdir('tree/dangling');", in: dir)
    }

    func testDirArgumentMatchesShell() throws {
        let dir = try makeTree()
        try assertSameAsShell("SELECT \(columns) FROM fsdir('sub', 'tree');", in: dir)
        try assertSameAsShell("SELECT \(columns) FROM fsdir('.', 'tree/sub');", in: dir)
        try assertSameAsShell("SELECT \(columns) FROM fsdir WHERE path = 'dëeper' AND dir = 'tree/sub';", in: dir)
        try assertSameAsShell("SELECT \(columns) FROM fsdir('sub', '\(dir.path)/tree');", in: dir)
    }

    func testAbsolutePathMatchesShell() throws {
        let dir = try makeTree()
        try assertSameAsShell("SELECT \(columns) FROM fsdir('\(dir.path)/tree');", in: dir)
    }

    func testHiddenColumnsJoinsAndAggregatesMatchShell() throws {
        let dir = try makeTree()
        try assertSameAsShell("SELECT quote(path), quote(dir), count(*) FROM fsdir('tree', 'tree/..');", in: dir)
        try assertSameAsShell("SELECT name FROM fsdir('tree') WHERE data IS NULL ORDER BY name;", in: dir)
        try assertSameAsShell(
            "SELECT a.name, b.name FROM fsdir('tree/sub') a JOIN fsdir(a.name) b WHERE a.mode & 0170000 = 0100000;",
            in: dir)
        try assertSameAsShell(
            "SELECT sum(length(data)), max(mtime) = min(mtime) FROM fsdir('tree') WHERE mode & 0170000 = 0100000;",
            in: dir)
    }

    func testErrorsMatchShell() throws {
        let dir = try makeTree()
        try assertSameAsShell("SELECT * FROM fsdir('missing/thing');", in: dir)
        try assertSameAsShell("SELECT * FROM fsdir(NULL);", in: dir)
        try assertSameAsShell("SELECT * FROM fsdir();", in: dir)
        try assertSameAsShell("SELECT * FROM fsdir;", in: dir)
        try assertSameAsShell("SELECT * FROM fsdir('x', 'y', 'z');", in: dir)
        try assertSameAsShell("SELECT name FROM pragma_table_xinfo('fsdir');", in: dir)
    }

    /// Every directory and regular file fsdir lists is recorded (a file added to a listed
    /// directory changes what it returns), whether or not its data is read; symbolic links are
    /// entries of a recorded directory.
    func testEveryDirectoryAndFileListedIsRecorded() throws {
        let dir = try makeTree()
        let recorder = InputRecorder()
        let outcome = runOurs("SELECT count(*) FROM fsdir('tree/sub');", baseDirectory: dir.path, recorder: recorder)
        XCTAssertEqual(outcome.rows, ["5"])
        let sub = dir.path + "/tree/sub"
        XCTAssertEqual(Set(recorder.paths), [sub, sub + "/.hidden", sub + "/dëeper", sub + "/dëeper/bytes.bin"])
    }
}
