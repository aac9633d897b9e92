/*
 * The sqlite_dbdata(pgno, cell, field, value, schema HIDDEN) and sqlite_dbptr(pgno, child,
 * schema HIDDEN) eponymous virtual tables of the sqlite3 3.40.1 shell (its ext/recover
 * dbdata module): constraints schema= and pgno=, the page-reading statement, the columns.
 */
#include <string.h>
#include "value_dbdata.h"
#include "value_extensions_internal.h"

enum { DBDATA_PGNO = 0, DBDATA_CELL = 1, DBDATA_FIELD = 2, DBDATA_VALUE = 3, DBDATA_SCHEMA = 4 };
enum { DBPTR_PGNO = 0, DBPTR_CHILD = 1, DBPTR_SCHEMA = 2 };

/** xConnect: sqlite_dbdata (aux NULL) or sqlite_dbptr (aux non-NULL). */
static int dbdata_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **vtab, char **error) {
    (void)argc; (void)argv; (void)error;
    int rc = sqlite3_declare_vtab(db, aux ? "CREATE TABLE x(  pgno INTEGER,  child INTEGER,  schema TEXT HIDDEN)"
                                          : "CREATE TABLE x(  pgno INTEGER,  cell INTEGER,  field INTEGER,  value ANY,  schema TEXT HIDDEN)");
    dbdata_table *table = NULL;
    if (rc == SQLITE_OK) {
        table = sqlite3_malloc(sizeof(*table));
        if (table == NULL) {
            rc = SQLITE_NOMEM;
        } else {
            memset(table, 0, sizeof(*table));
            table->db = db;
            table->pointers = aux != NULL;
        }
    }
    *vtab = (sqlite3_vtab *)table;
    return rc;
}

/** xDisconnect: finalizes the kept statement. */
static int dbdata_disconnect(sqlite3_vtab *vtab) {
    dbdata_table *table = (dbdata_table *)vtab;
    if (table != NULL) {
        sqlite3_finalize(table->stmt);
        sqlite3_free(table);
    }
    return SQLITE_OK;
}

/** xBestIndex: schema= (must be usable) is argument 1, pgno= the next; with pgno= the scan
 *  reads one page and sqlite_dbdata delivers ORDER BY pgno / cell / pgno, cell ascending. */
static int dbdata_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info) {
    dbdata_table *table = (dbdata_table *)vtab;
    int schema = -1, pgno = -1, schema_column = table->pointers ? DBPTR_SCHEMA : DBDATA_SCHEMA;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *k = &info->aConstraint[i];
        if (k->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (k->iColumn == schema_column) {
            if (!k->usable) return SQLITE_CONSTRAINT;
            schema = i;
        }
        if (k->iColumn == DBDATA_PGNO && k->usable) pgno = i;
    }
    if (schema >= 0) {
        info->aConstraintUsage[schema].argvIndex = 1;
        info->aConstraintUsage[schema].omit = 1;
    }
    if (pgno >= 0) {
        info->aConstraintUsage[pgno].argvIndex = 1 + (schema >= 0);
        info->aConstraintUsage[pgno].omit = 1;
        info->estimatedCost = 100;
        info->estimatedRows = 50;
        if (!table->pointers && info->nOrderBy && info->aOrderBy[0].desc == 0) {
            int column = info->aOrderBy[0].iColumn;
            if (info->nOrderBy == 1) {
                info->orderByConsumed = column == 0 || column == 1;
            } else if (info->nOrderBy == 2 && info->aOrderBy[1].desc == 0 && column == 0) {
                info->orderByConsumed = info->aOrderBy[1].iColumn == 1;
            }
        }
    } else {
        info->estimatedCost = 100000000;
        info->estimatedRows = 1000000000;
    }
    info->idxNum = (schema >= 0 ? 1 : 0) | (pgno >= 0 ? 2 : 0);
    return SQLITE_OK;
}

/** Puts a cursor back to its opened state; its statement goes back to the table if the
 *  table has none (the row counter keeps counting, as the shell's does). */
