import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// Gathering a database's page writes (`RelativePathVFS(coalescingWrites:)`, what a build
/// writes through) changes nothing but the size of the writes: the same work gives the same
/// answers and a byte-identical file, through spills from a small cache, pages rewritten and
/// read back, a rollback, VACUUM's truncation, WAL mode and its checkpoints, and memory mapping.
final class CoalescedWriteFileTests: XCTestCase {
    /// The workload, statement by statement; the queries' answers are collected.
    private static let work = [
        "PRAGMA cache_size = -64", // 64 KiB: pages spill to the file all the time
        "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT, c INTEGER)",
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20000) "
            + "INSERT INTO t SELECT x, printf('%0120d', x * 7919 % 10007), x % 37 FROM n",
        "SELECT count(*), sum(length(b)) FROM t",
        "CREATE INDEX t_c ON t (c)",
        "UPDATE t SET b = printf('%0300d', a) WHERE a % 3 = 0", // pages rewritten, rows moved to overflow
        "SELECT sum(length(b)), max(b) FROM t WHERE c = 5",
        "BEGIN", "DELETE FROM t WHERE a % 2 = 0", "SELECT count(*) FROM t", "ROLLBACK",
        "DELETE FROM t WHERE a % 5 = 0",
        "VACUUM", // rewrites and truncates the file
        "SELECT count(*), sum(c) FROM t",
        "PRAGMA journal_mode = WAL",
        "WITH RECURSIVE n(x) AS (SELECT 20001 UNION ALL SELECT x + 1 FROM n WHERE x < 26000) "
            + "INSERT INTO t SELECT x, printf('%080d', x), x % 11 FROM n",
        "PRAGMA wal_checkpoint(TRUNCATE)",
        "PRAGMA journal_mode = DELETE",
        "PRAGMA mmap_size = 4000000",
        "UPDATE t SET c = c + 1 WHERE a % 7 = 0",
        "SELECT count(*), sum(c), sum(length(b)) FROM t",
        "PRAGMA integrity_check",
    ]

    /// Runs `work` on a new database in `directory`; its answers and its bytes once closed.
    private func run(in directory: URL, coalescing: Bool) throws -> (answers: [String], bytes: Data) {
        let path = directory.appendingPathComponent(coalescing ? "gathered.sqlite" : "plain.sqlite").path
        let vfs = try RelativePathVFS(baseDirectory: directory.path, coalescingWrites: coalescing)
        var answers: [String] = []
        try withExtendedLifetime(vfs) {
            let connection = try Connection(
                uri: SQLiteURI.fileURI(path: path, parameters: [("mode", "rwc"), ("vfs", vfs.vfsName)]))
            for sql in Self.work {
                answers += try connection.query(sql).map { row in row.values.map(\.shellText).joined(separator: "|") }
            }
            connection.close()
        }
        return (answers, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testGatheredWritesLeaveTheSameFile() throws {
        let directory = try TemporaryDirectory("coalesced", removedAfter: self).url
        let plain = try run(in: directory, coalescing: false)
        let gathered = try run(in: directory, coalescing: true)
        XCTAssertEqual(gathered.answers, plain.answers)
        XCTAssertEqual(plain.answers.last, "ok")
        XCTAssertGreaterThan(
            plain.bytes.count, 1_000_000, "the workload must spill pages for this test to mean anything")
        XCTAssertTrue(gathered.bytes == plain.bytes, "the files differ")
        // An independent reader agrees: 20,000 rows, a fifth deleted, 6,000 added.
        XCTAssertEqual(
            try Oracle.sqlite3Script(
                directory.appendingPathComponent("gathered.sqlite").path,
                "PRAGMA integrity_check; SELECT count(*) FROM t;"), "ok\n22000\n")
    }
}

extension CoalescedWriteFileTests {
    /// `body` given a connection through a gathering VFS to `/dev/full`, where every write fails
    /// with ENOSPC, in a rollback journal kept in memory and with no syncs, as a build writes.
    private func onFullDisk(_ body: (Connection) throws -> Void) throws {
        let vfs = try RelativePathVFS(baseDirectory: "/", coalescingWrites: true)
        try withExtendedLifetime(vfs) {
            let connection = try Connection(
                uri: SQLiteURI.fileURI(path: "/dev/full", parameters: [("mode", "rw"), ("vfs", vfs.vfsName)]))
            defer { connection.close() }
            try connection.execute("PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF")
            try body(connection)
        }
    }

    /// A write of a gathered run that fails is kept, since SQLite does not hear of every one
    /// (it ignores what a file-control hint and closing return): the owner's `flush`, the last
    /// thing a build does with its database, throws it however the write came to fail, and
    /// every later write fails with it.
    func testAFailedRunIsReportedByFlush() throws {
        try onFullDisk { connection in
            try connection.execute("PRAGMA locking_mode=EXCLUSIVE")
            _ = try? connection.execute("CREATE TABLE t (x)") // its commit's writes fail, reported or not
            XCTAssertThrowsError(try CoalescedWriteFile.flush(connection)) { error in
                XCTAssertEqual((error as? SQLiteError)?.extendedResultCode, .SQLITE_FULL, "\(error)")
            }
            XCTAssertThrowsError(try connection.execute("INSERT INTO t VALUES (1)"))
            XCTAssertThrowsError(try CoalescedWriteFile.flush(connection), "the failure is kept")
        }
    }

    /// A database whose writes failed still releases its locks: after the failed statement,
    /// another connection can take the write lock at once.
    func testAFailedWriteReleasesTheLock() throws {
        try onFullDisk { failing in
            XCTAssertThrowsError(try failing.execute("CREATE TABLE t (x)"))
            let other = try Connection(
                uri: SQLiteURI.fileURI(path: "/dev/full", parameters: [("mode", "rw")]), busyTimeout: 0)
            defer { other.close() }
            XCTAssertNoThrow(try other.execute("BEGIN IMMEDIATE; ROLLBACK"))
        }
    }
}
