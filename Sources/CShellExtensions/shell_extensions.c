#include "shell_extensions.h"

int shipyard_register_shell_extensions(sqlite3 *db, shipyard_shell_environment *environment) {
    int rc = shipyard_register_file_extensions(db, environment);
    if (rc == SQLITE_OK) rc = shipyard_register_value_extensions(db, environment);
    return rc;
}