static void dbdata_reset(dbdata_cursor *c) {
    dbdata_table *table = (dbdata_table *)c->base.pVtab;
    if (table->stmt == NULL) table->stmt = c->stmt;
    else sqlite3_finalize(c->stmt);
    c->stmt = NULL;
    c->pgno = 1;
    c->cell = 0;
    c->field = 0;
    c->one_page = 0;
    sqlite3_free(c->page);
    c->page = NULL;
    sqlite3_free(c->record);
    c->record = NULL;
    c->record_capacity = 0;
    c->record_length = 0;
}

/** xOpen. */
static int dbdata_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **cursor) {
    dbdata_cursor *c = sqlite3_malloc(sizeof(*c));
    if (c == NULL) return SQLITE_NOMEM;
    memset(c, 0, sizeof(*c));
    c->base.pVtab = vtab;
    *cursor = &c->base;
    return SQLITE_OK;
}

/** xClose. */
static int dbdata_close(sqlite3_vtab_cursor *cursor) {
    dbdata_reset((dbdata_cursor *)cursor);
    sqlite3_free(cursor);
    return SQLITE_OK;
}

/** xEof: no page loaded. */
static int dbdata_eof(sqlite3_vtab_cursor *cursor) {
    return ((dbdata_cursor *)cursor)->page == NULL;
}

/** xRowid: the row counter. */
static int dbdata_rowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid) {
    *rowid = ((dbdata_cursor *)cursor)->rowid;
    return SQLITE_OK;
}

/** The length of the function name when schema is "name()", else 0. */
static int dbdata_function_name(const char *schema) {
    size_t n = strlen(schema);
    return n > 2 && schema[n - 2] == '(' && schema[n - 1] == ')' ? (int)n - 2 : 0;
}

/** The number of pages: PRAGMA schema.page_count, or f(0) for a schema "f()". */
static int dbdata_page_count(dbdata_cursor *c, const char *schema) {
    dbdata_table *table = (dbdata_table *)c->base.pVtab;
    int function = dbdata_function_name(schema);
    char *sql = function ? sqlite3_mprintf("SELECT %.*s(0)", function, schema) : sqlite3_mprintf("PRAGMA %Q.page_count", schema);
    sqlite3_stmt *stmt = NULL;
    if (sql == NULL) return SQLITE_NOMEM;
    int rc = sqlite3_prepare_v2(table->db, sql, -1, &stmt, NULL);
    sqlite3_free(sql);
    if (rc == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) c->db_pages = sqlite3_column_int(stmt, 0);
    int finalized = sqlite3_finalize(stmt);
    return rc == SQLITE_OK ? finalized : rc;
}

/** The page-reading statement: the table's kept one, else f(?2) or sqlite_dbpage. */
static int dbdata_prepare(dbdata_cursor *c, const char *schema) {
    dbdata_table *table = (dbdata_table *)c->base.pVtab;
    int function = dbdata_function_name(schema), rc;
    if (table->stmt != NULL) {
        c->stmt = table->stmt;
        table->stmt = NULL;
        return SQLITE_OK;
    }
    if (function) {
        char *sql = sqlite3_mprintf("SELECT %.*s(?2)", function, schema);
        if (sql == NULL) return SQLITE_NOMEM;
        rc = sqlite3_prepare_v2(table->db, sql, -1, &c->stmt, NULL);
        sqlite3_free(sql);
        return rc;
    }
    return sqlite3_prepare_v2(table->db, "SELECT data FROM sqlite_dbpage(?) WHERE pgno=?", -1, &c->stmt, NULL);
}

/** Reads the text encoding from page 1's header (offset 56). */
static int dbdata_read_encoding(dbdata_cursor *c) {
    unsigned char *page = NULL;
    int size = 0;
    int rc = shipyard_dbdata_load_page(c, 1, &page, &size);
    if (rc == SQLITE_OK && size >= 60) c->encoding = shipyard_dbdata_u32(page + 56);
    sqlite3_free(page);
    return rc;
}

