import CSQLite

/// An SQLite result code (<https://www.sqlite.org/rescode.html>): a primary code such as
/// `SQLITE_CONSTRAINT`, or an extended one such as `SQLITE_CONSTRAINT_UNIQUE` whose low 8 bits
/// are its primary code.
///
/// Codes are matched in `switch` and `catch` patterns, where a primary code matches itself and
/// every extended code of its kind, and an extended code matches only itself:
///
/// ```swift
/// do {
///     try db.execute("INSERT INTO food (pk) VALUES (1)")
/// } catch ResultCode.SQLITE_CONSTRAINT_UNIQUE {
///     // a duplicate key
/// } catch ResultCode.SQLITE_CONSTRAINT {
///     // any other constraint
/// }
///
/// switch error.extendedResultCode {
/// case .SQLITE_READONLY_DBMOVED: ...
/// case .SQLITE_READONLY: ...          // any other read-only refusal
/// default: ...
/// }
/// ```
///
/// `==` compares codes exactly; `error.resultCode == .SQLITE_BUSY` compares primary codes.
@frozen
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as SQLite's C API returns it.
    public let rawValue: Int32

    /// The code with this raw value.
    @inlinable
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low 8 bits (`SQLITE_CONSTRAINT` for `SQLITE_CONSTRAINT_UNIQUE`).
    @inlinable
    public var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// True for a primary code (one that is its own ``primaryResultCode``).
    @inlinable
    public var isPrimary: Bool { rawValue & ~0xFF == 0 }

    /// Pattern matching: a primary `pattern` matches `code` when it is `code`'s primary code;
    /// an extended `pattern` matches only itself.
    @inlinable
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }

    /// Pattern matching against a thrown error, for `catch ResultCode.SQLITE_BUSY`: true when
    /// `error` is an ``SQLiteError`` whose extended code matches `pattern`.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        return pattern ~= error.extendedResultCode
    }

    /// `CODE (SQLite's English text for it)`, e.g. `2067 (constraint failed)`.
    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }

    // MARK: Primary result codes

    /// `SQLITE_OK` (0): successful result.
    public static let SQLITE_OK = ResultCode(rawValue: CSQLite.SQLITE_OK)
    /// `SQLITE_ERROR` (1): generic error.
    public static let SQLITE_ERROR = ResultCode(rawValue: CSQLite.SQLITE_ERROR)
    /// `SQLITE_INTERNAL` (2): internal logic error in SQLite.
    public static let SQLITE_INTERNAL = ResultCode(rawValue: CSQLite.SQLITE_INTERNAL)
    /// `SQLITE_PERM` (3): access permission denied.
    public static let SQLITE_PERM = ResultCode(rawValue: CSQLite.SQLITE_PERM)
    /// `SQLITE_ABORT` (4): callback routine requested an abort.
    public static let SQLITE_ABORT = ResultCode(rawValue: CSQLite.SQLITE_ABORT)
    /// `SQLITE_BUSY` (5): the database file is locked.
    public static let SQLITE_BUSY = ResultCode(rawValue: CSQLite.SQLITE_BUSY)
    /// `SQLITE_LOCKED` (6): a table in the database is locked.
    public static let SQLITE_LOCKED = ResultCode(rawValue: CSQLite.SQLITE_LOCKED)
    /// `SQLITE_NOMEM` (7): a malloc() failed.
    public static let SQLITE_NOMEM = ResultCode(rawValue: CSQLite.SQLITE_NOMEM)
    /// `SQLITE_READONLY` (8): attempt to write a readonly database.
    public static let SQLITE_READONLY = ResultCode(rawValue: CSQLite.SQLITE_READONLY)
    /// `SQLITE_INTERRUPT` (9): operation terminated by sqlite3_interrupt().
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: CSQLite.SQLITE_INTERRUPT)
    /// `SQLITE_IOERR` (10): some kind of disk I/O error occurred.
    public static let SQLITE_IOERR = ResultCode(rawValue: CSQLite.SQLITE_IOERR)
    /// `SQLITE_CORRUPT` (11): the database disk image is malformed.
    public static let SQLITE_CORRUPT = ResultCode(rawValue: CSQLite.SQLITE_CORRUPT)
    /// `SQLITE_NOTFOUND` (12): unknown opcode in sqlite3_file_control().
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: CSQLite.SQLITE_NOTFOUND)
    /// `SQLITE_FULL` (13): insertion failed because database is full.
    public static let SQLITE_FULL = ResultCode(rawValue: CSQLite.SQLITE_FULL)
    /// `SQLITE_CANTOPEN` (14): unable to open the database file.
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN)
    /// `SQLITE_PROTOCOL` (15): database lock protocol error.
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: CSQLite.SQLITE_PROTOCOL)
    /// `SQLITE_EMPTY` (16): internal use only.
    public static let SQLITE_EMPTY = ResultCode(rawValue: CSQLite.SQLITE_EMPTY)
    /// `SQLITE_SCHEMA` (17): the database schema changed.
    public static let SQLITE_SCHEMA = ResultCode(rawValue: CSQLite.SQLITE_SCHEMA)
    /// `SQLITE_TOOBIG` (18): string or BLOB exceeds size limit.
    public static let SQLITE_TOOBIG = ResultCode(rawValue: CSQLite.SQLITE_TOOBIG)
    /// `SQLITE_CONSTRAINT` (19): abort due to constraint violation.
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH` (20): data type mismatch.
    public static let SQLITE_MISMATCH = ResultCode(rawValue: CSQLite.SQLITE_MISMATCH)
    /// `SQLITE_MISUSE` (21): library used incorrectly.
    public static let SQLITE_MISUSE = ResultCode(rawValue: CSQLite.SQLITE_MISUSE)
    /// `SQLITE_NOLFS` (22): uses OS features not supported on host.
    public static let SQLITE_NOLFS = ResultCode(rawValue: CSQLite.SQLITE_NOLFS)
    /// `SQLITE_AUTH` (23): authorization denied.
    public static let SQLITE_AUTH = ResultCode(rawValue: CSQLite.SQLITE_AUTH)
    /// `SQLITE_FORMAT` (24): not used.
    public static let SQLITE_FORMAT = ResultCode(rawValue: CSQLite.SQLITE_FORMAT)
    /// `SQLITE_RANGE` (25): 2nd parameter to sqlite3_bind out of range.
    public static let SQLITE_RANGE = ResultCode(rawValue: CSQLite.SQLITE_RANGE)
    /// `SQLITE_NOTADB` (26): file opened that is not a database file.
    public static let SQLITE_NOTADB = ResultCode(rawValue: CSQLite.SQLITE_NOTADB)
    /// `SQLITE_NOTICE` (27): notifications from sqlite3_log().
    public static let SQLITE_NOTICE = ResultCode(rawValue: CSQLite.SQLITE_NOTICE)
    /// `SQLITE_WARNING` (28): warnings from sqlite3_log().
    public static let SQLITE_WARNING = ResultCode(rawValue: CSQLite.SQLITE_WARNING)
    /// `SQLITE_ROW` (100): sqlite3_step() has another row ready.
    public static let SQLITE_ROW = ResultCode(rawValue: CSQLite.SQLITE_ROW)
    /// `SQLITE_DONE` (101): sqlite3_step() has finished executing.
    public static let SQLITE_DONE = ResultCode(rawValue: CSQLite.SQLITE_DONE)

    // MARK: Extended result codes (each matches its primary code in a pattern), defined as
    // sqlite3.h defines them (`PRIMARY | (N << 8)`), which Swift does not import as constants

    /// `SQLITE_ERROR_MISSING_COLLSEQ`: a kind of `SQLITE_ERROR`.
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode(rawValue: CSQLite.SQLITE_ERROR | (1 << 8))
    /// `SQLITE_ERROR_RETRY`: a kind of `SQLITE_ERROR`.
    public static let SQLITE_ERROR_RETRY = ResultCode(rawValue: CSQLite.SQLITE_ERROR | (2 << 8))
    /// `SQLITE_ERROR_SNAPSHOT`: a kind of `SQLITE_ERROR`.
    public static let SQLITE_ERROR_SNAPSHOT = ResultCode(rawValue: CSQLite.SQLITE_ERROR | (3 << 8))
    /// `SQLITE_IOERR_READ`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_READ = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (1 << 8))
    /// `SQLITE_IOERR_SHORT_READ`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (2 << 8))
    /// `SQLITE_IOERR_WRITE`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_WRITE = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (3 << 8))
    /// `SQLITE_IOERR_FSYNC`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_FSYNC = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (4 << 8))
    /// `SQLITE_IOERR_DIR_FSYNC`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_DIR_FSYNC = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (5 << 8))
    /// `SQLITE_IOERR_TRUNCATE`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_TRUNCATE = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (6 << 8))
    /// `SQLITE_IOERR_FSTAT`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_FSTAT = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (7 << 8))
    /// `SQLITE_IOERR_UNLOCK`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_UNLOCK = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (8 << 8))
    /// `SQLITE_IOERR_RDLOCK`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_RDLOCK = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (9 << 8))
    /// `SQLITE_IOERR_DELETE`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_DELETE = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (10 << 8))
    /// `SQLITE_IOERR_BLOCKED`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_BLOCKED = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (11 << 8))
    /// `SQLITE_IOERR_NOMEM`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_NOMEM = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (12 << 8))
    /// `SQLITE_IOERR_ACCESS`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_ACCESS = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (13 << 8))
    /// `SQLITE_IOERR_CHECKRESERVEDLOCK`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (14 << 8))
    /// `SQLITE_IOERR_LOCK`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_LOCK = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (15 << 8))
    /// `SQLITE_IOERR_CLOSE`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_CLOSE = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (16 << 8))
    /// `SQLITE_IOERR_DIR_CLOSE`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_DIR_CLOSE = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (17 << 8))
    /// `SQLITE_IOERR_SHMOPEN`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_SHMOPEN = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (18 << 8))
    /// `SQLITE_IOERR_SHMSIZE`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_SHMSIZE = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (19 << 8))
    /// `SQLITE_IOERR_SHMLOCK`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_SHMLOCK = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (20 << 8))
    /// `SQLITE_IOERR_SHMMAP`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_SHMMAP = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (21 << 8))
    /// `SQLITE_IOERR_SEEK`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_SEEK = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (22 << 8))
    /// `SQLITE_IOERR_DELETE_NOENT`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_DELETE_NOENT = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (23 << 8))
    /// `SQLITE_IOERR_MMAP`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_MMAP = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (24 << 8))
    /// `SQLITE_IOERR_GETTEMPPATH`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_GETTEMPPATH = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (25 << 8))
    /// `SQLITE_IOERR_CONVPATH`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_CONVPATH = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (26 << 8))
    /// `SQLITE_IOERR_VNODE`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_VNODE = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (27 << 8))
    /// `SQLITE_IOERR_AUTH`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_AUTH = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (28 << 8))
    /// `SQLITE_IOERR_BEGIN_ATOMIC`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (29 << 8))
    /// `SQLITE_IOERR_COMMIT_ATOMIC`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (30 << 8))
    /// `SQLITE_IOERR_ROLLBACK_ATOMIC`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (31 << 8))
    /// `SQLITE_IOERR_DATA`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_DATA = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (32 << 8))
    /// `SQLITE_IOERR_CORRUPTFS`: a kind of `SQLITE_IOERR`.
    public static let SQLITE_IOERR_CORRUPTFS = ResultCode(rawValue: CSQLite.SQLITE_IOERR | (33 << 8))
    /// `SQLITE_LOCKED_SHAREDCACHE`: a kind of `SQLITE_LOCKED`.
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode(rawValue: CSQLite.SQLITE_LOCKED | (1 << 8))
    /// `SQLITE_LOCKED_VTAB`: a kind of `SQLITE_LOCKED`.
    public static let SQLITE_LOCKED_VTAB = ResultCode(rawValue: CSQLite.SQLITE_LOCKED | (2 << 8))
    /// `SQLITE_BUSY_RECOVERY`: a kind of `SQLITE_BUSY`.
    public static let SQLITE_BUSY_RECOVERY = ResultCode(rawValue: CSQLite.SQLITE_BUSY | (1 << 8))
    /// `SQLITE_BUSY_SNAPSHOT`: a kind of `SQLITE_BUSY`.
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: CSQLite.SQLITE_BUSY | (2 << 8))
    /// `SQLITE_BUSY_TIMEOUT`: a kind of `SQLITE_BUSY`.
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: CSQLite.SQLITE_BUSY | (3 << 8))
    /// `SQLITE_CANTOPEN_NOTEMPDIR`: a kind of `SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN | (1 << 8))
    /// `SQLITE_CANTOPEN_ISDIR`: a kind of `SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN | (2 << 8))
    /// `SQLITE_CANTOPEN_FULLPATH`: a kind of `SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN | (3 << 8))
    /// `SQLITE_CANTOPEN_CONVPATH`: a kind of `SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN_CONVPATH = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN | (4 << 8))
    /// `SQLITE_CANTOPEN_DIRTYWAL`: a kind of `SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN | (5 << 8))
    /// `SQLITE_CANTOPEN_SYMLINK`: a kind of `SQLITE_CANTOPEN`.
    public static let SQLITE_CANTOPEN_SYMLINK = ResultCode(rawValue: CSQLite.SQLITE_CANTOPEN | (6 << 8))
    /// `SQLITE_CORRUPT_VTAB`: a kind of `SQLITE_CORRUPT`.
    public static let SQLITE_CORRUPT_VTAB = ResultCode(rawValue: CSQLite.SQLITE_CORRUPT | (1 << 8))
    /// `SQLITE_CORRUPT_SEQUENCE`: a kind of `SQLITE_CORRUPT`.
    public static let SQLITE_CORRUPT_SEQUENCE = ResultCode(rawValue: CSQLite.SQLITE_CORRUPT | (2 << 8))
    /// `SQLITE_CORRUPT_INDEX`: a kind of `SQLITE_CORRUPT`.
    public static let SQLITE_CORRUPT_INDEX = ResultCode(rawValue: CSQLite.SQLITE_CORRUPT | (3 << 8))
    /// `SQLITE_READONLY_RECOVERY`: a kind of `SQLITE_READONLY`.
    public static let SQLITE_READONLY_RECOVERY = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (1 << 8))
    /// `SQLITE_READONLY_CANTLOCK`: a kind of `SQLITE_READONLY`.
    public static let SQLITE_READONLY_CANTLOCK = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (2 << 8))
    /// `SQLITE_READONLY_ROLLBACK`: a kind of `SQLITE_READONLY`.
    public static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (3 << 8))
    /// `SQLITE_READONLY_DBMOVED`: a kind of `SQLITE_READONLY`.
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (4 << 8))
    /// `SQLITE_READONLY_CANTINIT`: a kind of `SQLITE_READONLY`.
    public static let SQLITE_READONLY_CANTINIT = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (5 << 8))
    /// `SQLITE_READONLY_DIRECTORY`: a kind of `SQLITE_READONLY`.
    public static let SQLITE_READONLY_DIRECTORY = ResultCode(rawValue: CSQLite.SQLITE_READONLY | (6 << 8))
    /// `SQLITE_ABORT_ROLLBACK`: a kind of `SQLITE_ABORT`.
    public static let SQLITE_ABORT_ROLLBACK = ResultCode(rawValue: CSQLite.SQLITE_ABORT | (2 << 8))
    /// `SQLITE_CONSTRAINT_CHECK`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (1 << 8))
    /// `SQLITE_CONSTRAINT_COMMITHOOK`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (2 << 8))
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (3 << 8))
    /// `SQLITE_CONSTRAINT_FUNCTION`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (4 << 8))
    /// `SQLITE_CONSTRAINT_NOTNULL`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (5 << 8))
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (6 << 8))
    /// `SQLITE_CONSTRAINT_TRIGGER`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (7 << 8))
    /// `SQLITE_CONSTRAINT_UNIQUE`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (8 << 8))
    /// `SQLITE_CONSTRAINT_VTAB`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (9 << 8))
    /// `SQLITE_CONSTRAINT_ROWID`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (10 << 8))
    /// `SQLITE_CONSTRAINT_PINNED`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (11 << 8))
    /// `SQLITE_CONSTRAINT_DATATYPE`: a kind of `SQLITE_CONSTRAINT`.
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: CSQLite.SQLITE_CONSTRAINT | (12 << 8))
    /// `SQLITE_NOTICE_RECOVER_WAL`: a kind of `SQLITE_NOTICE`.
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode(rawValue: CSQLite.SQLITE_NOTICE | (1 << 8))
    /// `SQLITE_NOTICE_RECOVER_ROLLBACK`: a kind of `SQLITE_NOTICE`.
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode(rawValue: CSQLite.SQLITE_NOTICE | (2 << 8))
    /// `SQLITE_WARNING_AUTOINDEX`: a kind of `SQLITE_WARNING`.
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode(rawValue: CSQLite.SQLITE_WARNING | (1 << 8))
    /// `SQLITE_AUTH_USER`: a kind of `SQLITE_AUTH`.
    public static let SQLITE_AUTH_USER = ResultCode(rawValue: CSQLite.SQLITE_AUTH | (1 << 8))
    /// `SQLITE_OK_LOAD_PERMANENTLY`: a kind of `SQLITE_OK`.
    public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode(rawValue: CSQLite.SQLITE_OK | (1 << 8))
    /// `SQLITE_OK_SYMLINK`: a kind of `SQLITE_OK`.
    public static let SQLITE_OK_SYMLINK = ResultCode(rawValue: CSQLite.SQLITE_OK | (2 << 8))
}
