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
import LayeredDatabase
import SQLiteCore
import EssentialsSupport
import Dispatch

/// The difference between two databases: as SQL that turns the old one into the new one
/// exactly (``writePatch(to:)``), as sqldiff's summary lines (``summary()``), or as a
/// session-extension changeset (``changeset()``).
///
/// ```swift
/// let diff = try DatabaseDiff(oldPath: "v1.sqlite", newPath: "v2.sqlite")
/// try diff.writePatch(toFileDescriptor: STDOUT_FILENO)   // sqlite3 copy-of-v1 < patch gives v2
/// ```
///
/// Both files are opened read-only and read in one pass each, one row of each at a time
/// (a merge join in key order), so memory stays flat whatever the tables' sizes. A rowid
/// table whose CREATE statement is the same in both is compared record by record as bytes,
/// read from the files' pages, and only the rows that differ are decoded (`RecordMerge`);
/// the output is the same bytes either way. The same pair always gives the same bytes.
public final class DatabaseDiff {
    let old: DiffInput
    let new: DiffInput
    /// The only table compared, when not nil.
    public let table: String?
    /// How rows of rowid tables are read (records from the pages first, or SQLite alone:
    /// the same output), and what was read.
    let reading = RecordReading()

    /// Opens both databases read-only and reads their schemas.
    ///
    /// - Parameters:
    ///   - oldPath: The database the patch applies to.
    ///   - newPath: The database the patch produces.
    ///   - table: Compare only this table (and its indexes and triggers); nil for everything.
    /// - Throws: ``DBGenError`` naming the file (missing, not a database) or the table.
    public init(oldPath: String, newPath: String, table: String? = nil) throws {
        old = try DiffInput(path: oldPath)
        new = try DiffInput(path: newPath)
        self.table = table
        if let table, old.catalog.objects[table] == nil, new.catalog.objects[table] == nil {
            throw DBGenError.noSuchTable(name: table)
        }
    }

    /// Writes the SQL patch, in chunks, to `write`. Empty when the contents are the same.
    ///
    /// Running it on a copy of the old database (`sqlite3 COPY < patch.sql`) gives the new
    /// database's content: schema, rows with their types and exact values, `user_version`.
    /// A whole-database patch (no `table`) starts with a header in SQL comments naming its
    /// base and target, each by `user_version` and the SHA-256 of the file, which the
    /// updater checks (`-- dbgen diff base: user_version=4 sha256=…`, then `target:`).
    ///
    /// Both files are read under one read transaction each (SQLite's SHARED lock, held from
    /// before the hashes are taken until the last row is read), so no SQLite writer changes
    /// them meanwhile; and each file must still be the one the diff opened, unwritten, when
    /// the patch is done (device, inode, size and modification time).
    ///
    /// - Throws: ``DBGenError``: a file that cannot be read, or that changed (written or
    ///   replaced) during the diff, naming it; or what `write` throws.
    public func writePatch(to write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        try old.beginReadTransaction()
        defer { old.endReadTransaction() }
        try new.beginReadTransaction()
        defer { new.endReadTransaction() }
        // The header's hashes are computed on another thread while the patch is composed, and
        // written before the patch's first bytes (a whole-database patch with any bytes has a
        // header), so reading both files again costs no wall time where a second core is free.
        // The thread reads through SQLite's VFS (PatchHeaderHashes says why).
        let header = table == nil ? PatchHeaderHashes(old: old, new: new) : nil
        defer { header?.wait() }
        var headerWritten = false
        try PatchComposer(
            old: old, new: new, only: table, reading: reading,
            output: PatchOutput { bytes in
                if !headerWritten, let header {
                    headerWritten = true
                    try Array(try header.text().utf8).withUnsafeBytes { try write($0) }
                }
                try write(bytes)
            }
        ).write()
        header?.wait()
        try old.requireUnchanged()
        try new.requireUnchanged()
    }

    /// Checks that NEW's `user_version` is greater than OLD's, as an update needs to install:
    /// else throws a ``DBGenError`` (``DBGenError/Code/notNewer``),
    /// unless the two hold the same content (the patch is empty).
    public func requireNewerVersion() throws {
        let oldVersion = try old.pragma("user_version"), newVersion = try new.pragma("user_version")
        guard newVersion <= oldVersion else { return }
        struct NotEmpty: Error {}
        do {
            try PatchComposer(
                old: old, new: new, only: table, reading: reading, output: PatchOutput { _ in throw NotEmpty() }
            ).write()
        } catch is NotEmpty {
            throw DBGenError.notNewer(
                newPath: new.path, newVersion: newVersion, oldPath: old.path, oldVersion: oldVersion)
        }
    }

    /// Writes the SQL patch to an open file descriptor (standard output: 1).
    public func writePatch(toFileDescriptor descriptor: Int32, path: String = "<stdout>") throws {
        try writePatch { bytes in
            let code = POSIXFile.writeAll(descriptor, UnsafeRawBufferPointer(bytes))
            if code != 0 {
                throw DBGenError.output(path: path, reason: FileSystemError(.write, path: path, code: code).reason)
            }
        }
    }

    /// The SQL patch as a string (small databases, tests).
    public func patch() throws -> String {
        var bytes = Data()
        try writePatch { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The SHA-256 of both files of a diff, computed on a thread of their own from creation, for
/// the patch header (LayeredDatabase's `PatchHeader`, which defines its lines and reads them).
///
/// The thread reads each file through SQLite's own VFS (`DatabaseFileReader`) while the diff's
/// connections hold their read transactions on them: a descriptor of its own, closed, would
/// drop the process's POSIX locks on the file, SQLite's SHARED lock included, and another
/// process could write the database while the diff reads it. The files are opened by path, so
/// ``DatabaseDiff/writePatch(to:)`` checks afterwards that each is still the file the
/// connection opened.
private final class PatchHeaderHashes: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var hashes: Result<(String, String), Error> = .failure(CancellationError())
    private let versions: Result<(Int64, Int64), Error>

    init(old: DiffInput, new: DiffInput) {
        versions = Result { (try old.pragma("user_version"), try new.pragma("user_version")) }
        let paths = (old.path, new.path)
        DetachedThread.start { [self] in
            hashes = Result { (try Self.sha256(paths.0), try Self.sha256(paths.1)) }
            done.signal()
        }
    }

    private static func sha256(_ path: String) throws -> String {
        var hash = SHA256Stream()
        do {
            try DatabaseFileReader.forEachChunk(ofFileAt: path) { hash.update($0) }
        } catch let error as DatabaseFileReadError {
            throw DBGenError.notADatabase(path: path, reason: "cannot read it: \(error.reason)")
        }
        return hash.hexDigest()
    }

    /// Waits until both hashes are known (idempotent).
    func wait() {
        done.wait()
        done.signal()
    }

    /// The two header lines.
    func text() throws -> String {
        wait()
        let (oldHash, newHash) = try hashes.get(), (oldVersion, newVersion) = try versions.get()
        return PatchHeader(
            base: DatabaseVersion(userVersion: oldVersion, sha256: oldHash),
            result: DatabaseVersion(userVersion: newVersion, sha256: newHash)
        ).text
    }
}