/** xFilter: schema (default "main", NULL is ""), one page or all, then the first row. A
 *  failure reports the connection's latest error message. */
static int dbdata_filter(sqlite3_vtab_cursor *cursor, int plan, const char *unused, int argc, sqlite3_value **argv) {
    dbdata_cursor *c = (dbdata_cursor *)cursor;
    dbdata_table *table = (dbdata_table *)cursor->pVtab;
    const char *schema = "main";
    int rc = SQLITE_OK;
    (void)unused; (void)argc;
    dbdata_reset(c);
    if (plan & 1) {
        schema = (const char *)sqlite3_value_text(argv[0]);
        if (schema == NULL) schema = "";
    }
    if (plan & 2) {
        c->pgno = sqlite3_value_int(argv[plan & 1]);
        c->one_page = 1;
    } else {
        rc = dbdata_page_count(c, schema);
    }
    if (rc == SQLITE_OK) rc = dbdata_prepare(c, schema);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(c->stmt, 1, schema, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = dbdata_read_encoding(c);
    if (rc != SQLITE_OK) {
        sqlite3_free(table->base.zErrMsg);
        table->base.zErrMsg = sqlite3_mprintf("%s", sqlite3_errmsg(table->db));
        return rc;
    }
    return shipyard_dbdata_next(cursor);
}

/** sqlite_dbptr's child column: the right-child pointer for cell -1, else the cell's pointer. */
static void dbdata_child(sqlite3_context *context, const dbdata_cursor *c) {
    int at = c->pgno == 1 ? 100 : 0;
    if (c->cell < 0) {
        at += 8;
    } else {
        at += 12 + c->cell * 2;
        if (at > c->page_size) return;
        at = (int)shipyard_dbdata_u16(c->page + at);
    }
    if (at <= c->page_size) sqlite3_result_int64(context, shipyard_dbdata_u32(c->page + at));
}

/** xColumn: pgno, cell, field, value (the rowid for field -1); the schema column is NULL. */
static int dbdata_column(sqlite3_vtab_cursor *cursor, sqlite3_context *context, int i) {
    dbdata_cursor *c = (dbdata_cursor *)cursor;
    if (((dbdata_table *)cursor->pVtab)->pointers) {
        if (i == DBPTR_PGNO) sqlite3_result_int64(context, c->pgno);
        else if (i == DBPTR_CHILD) dbdata_child(context, c);
        return SQLITE_OK;
    }
    switch (i) {
    case DBDATA_PGNO: sqlite3_result_int64(context, c->pgno); break;
    case DBDATA_CELL: sqlite3_result_int(context, c->cell); break;
    case DBDATA_FIELD: sqlite3_result_int(context, c->field); break;
    case DBDATA_VALUE:
        if (c->field < 0) {
            sqlite3_result_int64(context, c->intkey);
        } else if (c->record_length >= c->data_at) {
            sqlite3_int64 type;
            shipyard_dbdata_varint32(c->record + c->header_at, &type);
            shipyard_dbdata_value(context, c->encoding, (int)type, c->record + c->data_at, c->record_length - c->data_at);
        }
        break;
    }
    return SQLITE_OK;
}

static sqlite3_module dbdata_module = {
    .iVersion = 0,
    .xConnect = dbdata_connect,
    .xBestIndex = dbdata_best_index,
    .xDisconnect = dbdata_disconnect,
    .xOpen = dbdata_open,
    .xClose = dbdata_close,
    .xFilter = dbdata_filter,
    .xNext = shipyard_dbdata_next,
    .xEof = dbdata_eof,
    .xColumn = dbdata_column,
    .xRowid = dbdata_rowid,
};

/** Registers sqlite_dbdata and sqlite_dbptr (eponymous only). */
int shipyard_register_dbdata(sqlite3 *db) {
    int rc = sqlite3_create_module(db, "sqlite_dbdata", &dbdata_module, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_module(db, "sqlite_dbptr", &dbdata_module, (void *)1);
    return rc;
}
