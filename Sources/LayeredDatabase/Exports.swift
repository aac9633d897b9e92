// An app imports LayeredDatabase alone: the SQLite types its API takes and returns come with
// it. SQLiteCore's public API is exactly that app-facing part — `Connection` (execute, query,
// scalar, forEachRow, prepare, inTransaction), `Statement`, `Row`, `DatabaseValue`,
// `SQLiteError`, `ResultCode`, `SQLiteLibrary` — while everything only Shipyard's tools use
// (the VFS, `.dbconfig` options, run-time limits, the authorizer, raw column access, URIs)
// is `package`, invisible outside this package. SQLiteCoreTests' PublicSurfaceTests keeps
// that list.
@_exported import SQLiteCore
