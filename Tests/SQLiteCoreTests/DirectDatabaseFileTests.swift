import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// Borrowing a database's file from SQLite (`DirectDatabaseFile`): what is written while it is
/// borrowed, with a new change counter, is what SQLite reads at its next statement, as after
/// another process's commit, even in EXCLUSIVE locking mode with everything cached; borrowing is
/// refused where it would not be safe.
final class DirectDatabaseFileTests: XCTestCase {
    private func open(_ directory: TemporaryDirectory, _ name: String = "db.sqlite") throws -> Connection {
        try Connection(path: directory.url(name).path, create: true)
    }

    /// Rewrites bytes of a cached page behind SQLite's back (the text of a row), bumps the
    /// change counter as a commit does, and gives the file back: SQLite reads the new bytes.
    func testSQLiteReadsWhatWasWrittenWhileBorrowed() throws {
        let directory = try TemporaryDirectory("direct-file")
        let connection = try open(directory)
        try connection.execute(
            """
            PRAGMA journal_mode=MEMORY; PRAGMA locking_mode=EXCLUSIVE;
            CREATE TABLE t(a TEXT); INSERT INTO t VALUES('before');
            """)
        XCTAssertEqual(try connection.scalar("SELECT a FROM t"), .text("before")) // cached
        guard let file = try DirectDatabaseFile.borrow(connection) else { return XCTFail("not borrowed") }
        var page = [UInt8](repeating: 0, count: 4096)
        try file.read(into: &page, count: 4096, at: 4096) // page 2: the table's only leaf
        guard let at = Self.find(Array("before".utf8), in: page) else { return XCTFail("row not found") }
        page.replaceSubrange(at..<(at + 6), with: Array("after!".utf8))
        try file.write(page, count: 4096, at: 4096)
        var header = [UInt8](repeating: 0, count: 100)
        try file.read(into: &header, count: 100, at: 0)
        header[27] &+= 1 // the change counter (bytes 24-27), and its copy at 92-95
        header[95] = header[27]
        try file.write(header, count: 100, at: 0)
        try file.giveBack()
        XCTAssertEqual(try connection.scalar("SELECT a FROM t"), .text("after!"))
        XCTAssertEqual(try connection.scalar("PRAGMA locking_mode"), .text("exclusive"))
        XCTAssertEqual(try connection.scalar("PRAGMA integrity_check"), .text("ok"))
    }

    func testReadsPastTheEndAreZerosAndTheFileCanBeCut() throws {
        let directory = try TemporaryDirectory("direct-file")
        let connection = try open(directory)
        try connection.execute("CREATE TABLE t(a)")
        guard let file = try DirectDatabaseFile.borrow(connection) else { return XCTFail("not borrowed") }
        defer { try? file.giveBack() }
        let size = try file.size()
        XCTAssertEqual(size, 8192)
        try file.write([UInt8]([1, 2, 3]), count: 3, at: size)
        XCTAssertEqual(try file.size(), size + 3)
        var tail = [UInt8](repeating: 9, count: 8)
        try file.read(into: &tail, count: 8, at: size)
        XCTAssertEqual(tail, [1, 2, 3, 0, 0, 0, 0, 0])
        try file.truncate(to: size)
        XCTAssertEqual(try file.size(), size)
    }

    /// No file (in memory), WAL mode, an open transaction or a running statement: not borrowed,
    /// and nothing changed.
    func testBorrowingIsRefusedWhereItIsNotSafe() throws {
        let memory = try Connection(uri: "file::memory:?mode=memory")
        try memory.execute("CREATE TABLE t(a)")
        XCTAssertNil(try DirectDatabaseFile.borrow(memory))

        let directory = try TemporaryDirectory("direct-file")
        let wal = try open(directory, "wal.sqlite")
        try wal.execute("PRAGMA journal_mode=WAL; CREATE TABLE t(a)")
        XCTAssertNil(try DirectDatabaseFile.borrow(wal))

        let busy = try open(directory, "busy.sqlite")
        try busy.execute("PRAGMA locking_mode=EXCLUSIVE; CREATE TABLE t(a); BEGIN; INSERT INTO t VALUES(1)")
        XCTAssertNil(try DirectDatabaseFile.borrow(busy))
        try busy.execute("COMMIT")
        let statement = try busy.prepare("SELECT a FROM t")
        XCTAssertTrue(try statement.step())
        XCTAssertNil(try DirectDatabaseFile.borrow(busy))
        _ = statement.reset()
        XCTAssertEqual(try busy.scalar("PRAGMA locking_mode"), .text("exclusive"))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
