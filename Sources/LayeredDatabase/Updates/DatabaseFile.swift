import FileSystemKit
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
import SQLiteCore

/// Checks of a database file before it is installed, and streaming copies of it.
///
/// Every read of a database file's bytes (a copy, a hash) goes through SQLite's own VFS
/// (SQLiteCore's `DatabaseFileReader`), never a descriptor opened and closed here: another
/// connection of the process (an app's own, or a publish's diff of the release it compresses)
/// may hold a read lock on the file, and closing any descriptor of a file drops every POSIX
/// lock the process holds on it, SQLite's included; SQLite keeps its own descriptor open until
/// no lock is held. (``LayeredDatabase`` attaches the database in effect immutable: no lock.) FeedClient and
/// FeedPublisher read databases through ``forEachChunk(ofFileAt:_:)`` and ``sha256(of:)`` too.
package enum DatabaseFile {
    /// The file's size, or ``LayeredDatabaseError/fileNotFound(path:)`` unless it is a regular file.
    static func size(_ path: String) throws -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw LayeredDatabaseError.fileNotFound(path: path)
        }
        return Int64(info.st_size)
    }

    /// Copies `source` into the temporary of `output` in 1 MiB pieces, hashing what it
    /// copies; returns the SHA-256 of the bytes copied (64 lowercase hexadecimal digits).
    /// ``AtomicOutputFile/commit()`` syncs the copy before installing it.
    @discardableResult
    static func copy(_ source: String, into output: AtomicOutputFile) throws -> String {
        do {
            return try output.write(copyingPieces: { try forEachChunk(ofFileAt: source, $0) })
        } catch let error as FileSystemError {
            throw LayeredDatabaseError(error)
        }
    }

    /// The SHA-256 of the file at `path` (64 lowercase hexadecimal digits), read in 1 MiB pieces.
    ///
    /// - Throws: ``LayeredDatabaseError/fileNotFound(path:)``, or
    ///   ``LayeredDatabaseError/fileSystem(path:operation:errno:)``.
    package static func sha256(of path: String) throws -> String {
        var hash = SHA256Stream()
        try forEachChunk(ofFileAt: path) { hash.update($0) }
        return hash.hexDigest()
    }

    /// Calls `body` with each piece of the database file at `path` (1 MiB), in order, until its
    /// end, read through SQLite's VFS.
    ///
    /// - Throws: ``LayeredDatabaseError/fileNotFound(path:)``,
    ///   ``LayeredDatabaseError/fileSystem(path:operation:errno:)``, or what `body` throws.
    package static func forEachChunk(ofFileAt path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        do {
            try DatabaseFileReader.forEachChunk(ofFileAt: path, body)
        } catch let error as DatabaseFileReadError where error.code == ENOENT {
            throw LayeredDatabaseError.fileNotFound(path: path)
        } catch let error as DatabaseFileReadError where error.code == 0 {
            throw LayeredDatabaseError.fileSystem(
                path: path, operation: "read (the file was cut while it was read)", errno: EIO)
        } catch let error as DatabaseFileReadError {
            throw LayeredDatabaseError.fileSystem(path: path, operation: error.operation.rawValue, errno: error.code)
        }
    }

    /// Checks the 100-byte header of `path` (a copy of `reported`): the SQLite magic, and a
    /// file at least as long as the page count the header records (a truncated download).
    static func checkHeader(_ path: String, reported: String) throws {
        guard let file = ReadableFile(path: path) else {
            throw LayeredDatabaseError.fileNotFound(path: reported)
        }
        let header = (try? file.read(atMost: 100)) ?? []
        let size = try Self.size(path)
        guard size > 0 else { throw LayeredDatabaseError.notADatabase(path: reported, reason: "the file is empty") }
        guard header.count == 100, header.prefix(16).elementsEqual("SQLite format 3\0".utf8) else {
            throw LayeredDatabaseError.notADatabase(path: reported, reason: "no SQLite header")
        }
        let bytes = header
        func int(_ at: Int) -> Int64 { (0..<4).reduce(Int64(0)) { $0 << 8 | Int64(bytes[at + $1]) } }
        var pageSize = Int64(bytes[16]) << 8 | Int64(bytes[17])
        if pageSize == 1 { pageSize = 65536 }
        let pages = int(28)
        if pages > 0, int(24) == int(92), size < pages * pageSize {
            throw LayeredDatabaseError.notADatabase(
                path: reported, reason: "truncated: \(size) bytes, the header says \(pages * pageSize)")
        }
    }

    /// Opens the copy at `path`, puts it in rollback-journal mode (a WAL file cannot be
    /// read from a read-only directory), runs `PRAGMA quick_check` and returns its
    /// `user_version`. Errors name `reported`, the file the copy came from.
    static func verify(_ path: String, reported: String) throws -> Int64 {
        do {
            let connection = try Connection(path: path)
            defer { connection.close() }
            if case .text(let mode)? = try connection.scalar("PRAGMA journal_mode"), mode.lowercased() == "wal" {
                try connection.execute("PRAGMA journal_mode = DELETE")
            }
            let report = try connection.query("PRAGMA quick_check").compactMap { row -> String? in
                if case .text(let text) = row[0] { return text } else { return nil }
            }
            guard report == ["ok"] else {
                throw LayeredDatabaseError.integrityCheckFailed(
                    path: reported, report: report.prefix(3).joined(separator: "; "))
            }
            return try connection.userVersion()
        } catch let error as SQLiteError {
            if error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
                throw LayeredDatabaseError.notADatabase(path: reported, reason: error.message)
            }
            throw LayeredDatabaseError.sqlite(path: reported, error)
        }
    }
}
