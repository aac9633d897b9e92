#include "shell_extensions.h"

/* fileio (readfile, writefile, lsmode, fsdir), zipfile, sqlar, completion, edit, usleep. */
int shipyard_register_file_extensions(sqlite3 *db, shipyard_shell_environment *environment) {
    (void)db; (void)environment;
    return SQLITE_OK;
}
