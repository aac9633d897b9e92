import Foundation
import SQLiteCore
import ShipyardTestSupport
import XCTest

/// Reading a database's bytes through SQLite's VFS (`DatabaseFileReader`): what a connection
/// of the same process holds locked stays locked, as the sqlite3 shell in another process
/// finds (``WriterProbe``); the bytes are the file's.
final class DatabaseFileReaderTests: XCTestCase {
    /// A database of a few pages in rollback-journal mode, and its bytes (read before any
    /// connection of this process opens it).
    private func database(_ name: String, rows: Int = 2000) throws -> (path: String, bytes: Data) {
        let directory = try TemporaryDirectory("reader", removedAfter: self).url
        let path = directory.appendingPathComponent(name).path
        try Oracle.sqlite3Script(
            path,
            "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT); WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL "
                + "SELECT x + 1 FROM n WHERE x < \(rows)) INSERT INTO t SELECT x, printf('%0200d', x) FROM n;")
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A connection of this process in a read transaction on `path`: SQLite's SHARED lock.
    private func reading(_ path: String) throws -> Connection {
        let connection = try Connection(uri: SQLiteURI.fileURI(path: path, parameters: [("mode", "ro")]))
        try connection.execute("BEGIN")
        _ = try connection.scalar("SELECT count(*) FROM t")
        return connection
    }

    func testReadingBesideALockedConnectionLeavesItsLock() throws {
        let (path, bytes) = try database("locked.sqlite")
        let connection = try reading(path)
        XCTAssertFalse(try WriterProbe.canWrite(path), "the read transaction must hold SQLite's SHARED lock")
        var read = Data()
        try DatabaseFileReader.forEachChunk(ofFileAt: path) { read.append(contentsOf: $0) }
        let reader = try DatabaseFileReader(path: path)
        var header = [UInt8](repeating: 0, count: 16)
        try header.withUnsafeMutableBytes { try reader.read(into: $0, at: 0) }
        reader.close()
        XCTAssertEqual(read, bytes)
        XCTAssertEqual(String(decoding: header, as: UTF8.self), "SQLite format 3\0")
        XCTAssertFalse(
            try WriterProbe.canWrite(path), "reading through SQLite's VFS dropped the connection's lock")
        // The hazard the reader avoids, on this system: a descriptor of the file opened and
        // closed beside the connection drops its lock, and another process may write.
        let descriptor = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        close(descriptor)
        XCTAssertTrue(try WriterProbe.canWrite(path), "closing a descriptor should drop POSIX locks here")
        try connection.execute("COMMIT")
    }

    func testTheDescriptorIsClosedOnceTheLastLockIsReleased() throws {
        let (path, _) = try database("pending.sqlite")
        XCTAssertEqual(try descriptors(of: path), 0)
        let connection = try reading(path)
        XCTAssertEqual(try descriptors(of: path), 1)
        try DatabaseFileReader(path: path).close()
        // Kept open by SQLite while the connection holds its lock, closed at COMMIT.
        XCTAssertEqual(try descriptors(of: path), 2)
        try connection.execute("COMMIT")
        XCTAssertEqual(try descriptors(of: path), 1)
        connection.close()
        XCTAssertEqual(try descriptors(of: path), 0)
        // With no lock held, closing closes at once.
        try DatabaseFileReader(path: path).close()
        XCTAssertEqual(try descriptors(of: path), 0)
    }

    func testAFileLargerThanAPieceIsReadWhole() throws {
        let (path, bytes) = try database("large.sqlite", rows: 12000)
        XCTAssertGreaterThan(bytes.count, 2 * DatabaseFileReader.chunkSize)
        var pieces: [Int] = []
        var read = Data()
        try DatabaseFileReader.forEachChunk(ofFileAt: path) {
            pieces.append($0.count)
            read.append(contentsOf: $0)
        }
        XCTAssertEqual(read, bytes)
        XCTAssertEqual(pieces.dropLast().filter { $0 != DatabaseFileReader.chunkSize }, [])
        XCTAssertEqual(try DatabaseFileReader(path: path).size(), Int64(bytes.count))
    }

    func testAnyFileAndAnEmptyOneAreReadAsTheyAre() throws {
        let directory = try TemporaryDirectory("reader", removedAfter: self).url
        let text = directory.appendingPathComponent("patch.sql")
        try Data("BEGIN;\nCOMMIT;\n".utf8).write(to: text)
        var read = Data()
        try DatabaseFileReader.forEachChunk(ofFileAt: text.path) { read.append(contentsOf: $0) }
        XCTAssertEqual(read, Data("BEGIN;\nCOMMIT;\n".utf8))
        let empty = directory.appendingPathComponent("empty")
        try Data().write(to: empty)
        var calls = 0
        try DatabaseFileReader.forEachChunk(ofFileAt: empty.path) { _ in calls += 1 }
        XCTAssertEqual(calls, 0)
    }

    func testErrorsNameTheFileAndWhatFailed() throws {
        let directory = try TemporaryDirectory("reader", removedAfter: self).url
        let missing = directory.appendingPathComponent("missing.sqlite").path
        XCTAssertThrowsError(try DatabaseFileReader(path: missing)) {
            XCTAssertEqual($0 as? DatabaseFileReadError, DatabaseFileReadError(.open, path: missing, code: ENOENT))
            XCTAssertEqual("\($0)", "cannot open \(missing): No such file or directory")
        }
        let (path, bytes) = try database("short.sqlite", rows: 10)
        let reader = try DatabaseFileReader(path: path)
        var buffer = [UInt8](repeating: 0, count: 100)
        XCTAssertThrowsError(
            try buffer.withUnsafeMutableBytes { try reader.read(into: $0, at: Int64(bytes.count - 50)) }
        ) {
            XCTAssertEqual($0 as? DatabaseFileReadError, DatabaseFileReadError(.read, path: path, code: 0))
            XCTAssertEqual("\($0)", "cannot read \(path): the file ended early (it changed while it was read)")
        }
        reader.close()
        XCTAssertThrowsError(try buffer.withUnsafeMutableBytes { try reader.read(into: $0, at: 0) }) {
            XCTAssertEqual(($0 as? DatabaseFileReadError)?.code, EBADF)
        }
    }

    /// How many descriptors this process has open on the file at `path`.
    private func descriptors(of path: String) throws -> Int {
        guard let resolved = realpath(path, nil) else { throw CocoaError(.fileNoSuchFile) }
        defer { free(resolved) }
        let file = String(cString: resolved)
        var count = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: "/dev/fd") {
            guard let descriptor = Int32(name) else { continue }
            #if canImport(Darwin)
            var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
            guard fcntl(descriptor, F_GETPATH, &buffer) != -1 else { continue }
            let target = String(cString: buffer)
            #else
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")
            else { continue }
            #endif
            if target == file { count += 1 }
        }
        return count
    }
}
