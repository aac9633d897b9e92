#include <stddef.h>
#include "shell_extensions.h"
#include "value_extensions_internal.h"

/* A registration step: one concept's registration function. */
typedef int (*shipyard_value_registrar)(sqlite3 *db);

/*
 * Registers shathree, ieee754, uint, series, decimal, regexp, the shell_* helper functions
 * and sqlite_dbdata/sqlite_dbptr on `db`, in that order, stopping at the first failure.
 * None of them reads the environment: they compute values only.
 */
int shipyard_register_value_extensions(sqlite3 *db, shipyard_shell_environment *environment) {
    static const shipyard_value_registrar registrars[] = {
        shipyard_register_sha3,
        shipyard_register_ieee754,
        shipyard_register_uint,
        shipyard_register_series,
        shipyard_register_decimal,
        shipyard_register_regexp,
        shipyard_register_shell_helpers,
        shipyard_register_dbdata,
    };
    (void)environment;
    for (size_t i = 0; i < sizeof(registrars) / sizeof(registrars[0]); i++) {
        int rc = registrars[i](db);
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}
