#ifndef SHIPYARD_CSQLITE_SHIM_H
#define SHIPYARD_CSQLITE_SHIM_H
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
 * sqlite3_config and sqlite3_db_config are variadic, which Swift cannot call: plain
 * wrappers for the options Shipyard sets.
 */

/* Turns off SQLite's memory statistics (sqlite3_memory_used and friends), which otherwise
 * take a global mutex on every allocation and free. Only effective before the library is
 * initialized (the first open); returns SQLITE_MISUSE, harmlessly, after. */
static inline int shipyard_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* Makes every connection interpret URI filenames (on = 1) or only those opened with
 * SQLITE_OPEN_URI (on = 0) (`file:PATH?mode=ro`), in sqlite3_open and
 * ATTACH, as SQLITE_USE_URI does at compile time. Only effective before the library is
 * initialized (the first open); returns SQLITE_MISUSE after. */
static inline int shipyard_sqlite3_set_uri_filenames(int on) {
    return sqlite3_config(SQLITE_CONFIG_URI, on);
}

/* sqlite3_db_config for the options that take (int onoff, int *result). */
static inline int shipyard_sqlite3_db_config_flag(sqlite3 *db, int option, int on_off, int *result) {
    return sqlite3_db_config(db, option, on_off, result);
}
#endif
