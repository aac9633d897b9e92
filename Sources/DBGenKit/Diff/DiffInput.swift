#if canImport(FoundationEssentials) && os(Linux)
import FoundationEssentials
#else
import Foundation
#endif
import FileSystemKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SQLiteCore

/// One side of a diff: a database opened read-only, its schema read (so a file that is not
/// a database fails here, naming the file).
struct DiffInput {
    let path: String
    let connection: Connection
    let catalog: SchemaCatalog
    /// The file as it was before the connection opened it (device, inode, size, modification
    /// time): ``requireUnchanged()`` compares.
    let stamp: FileStamp

    init(path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, let stamp = FileStamp.of(path) else { throw DBGenError.fileNotFound(path: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DBGenError.notADatabase(path: path, reason: "not a regular file")
        }
        self.path = path
        self.stamp = stamp
        do {
            connection = try Connection(uri: SQLiteURI.fileURI(path: path, parameters: [("mode", "ro")]))
            catalog = try SchemaCatalog(connection)
        } catch let error as SQLiteError {
            if error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
                throw DBGenError.notADatabase(path: path, reason: error.message)
            }
            throw DBGenError.sqlite(path: path, error)
        }
    }

    /// The layout of `table`, read from this database.
    func layout(_ table: String) throws -> TableLayout {
        do {
            return try TableLayout(
                table: table, connection: connection, isShadowTable: catalog.shadowParent[table] != nil)
        } catch let error as SQLiteError {
            throw DBGenError.sqlite(path: path, error)
        }
    }

    /// The rows of `layout`'s table in key order.
    func rows(_ layout: TableLayout) throws -> Statement {
        try prepare(layout.selectSQL())
    }

    /// The rows of `layout`'s table in key order, those after rowid `after` only when it is
    /// not nil (a table keyed by rowid).
    func rows(_ layout: TableLayout, after: Int64?) throws -> Statement {
        guard let after else { return try rows(layout) }
        let statement = try prepare(layout.selectSQL(fromRowid: false))
        statement.bindInt64(after, at: 1)
        return statement
    }

    /// `sql` prepared on this database.
    func prepare(_ sql: String) throws -> Statement {
        do {
            return try connection.prepare(sql)
        } catch let error as SQLiteError {
            throw DBGenError.sqlite(path: path, error)
        }
    }

    /// `PRAGMA name` as an integer.
    func pragma(_ name: String) throws -> Int64 {
        if case .integer(let value)? = try connection.scalar("PRAGMA main.\(name)") { return value }
        return 0
    }

    /// Throws unless the file at ``path`` is still the one this input opened, as it was: the
    /// same device and inode (not replaced), size and modification time (not written). What
    /// was read of it then describes one file.
    func requireUnchanged() throws {
        guard FileStamp.of(path) == stamp else { throw DBGenError.changedDuringDiff(path: path) }
    }

    /// Begins a read transaction that holds SQLite's SHARED lock on the file until
    /// ``endReadTransaction()``: no SQLite writer changes it meanwhile.
    func beginReadTransaction() throws {
        do {
            try connection.execute("BEGIN")
            _ = try connection.scalar("PRAGMA main.schema_version")
        } catch let error as SQLiteError {
            endReadTransaction()
            throw DBGenError.sqlite(path: path, error)
        }
    }

    /// Ends the transaction ``beginReadTransaction()`` began (idempotent).
    func endReadTransaction() {
        if connection.isInTransaction { try? connection.execute("COMMIT") }
    }
}
