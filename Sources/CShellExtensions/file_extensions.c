#include "file_extensions_internal.h"

/*
 * The file and archive half of the shell's extensions: fileio (readfile, writefile, edit,
 * lsmode, usleep, fsdir), zipfile (table, aggregate, zipfile_cds), sqlar and completion.
 */

/** Registers every file and archive extension on `db`; returns the first failing code. */
int shipyard_register_file_extensions(sqlite3 *db, shipyard_shell_environment *environment) {
    int rc = shipyard_register_fileio(db, environment);
    if (rc == SQLITE_OK) rc = shipyard_register_fsdir(db, environment);
    if (rc == SQLITE_OK) rc = shipyard_register_zipfile_table(db, environment);
    if (rc == SQLITE_OK) rc = shipyard_register_zipfile_aggregate(db);
    if (rc == SQLITE_OK) rc = shipyard_register_sqlar(db);
    if (rc == SQLITE_OK) rc = shipyard_register_completion(db);
    return rc;
}
