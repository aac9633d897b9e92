#ifndef SHIPYARD_CSQLITE_SHIM_H
#define SHIPYARD_CSQLITE_SHIM_H
#include <sqlite3.h>

/*
 * sqlite3_config is variadic, which Swift cannot call: plain wrappers for the options
 * Shipyard sets.
 */

/* Turns off SQLite's memory statistics (sqlite3_memory_used and friends), which otherwise
 * take a global mutex on every allocation and free. Only effective before the library is
 * initialized (the first open); returns SQLITE_MISUSE, harmlessly, after. */
static inline int shipyard_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
