import Foundation
import SQLiteCore

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
/// (a merge join in key order), so memory stays flat whatever the tables' sizes. The same
/// pair always gives the same bytes.
public final class DatabaseDiff {
    let old: DiffInput
    let new: DiffInput
    /// The only table compared, when not nil.
    public let table: String?

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
    public func writePatch(to write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        try PatchComposer(old: old, new: new, only: table, output: PatchOutput(write)).write()
    }

    /// Writes the SQL patch to an open file descriptor (standard output: 1).
    public func writePatch(toFileDescriptor descriptor: Int32, path: String = "<stdout>") throws {
        try writePatch { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw DBGenError.output(path: path, reason: String(cString: strerror(errno)))
                }
                offset += written
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
