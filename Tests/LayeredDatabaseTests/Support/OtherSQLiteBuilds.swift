// The one file of LayeredDatabaseTests that calls SQLite's C API (SQLiteBoundaryTests names
// it): to make this machine's SQLite behave as other builds and other libraries do, which
// SQLiteCore's API rightly cannot.
import CSQLite
import Foundation
import XCTest

/// Apple's system SQLite, emulated on this machine's: GRDB#1874 lists Apple's builds as
/// compiled with `SQLITE_DEFAULT_RECURSIVE_TRIGGERS` (every connection starts with
/// `recursive_triggers = ON`) and `SQLITE_DEFAULT_AUTOVACUUM` (a new database gets
/// `auto_vacuum = FULL`). Registered with `sqlite3_auto_extension`, the two pragmas run on
/// every connection the process opens, as the build defaults would: those of LayeredDatabase,
/// of the installer, and any other.
///
/// The whole LayeredDatabaseTests suite runs a second time under it in CI:
/// `SHIPYARD_APPLE_SQLITE_DEFAULTS=1 swift test --skip-build --filter LayeredDatabaseTests`
/// (every test class derives from ``LayeredDatabaseTestCase``, which turns it on). Not
/// emulated: `SQLITE_ENABLE_UPDATE_DELETE_LIMIT` (a grammar option; Debian's build has it
/// too) and the SQLite versions (3.39 to 3.51 on Apple's systems, 3.40.1 here).
enum AppleSQLiteDefaults {
    static let environmentVariable = "SHIPYARD_APPLE_SQLITE_DEFAULTS"

    /// Runs Apple's defaults on a connection being opened.
    ///
    /// `PRAGMA auto_vacuum = FULL` sets the connection's flag while it is compiled (as the build
    /// option sets it when the file is opened), then would write the header of an existing
    /// auto-vacuum database in a write transaction: `query_only` makes that transaction fail,
    /// so nothing is written and a new database gets auto-vacuum at its first table, as with
    /// the build option. Errors (a file that is not a database, a lock) are cleared by the
    /// final `SELECT 1`, since SQLite fails the open on an auto-extension's leftover error:
    /// the code under test meets them where it reads the file, as it would on Apple's.
    private static let entryPoint:
        @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, OpaquePointer?) -> Int32 =
            { db, _, _ in
                sqlite3_exec(db, "PRAGMA recursive_triggers = ON", nil, nil, nil)
                sqlite3_exec(db, "PRAGMA query_only = ON", nil, nil, nil)
                sqlite3_exec(db, "PRAGMA auto_vacuum = FULL", nil, nil, nil)
                sqlite3_exec(db, "PRAGMA query_only = OFF", nil, nil, nil)
                sqlite3_exec(db, "SELECT 1", nil, nil, nil)
                return SQLITE_OK
            }

    private static var function: @convention(c) () -> Void {
        unsafeBitCast(entryPoint, to: (@convention(c) () -> Void).self)
    }

    /// True when the environment asks for the emulation for the whole run.
    static var isRequestedByEnvironment: Bool { ProcessInfo.processInfo.environment[environmentVariable] == "1" }

    /// Every connection opened from now on starts with Apple's defaults.
    static func enable() {
        precondition(sqlite3_auto_extension(function) == SQLITE_OK)
    }

    /// Connections opened from now on start with this SQLite's own defaults again (unless
    /// the environment asked for the emulation for the whole run).
    static func disable() {
        guard !isRequestedByEnvironment else { return }
        sqlite3_cancel_auto_extension(function)
    }
}

/// The base of every LayeredDatabaseTests class: with `SHIPYARD_APPLE_SQLITE_DEFAULTS=1`,
/// the class's tests run under ``AppleSQLiteDefaults``.
class LayeredDatabaseTestCase: XCTestCase {
    override class func setUp() {
        super.setUp()
        if AppleSQLiteDefaults.isRequestedByEnvironment { AppleSQLiteDefaults.enable() }
    }
}

/// A connection opened as GRDB opens one: `sqlite3_open_v2(path, …, READWRITE | CREATE |
/// NOMUTEX)`, without `SQLITE_OPEN_URI` (every open of Shipyard passes it).
final class ForeignConnection {
    let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(
            path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot open \(path): result code \(status)"])
        }
        self.handle = handle
    }

    deinit { sqlite3_close_v2(handle) }
}
