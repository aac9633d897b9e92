#ifndef SHIPYARD_SHELL_EXTENSIONS_H
#define SHIPYARD_SHELL_EXTENSIONS_H
/*
 * The SQL functions, collations and virtual tables that the sqlite3 3.40.1 shell registers
 * on its connection (readfile, fsdir, zipfile, generate_series, sha3, decimal, ieee754, uint,
 * regexp, ...), written for Shipyard so that a schema script that uses them builds the same
 * content with dbgen. What would write a file or run a program (writefile, edit, writes
 * through zipfile) is registered too, and refuses with a clear error.
 */
#include <sqlite3.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The host's side of the extensions; owned by the host and read at call time, so the host
 * may change `base_directory` as scripts in other directories are entered. */
typedef struct shipyard_shell_environment {
    /* Relative paths given to readfile(), fsdir, zipfile resolve against this directory
     * (absolute paths are used as given). NULL means the process's working directory. */
    const char *base_directory;
    /* Called with the resolved path of every file an extension reads (readfile, a zipfile
     * archive, fsdir entries' contents), so the host can record it as an input. May be NULL. */
    void (*record_input)(void *context, const char *path);
    /* Passed to record_input. */
    void *context;
} shipyard_shell_environment;

/* Registers every extension on `db`. `environment` must outlive the connection.
 * Returns SQLITE_OK or the first failing registration's code. */
int shipyard_register_shell_extensions(sqlite3 *db, shipyard_shell_environment *environment);

/* The two halves, one file each (see shell_extensions.c). */
int shipyard_register_file_extensions(sqlite3 *db, shipyard_shell_environment *environment);
int shipyard_register_value_extensions(sqlite3 *db, shipyard_shell_environment *environment);

#ifdef __cplusplus
}
#endif
#endif
