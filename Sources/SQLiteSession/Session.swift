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

/// A session of SQLite's session extension (`sqlite3session_*`), used here to compute a
/// changeset between two databases with `sqlite3session_diff` (`dbgen diff --changeset`).
///
/// The session extension ignores tables without a declared PRIMARY KEY. Apple's `sqlite3.h`
/// declares none of it (CSQLite's shim does, for Apple platforms, as the SDK's libsqlite3
/// exports the functions), so this lives in its own target that only the tools link: an app
/// linking LayeredDatabase references no session symbol.
package final class Session {
    private let session: OpaquePointer
    private let connection: Connection

    /// Creates a session recording changes to `schema` (usually `main`) of `connection`.
    package init(_ connection: Connection, schema: String = "main") throws {
        let database = try connection.openHandle()
        var raw: OpaquePointer?
        let status = sqlite3session_create(database, schema, &raw)
        guard status == SQLITE_OK, let raw else {
            throw SQLiteError(
                extendedResultCode: ResultCode(rawValue: status),
                message: "cannot create a session: \(String(cString: sqlite3_errstr(status)))")
        }
        session = raw
        self.connection = connection
    }

    deinit { sqlite3session_delete(session) }

    /// Records changes to `table` (`sqlite3session_attach`).
    package func attach(table: String) throws {
        let status = sqlite3session_attach(session, table)
        guard status == SQLITE_OK else {
            throw SQLiteError(
                extendedResultCode: ResultCode(rawValue: status),
                message: "cannot attach table \(table) to the session: \(String(cString: sqlite3_errstr(status)))")
        }
    }

    /// Adds to the session the changes that turn `table` of the attached schema `fromSchema`
    /// into the session's own `table` (`sqlite3session_diff`).
    package func diff(fromSchema: String, table: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3session_diff(session, fromSchema, table, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            throw SQLiteError(extendedResultCode: ResultCode(rawValue: status), message: "\(table): \(text)")
        }
    }

    /// The changeset of everything recorded (`sqlite3session_changeset`).
    package func changeset() throws -> Data {
        var count: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        let status = sqlite3session_changeset(session, &count, &bytes)
        defer { sqlite3_free(bytes) }
        guard status == SQLITE_OK else {
            throw SQLiteError(
                extendedResultCode: ResultCode(rawValue: status),
                message: "cannot make the changeset: \(String(cString: sqlite3_errstr(status)))")
        }
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: Int(count))
    }
}
