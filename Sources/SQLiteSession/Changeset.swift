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
import SQLiteCore

/// Applying a changeset (`sqlite3changeset_apply`).
package enum Changeset {
    /// Applies `changeset` to `connection`'s main database. Any conflict aborts it, and
    /// nothing of it stays (SQLite applies a changeset in one savepoint).
    package static func apply(_ changeset: Data, to connection: Connection) throws {
        let database = try connection.openHandle()
        var copy = changeset
        let status = copy.withUnsafeMutableBytes { raw -> Int32 in
            sqlite3changeset_apply(
                database, Int32(raw.count), raw.baseAddress, nil,
                { _, _, _ in
                    SQLITE_CHANGESET_ABORT
                }, nil)
        }
        guard status == SQLITE_OK else { throw SQLiteError(database: database, sql: nil) }
    }
}
