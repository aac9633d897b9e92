#ifndef SHIPYARD_CSQLITE_SHIM_H
#define SHIPYARD_CSQLITE_SHIM_H
/* The system's sqlite3.h: Debian's libsqlite3-dev on Linux, the SDK's on Apple platforms (no
 * pkg-config, no Homebrew: an iOS build must never see a macOS library's flags). */

/* The session extension (changesets, used by `dbgen diff --changeset`) is compiled into
 * Debian's libsqlite3, but sqlite3.h declares it only when these are defined first. */
#ifndef SQLITE_ENABLE_SESSION
#define SQLITE_ENABLE_SESSION 1
#endif
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>

/*
 * Apple's sqlite3.h has no session-extension section at all (the defines above change nothing
 * there), though the SDKs' libsqlite3.tbd exports its functions. Declared here, for Apple
 * platforms only, are the ones Shipyard calls, with SQLite's own prototypes (sqlite3.h,
 * "Session Module"); GRDB's shim does the same for the pre-update hook. Only the SQLiteSession
 * target (linked by dbgen, never by LayeredDatabase) calls them.
 * SHIPYARD_DECLARE_SESSION_API lets a Linux test compile this block against a header stripped
 * as Apple's is.
 */
#if (defined(__APPLE__) || defined(SHIPYARD_DECLARE_SESSION_API)) && !defined(__SQLITESESSION_H_)
typedef struct sqlite3_session sqlite3_session;
typedef struct sqlite3_changeset_iter sqlite3_changeset_iter;

SQLITE_API int sqlite3session_create(sqlite3 *db, const char *zDb, sqlite3_session **ppSession);
SQLITE_API void sqlite3session_delete(sqlite3_session *pSession);
SQLITE_API int sqlite3session_attach(sqlite3_session *pSession, const char *zTab);
SQLITE_API int sqlite3session_changeset(sqlite3_session *pSession, int *pnChangeset, void **ppChangeset);
SQLITE_API int sqlite3session_diff(sqlite3_session *pSession, const char *zFromDb, const char *zTbl,
                                   char **pzErrMsg);
SQLITE_API int sqlite3changeset_apply(
    sqlite3 *db, int nChangeset, void *pChangeset,
    int (*xFilter)(void *pCtx, const char *zTab),
    int (*xConflict)(void *pCtx, int eConflict, sqlite3_changeset_iter *p),
    void *pCtx);

#define SQLITE_CHANGESET_OMIT       0
#define SQLITE_CHANGESET_REPLACE    1
#define SQLITE_CHANGESET_ABORT      2
#endif

/*
 * sqlite3_config and sqlite3_db_config are variadic, which Swift cannot call: plain
 * wrappers for the options Shipyard sets.
 */

/* Turns off SQLite's memory statistics (sqlite3_memory_used and friends), which otherwise
 * take a global mutex on every allocation and free. Only effective before the library is
 * initialized (the first open); returns SQLITE_MISUSE, harmlessly, after. Called only from
 * dbgen's main. */
static inline int shipyard_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* Makes connections opened without SQLITE_OPEN_URI interpret URI filenames (on = 1) or not
 * (on = 0) (`file:PATH?mode=ro`), in sqlite3_open and ATTACH, as SQLITE_USE_URI does at
 * compile time. Best effort: only effective before the library is initialized (the first open
 * in the process, by any framework); returns SQLITE_MISUSE after. Shipyard's own connections
 * open with SQLITE_OPEN_URI and never depend on it. */
static inline int shipyard_sqlite3_set_uri_filenames(int on) {
    return sqlite3_config(SQLITE_CONFIG_URI, on);
}

/* sqlite3_db_config for the options that take (int onoff, int *result). */
static inline int shipyard_sqlite3_db_config_flag(sqlite3 *db, int option, int on_off, int *result) {
    return sqlite3_db_config(db, option, on_off, result);
}
#endif
