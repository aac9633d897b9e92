import CSQLite
#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file read through SQLite's own unix VFS instead of a descriptor of its caller's: how
/// Shipyard reads the bytes of a database file (to hash it, copy it, compress it, read its
/// pages) that a connection of the same process may hold locked.
///
/// POSIX drops every `fcntl()` lock a process holds on a file when the process closes *any*
/// descriptor of that file. A hash or a copy that opened, read and closed the file itself while
/// one of the process's connections was in a transaction on it (on another thread, or a diff
/// hashing beside its reads) would release SQLite's lock unseen: another process could then
/// write the database while this one believes it reads under a SHARED lock. The unix VFS knows
/// every descriptor it opened on a file (by device and inode) and how many locks the process
/// holds there; a descriptor it is asked to close while any is held stays open, and is closed
/// when the last lock is released (`unixClose`'s pending descriptors; "How To Corrupt An SQLite
/// Database File", <https://www.sqlite.org/howtocorrupt.html>, section 2.2). This reader opens
/// the file through that VFS as a read-only main database, never locks it, reads it with
/// `xRead` (`pread`) and closes it with `xClose`, so closing it is safe whatever the process's
/// connections hold.
///
/// It reads the bytes of the file as they are (not a journal or WAL), with the VFS named
/// `unix` (the default one's locking; no VFS that would change what a page holds).
package final class DatabaseFileReader {
    /// The file, as given.
    package let path: String
    private let file: UnsafeMutablePointer<sqlite3_file>
    /// The name the VFS keeps (an absolute path, followed by zero bytes): valid until `xClose`.
    private let name: UnsafeMutablePointer<CChar>
    private var isOpen = true

    /// The size of the pieces ``forEachChunk(ofFileAt:_:)`` reads.
    package static let chunkSize = 1 << 20

    /// Opens `path` read-only.
    ///
    /// - Throws: ``DatabaseFileReadError`` (`.open`, with `ENOENT` for a missing file).
    package init(path: String) throws {
        self.path = path
        guard let vfs = sqlite3_vfs_find("unix") ?? sqlite3_vfs_find(nil), let fullPathname = vfs.pointee.xFullPathname,
            let open = vfs.pointee.xOpen
        else { throw DatabaseFileReadError(.open, path: path, code: ENOSYS) }
        let capacity = Int(vfs.pointee.mxPathname) + 1
        // Four zero bytes after the name: a main database's name is read as `NAME\0` followed by
        // URI parameters, ended by an empty one.
        name = .allocate(capacity: capacity + 4)
        name.initialize(repeating: 0, count: capacity + 4)
        // The VFS's own object (szOsFile bytes) begins with the sqlite3_file.
        let storage = UnsafeMutableRawPointer.allocate(byteCount: Int(vfs.pointee.szOsFile), alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: Int(vfs.pointee.szOsFile))
        file = storage.bindMemory(to: sqlite3_file.self, capacity: 1)
        errno = 0
        var status = fullPathname(vfs, path, Int32(capacity), name)
        if status == SQLITE_OK {
            var flags: Int32 = 0
            status = open(vfs, name, file, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &flags)
        }
        guard status == SQLITE_OK else {
            let code = errno != 0 ? errno : EIO
            if let methods = file.pointee.pMethods { _ = methods.pointee.xClose(file) }
            isOpen = false
            throw DatabaseFileReadError(.open, path: path, code: code)
        }
    }

    deinit {
        close()
        UnsafeMutableRawPointer(file).deallocate()
        name.deallocate()
    }

    /// Closes the file (idempotent). SQLite keeps its descriptor open until this process holds
    /// no lock on the file.
    package func close() {
        guard isOpen else { return }
        isOpen = false
        if let methods = file.pointee.pMethods { _ = methods.pointee.xClose(file) }
    }

    /// The file's size in bytes.
    package func size() throws -> Int64 {
        guard isOpen, let xFileSize = file.pointee.pMethods?.pointee.xFileSize else {
            throw DatabaseFileReadError(.read, path: path, code: EBADF)
        }
        var size: sqlite3_int64 = 0
        errno = 0
        guard xFileSize(file, &size) == SQLITE_OK else {
            throw DatabaseFileReadError(.read, path: path, code: errno != 0 ? errno : EIO)
        }
        return Int64(size)
    }

    /// Fills `buffer` with the bytes at `offset`.
    ///
    /// - Throws: ``DatabaseFileReadError`` (`.read`; code 0 when the file ends before the
    ///   buffer is full).
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        guard isOpen, let xRead = file.pointee.pMethods?.pointee.xRead else {
            throw DatabaseFileReadError(.read, path: path, code: EBADF)
        }
        var done = 0
        while done < buffer.count {
            // xRead takes an Int32 count: large buffers go in pieces of 1 GiB at most.
            let count = min(buffer.count - done, 1 << 30)
            errno = 0
            let status = xRead(file, base + done, Int32(count), offset + Int64(done))
            if status == ResultCode.SQLITE_IOERR_SHORT_READ.rawValue {
                throw DatabaseFileReadError(.read, path: path, code: 0)
            }
            guard status == SQLITE_OK else {
                throw DatabaseFileReadError(.read, path: path, code: errno != 0 ? errno : EIO)
            }
            done += count
        }
    }

    /// Calls `body` with each piece of the file at `path` (``chunkSize`` bytes, the last one
    /// shorter), in order, until its end; a file that grows while read is read to its new end.
    ///
    /// - Throws: ``DatabaseFileReadError``, or what `body` throws.
    package static func forEachChunk(ofFileAt path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let reader = try DatabaseFileReader(path: path)
        defer { reader.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        var size = try reader.size()
        while true {
            if offset >= size {
                size = try reader.size()
                if offset >= size { return }
            }
            let count = Int(min(Int64(chunkSize), size - offset))
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            try reader.read(into: piece, at: offset)
            try body(UnsafeRawBufferPointer(piece))
            offset += Int64(count)
        }
    }
}
