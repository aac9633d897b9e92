@testable import DBGenKit
import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// ``ImportPageWriteQueue``: the page writer's runs written on a thread of their own land in the
/// file in the order given, a failed write is reported by the next call, and a stopped queue
/// leaves no write under way.
final class ImportPageWriteQueueTests: XCTestCase {
    /// Many small writes through few buffers, each to its own place, some to the same place
    /// (the later one must win): the file holds what a thread writing them in turn would leave.
    func testWritesLandInOrder() throws {
        let directory = try TemporaryDirectory("page-write-queue")
        let path = directory.url("db.sqlite").path
        let connection = try Connection(path: path, create: true)
        try connection.execute("CREATE TABLE t(a)")
        guard let file = try DirectDatabaseFile.borrow(connection) else { return XCTFail("not borrowed") }
        let size = 4096
        let base = Int64(try file.size())
        let queue = ImportPageWriteQueue(file: file, bufferBytes: size, count: 2)
        var expected = [UInt8](repeating: 0, count: 64 * size)
        for index in 0..<200 {
            let slot = (index * 7) % 64
            let buffer = try queue.take()
            buffer.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index), count: size)
            queue.submit(buffer, count: size, at: base + Int64(slot * size))
            expected.replaceSubrange(
                (slot * size)..<((slot + 1) * size), with: repeatElement(UInt8(truncatingIfNeeded: index), count: size))
        }
        try queue.drain()
        queue.stop()
        var written = [UInt8](repeating: 0, count: 64 * size)
        try file.read(into: &written, count: written.count, at: base)
        XCTAssertTrue(written == expected, "the file differs from the writes made in order")
        try file.truncate(to: base)
        try file.giveBack()
        XCTAssertEqual(try connection.scalar("PRAGMA integrity_check"), .text("ok"))
    }

    /// Writes the file refuses (a database opened read-only): drain() and take() throw the
    /// file's error, and the file is as it was.
    func testAFailedWriteIsReported() throws {
        let directory = try TemporaryDirectory("page-write-queue")
        let path = directory.url("db.sqlite").path
        try Connection(path: path, create: true).execute("CREATE TABLE t(a)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let connection = try Connection(path: path, readOnly: true)
        guard let file = try DirectDatabaseFile.borrow(connection) else { return XCTFail("not borrowed") }
        let queue = ImportPageWriteQueue(file: file, bufferBytes: 4096, count: 2)
        for index in 0..<2 {
            let buffer = try queue.take()
            buffer.initializeMemory(as: UInt8.self, repeating: 0xAB, count: 4096)
            queue.submit(buffer, count: 4096, at: Int64(index) * 4096)
        }
        XCTAssertThrowsError(try queue.drain())
        XCTAssertThrowsError(try queue.take()) { error in
            XCTAssertTrue("\(error)".contains("cannot write the database file"), "\(error)")
        }
        queue.stop()
        try file.giveBack()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    /// Stopping with writes queued drops them: none lands after stop() returns.
    func testStopDiscardsWhatIsQueued() throws {
        let directory = try TemporaryDirectory("page-write-queue")
        let path = directory.url("db.sqlite").path
        let connection = try Connection(path: path, create: true)
        try connection.execute("CREATE TABLE t(a)")
        guard let file = try DirectDatabaseFile.borrow(connection) else { return XCTFail("not borrowed") }
        let base = try file.size()
        // 64 KiB a write: the default VFS writes less than 128 KiB a call.
        let queue = ImportPageWriteQueue(file: file, bufferBytes: 1 << 16, count: 16)
        for index in 0..<16 {
            let buffer = try queue.take()
            buffer.initializeMemory(as: UInt8.self, repeating: 1, count: 1 << 16)
            queue.submit(buffer, count: 1 << 16, at: base + Int64(index) << 16)
        }
        queue.stop(discardQueued: true)
        let size = try file.size()
        XCTAssertLessThanOrEqual(size, base + 16 << 16)
        // Nothing changes the file once stop() has returned.
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(try file.size(), size)
        try file.truncate(to: base)
        try file.giveBack()
    }
}
