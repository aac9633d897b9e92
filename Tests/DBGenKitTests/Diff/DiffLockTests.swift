@testable import DBGenKit
import Foundation
import ShipyardTestSupport
import XCTest

/// `dbgen diff` holds SQLite's SHARED lock on both files for the whole patch, and nothing it
/// does beside SQLite (the header's hashes, on a thread of their own; the pages it reads
/// records from) drops it: another process (the sqlite3 shell, ``WriterProbe``) is refused
/// the right to write either file at every write of the patch. A file replaced meanwhile (a
/// rename over it, which no lock prevents) fails the diff, naming it.
final class DiffLockTests: XCTestCase {
    /// Two databases of two tables of a few pages each (records read from the pages), the
    /// second with some rows changed in both tables.
    private func pair() throws -> (old: String, new: String, dir: TemporaryDirectory) {
        let dir = try TemporaryDirectory("diff locks", removedAfter: self)
        let old = dir.url("old.sqlite").path, new = dir.url("new.sqlite").path
        let rows =
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3000) "
        let script =
            "CREATE TABLE a (pk INTEGER PRIMARY KEY, v TEXT); CREATE TABLE b (pk INTEGER PRIMARY KEY, v INTEGER);"
            + "\(rows) INSERT INTO a SELECT x, printf('%0100d', x) FROM n;"
            + "\(rows) INSERT INTO b SELECT x, x * 7 FROM n; PRAGMA user_version = 1;"
        _ = try Oracle.sqlite3Script(old, script)
        _ = try Oracle.sqlite3Script(
            new,
            script + "UPDATE a SET v = 'changed' WHERE pk % 500 = 0; DELETE FROM b WHERE pk % 700 = 0;"
                + "PRAGMA user_version = 2;")
        return (old, new, dir)
    }

    func testBothFilesStayLockedAtEveryWriteOfThePatch() throws {
        let (old, new, _) = try pair()
        let diff = try DatabaseDiff(oldPath: old, newPath: new)
        var writes = 0
        var unlocked: [String] = []
        var bytes = Data()
        try diff.writePatch { chunk in
            writes += 1
            bytes.append(contentsOf: chunk)
            for path in [old, new] where try WriterProbe.canWrite(path) {
                unlocked.append("\((path as NSString).lastPathComponent) at write \(writes)")
            }
        }
        let patch = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(patch.hasPrefix("-- dbgen diff base: user_version=1 sha256="), "the header was hashed")
        XCTAssertEqual(diff.reading.tablesWalked, 2, "both tables read from their pages")
        XCTAssertGreaterThan(writes, 0)
        XCTAssertEqual(
            unlocked, [],
            "another process could write a file while the diff read it: a descriptor of it was closed beside SQLite")
        // Released when the patch is done.
        XCTAssertTrue(try WriterProbe.canWrite(old))
        XCTAssertTrue(try WriterProbe.canWrite(new))
        // The same patch as a diff with nobody probing.
        XCTAssertEqual(try DiffTestSupport.patch(old, new), patch)
    }

    func testATableDiffKeepsItsLocksToo() throws {
        let (old, new, _) = try pair()
        let diff = try DatabaseDiff(oldPath: old, newPath: new, table: "a")
        var unlocked: [String] = []
        try diff.writePatch { _ in
            for path in [old, new] where try WriterProbe.canWrite(path) { unlocked.append(path) }
        }
        XCTAssertEqual(diff.reading.tablesWalked, 1)
        XCTAssertEqual(unlocked, [])
    }

    func testAFileReplacedDuringTheDiffFailsItNamingTheFile() throws {
        let (old, new, dir) = try pair()
        let diff = try DatabaseDiff(oldPath: old, newPath: new)
        var replaced = false
        XCTAssertThrowsError(
            try diff.writePatch { _ in
                guard !replaced else { return }
                replaced = true
                // What a build does to its output: a new file renamed over it (same bytes here).
                let copy = dir.url("new-copy.sqlite").path
                try FileManager.default.copyItem(atPath: new, toPath: copy)
                XCTAssertEqual(rename(copy, new), 0)
            }
        ) {
            let error = $0 as? DBGenError
            XCTAssertEqual(error?.code, .unreadableDatabase)
            XCTAssertEqual(error?.location, SourceLocation(file: new))
            XCTAssertEqual(
                error?.description,
                "\(new): error: the file changed while it was being diffed (written or replaced: its size, "
                    + "modification time or inode is not what it was); diff it again")
        }
        XCTAssertTrue(replaced)
        // A diff of the files as they are now succeeds.
        XCTAssertFalse(try DiffTestSupport.patch(old, new).isEmpty)
    }
}
