#ifndef SHIPYARD_FILE_EXTENSIONS_INTERNAL_H
#define SHIPYARD_FILE_EXTENSIONS_INTERNAL_H
/*
 * Private declarations shared by the file and archive extensions (file_*.c, zip_*.c):
 * path resolution against the host's base directory, input recording, whole-file reads,
 * and one registration entry point per concept.
 */
#include "shell_extensions.h"
#include <stdint.h>

/** Returns `path` resolved against `environment->base_directory` (a new sqlite3_malloc'd
 *  string): absolute or empty paths, or a NULL base directory, leave it unchanged.
 *  Returns NULL when out of memory. */
char *shipyard_file_resolve(const shipyard_shell_environment *environment, const char *path);

/** Tells the host (when it asked to know) that the file at `resolved_path` was read. */
void shipyard_file_record(const shipyard_shell_environment *environment, const char *resolved_path);

/** Sets the result of `ctx` to the bytes of the file at `resolved_path` as a BLOB, exactly as
 *  the shell does: NULL when it cannot be opened, SQLITE_TOOBIG beyond the length limit,
 *  SQLITE_IOERR on a short read. Records the file as an input when it could be opened. */
void shipyard_file_result_contents(sqlite3_context *ctx, const shipyard_shell_environment *environment,
                                   const char *resolved_path);

/** readfile, writefile, edit, lsmode, usleep (file_fileio.c). */
int shipyard_register_fileio(sqlite3 *db, shipyard_shell_environment *environment);
/** The fsdir eponymous virtual table (file_fsdir.c). */
int shipyard_register_fsdir(sqlite3 *db, shipyard_shell_environment *environment);
/** The zipfile virtual table and zipfile_cds (zip_zipfile.c). */
int shipyard_register_zipfile_table(sqlite3 *db, shipyard_shell_environment *environment);
/** The zipfile() aggregate (zip_aggregate.c). */
int shipyard_register_zipfile_aggregate(sqlite3 *db);
/** sqlar_compress, sqlar_uncompress (zip_sqlar.c). */
int shipyard_register_sqlar(sqlite3 *db);
/** The completion eponymous virtual table (file_completion.c). */
int shipyard_register_completion(sqlite3 *db);

#endif
