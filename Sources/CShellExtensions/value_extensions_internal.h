#ifndef SHIPYARD_VALUE_EXTENSIONS_INTERNAL_H
#define SHIPYARD_VALUE_EXTENSIONS_INTERNAL_H
/*
 * Private interface between value_extensions.c and the value_*.c files: each file
 * registers one concept of the sqlite3 3.40.1 shell (hashing, decimal arithmetic, ...)
 * on a connection and returns SQLITE_OK or the failing registration's code.
 */
#include <sqlite3.h>

/* The flags of a pure function, as the shell registers them. */
#define SHIPYARD_PURE_FUNCTION (SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC)

/* sha3(X[,SIZE]) and sha3_query(SQL[,SIZE]) (value_sha3.c). */
int shipyard_register_sha3(sqlite3 *db);
/* ieee754(), ieee754_mantissa/_exponent/_to_blob/_from_blob (value_ieee754.c). */
int shipyard_register_ieee754(sqlite3 *db);
/* The "uint" collation (value_uint.c). */
int shipyard_register_uint(sqlite3 *db);
/* The generate_series eponymous virtual table (value_series.c). */
int shipyard_register_series(sqlite3 *db);
/* decimal(), decimal_cmp/_add/_sub/_mul/_sum and the "decimal" collation (value_decimal_sql.c). */
int shipyard_register_decimal(sqlite3 *db);
/* regexp(P,S) and regexpi(P,S) (value_regexp_sql.c). */
int shipyard_register_regexp(sqlite3 *db);
/* The sqlite_dbdata and sqlite_dbptr eponymous virtual tables (value_dbdata.c). */
int shipyard_register_dbdata(sqlite3 *db);
/* shell_add_schema, shell_module_schema, shell_putsnl, ... (value_shell_helpers.c). */
int shipyard_register_shell_helpers(sqlite3 *db);

#endif
