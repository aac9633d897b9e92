/*
 * The generate_series(START, STOP, STEP) eponymous virtual table of the sqlite3 3.40.1
 * shell: columns value, start, stop, step (the last three hidden and taking the table-valued
 * function's arguments). START is required, STOP defaults to 4294967295, STEP to 1; a STEP
 * of 0 counts as 1, a negative STEP counts down by |STEP| unless ORDER BY value ASC asks
 * otherwise; a NULL argument gives no rows. Arithmetic wraps around 64 bits as the shell's.
 */
#include <stdint.h>
#include <string.h>
#include "value_extensions_internal.h"

enum { SERIES_VALUE = 0, SERIES_START = 1, SERIES_STOP = 2, SERIES_STEP = 3 };

/* idxNum bits: which arguments xFilter receives, and the order asked for. */
enum { SERIES_HAS_START = 1, SERIES_HAS_STOP = 2, SERIES_HAS_STEP = 4, SERIES_DESC = 8, SERIES_ASC = 16 };

/* A cursor: the bounds, the (positive) step, the current value and its row number. */
typedef struct series_cursor {
    sqlite3_vtab_cursor base;
    int descending;
    int64_t rowid;
    int64_t value;
    int64_t min_value;
    int64_t max_value;
    int64_t step;
} series_cursor;

/** Adds with 64-bit wraparound (the shell's arithmetic overflows the same way). */
static int64_t wrapping_add(int64_t a, int64_t b) {
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

/** xConnect: declares the four columns and marks the table innocuous. */
static int series_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                          sqlite3_vtab **vtab, char **error) {
    (void)aux; (void)argc; (void)argv; (void)error;
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(value,start hidden,stop hidden,step hidden)");
    if (rc != SQLITE_OK) return rc;
    *vtab = sqlite3_malloc(sizeof(**vtab));
    if (*vtab == NULL) return SQLITE_NOMEM;
    memset(*vtab, 0, sizeof(**vtab));
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    return SQLITE_OK;
}

/** xDisconnect: frees the table. */
static int series_disconnect(sqlite3_vtab *vtab) {
    sqlite3_free(vtab);
    return SQLITE_OK;
}

/** xOpen: a zeroed cursor. */
static int series_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **cursor) {
    series_cursor *c = sqlite3_malloc(sizeof(*c));
    (void)vtab;
    if (c == NULL) return SQLITE_NOMEM;
    memset(c, 0, sizeof(*c));
    *cursor = &c->base;
    return SQLITE_OK;
}

/** xClose: frees the cursor. */
static int series_close(sqlite3_vtab_cursor *cursor) {
    sqlite3_free(cursor);
    return SQLITE_OK;
}

/** xNext: one step up or down. */
static int series_next(sqlite3_vtab_cursor *cursor) {
    series_cursor *c = (series_cursor *)cursor;
    c->value = c->descending ? wrapping_add(c->value, (int64_t)(0 - (uint64_t)c->step)) : wrapping_add(c->value, c->step);
    c->rowid++;
    return SQLITE_OK;
}

/** xColumn: the current value, or the bounds and step in use. */
static int series_column(sqlite3_vtab_cursor *cursor, sqlite3_context *context, int column) {
    series_cursor *c = (series_cursor *)cursor;
    int64_t x;
    switch (column) {
    case SERIES_START: x = c->min_value; break;
    case SERIES_STOP: x = c->max_value; break;
    case SERIES_STEP: x = c->step; break;
    default: x = c->value; break;
    }
    sqlite3_result_int64(context, x);
    return SQLITE_OK;
}

/** xRowid: 1 for the first row, counting up. */
static int series_rowid(sqlite3_vtab_cursor *cursor, sqlite3_int64 *rowid) {
    *rowid = ((series_cursor *)cursor)->rowid;
    return SQLITE_OK;
}

/** xEof: past the bound in the direction of travel. */
static int series_eof(sqlite3_vtab_cursor *cursor) {
    series_cursor *c = (series_cursor *)cursor;
    return c->descending ? c->value < c->min_value : c->value > c->max_value;
}

/** Reads the step argument: 0 becomes 1, a negative one is negated and (unless ASC was
 *  asked for) turns the scan descending. Returns the possibly updated plan bits. */
static int series_take_step(series_cursor *c, sqlite3_value *arg, int plan) {
    c->step = sqlite3_value_int64(arg);
    if (c->step == 0) {
        c->step = 1;
    } else if (c->step < 0) {
        c->step = (int64_t)(0 - (uint64_t)c->step);
        if ((plan & SERIES_ASC) == 0) plan |= SERIES_DESC;
    }
    return plan;
}

/** xFilter: takes START, STOP, STEP as the plan says, and positions on the first value. */
static int series_filter(sqlite3_vtab_cursor *cursor, int plan, const char *unused, int argc, sqlite3_value **argv) {
    series_cursor *c = (series_cursor *)cursor;
    int i = 0;
    (void)unused;
    c->min_value = (plan & SERIES_HAS_START) ? sqlite3_value_int64(argv[i++]) : 0;
    c->max_value = (plan & SERIES_HAS_STOP) ? sqlite3_value_int64(argv[i++]) : 0xffffffff;
    c->step = 1;
    if (plan & SERIES_HAS_STEP) plan = series_take_step(c, argv[i++], plan);
    for (i = 0; i < argc; i++) {
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) {
            c->min_value = 1;
            c->max_value = 0;
            break;
        }
    }
    c->descending = (plan & SERIES_DESC) != 0;
    c->value = c->descending ? c->max_value : c->min_value;
    if (c->descending && c->step > 0) {
        int64_t span = (int64_t)((uint64_t)c->max_value - (uint64_t)c->min_value);
        c->value = wrapping_add(c->value, (int64_t)(0 - (uint64_t)(span % c->step)));
    }
    c->rowid = 1;
    return SQLITE_OK;
}

/** Finds the usable equality constraints on start, stop, step; *unusable gets those that aren't. */
static int series_plan_constraints(sqlite3_index_info *info, int which[3], int *unusable, int *start_seen) {
    int plan = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *k = &info->aConstraint[i];
        if (k->iColumn < SERIES_START) continue;
        int column = k->iColumn - SERIES_START;
        if (column == 0) *start_seen = 1;
        if (!k->usable) {
            *unusable |= 1 << column;
        } else if (k->op == SQLITE_INDEX_CONSTRAINT_EQ) {
            plan |= 1 << column;
            which[column] = i;
        }
    }
    return plan;
}

/** xBestIndex: START must be given; both bounds make a cheap plan that can deliver ORDER BY value. */
static int series_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info) {
    int which[3] = {-1, -1, -1}, unusable = 0, start_seen = 0, arguments = 0;
    int plan = series_plan_constraints(info, which, &unusable, &start_seen);
    for (int i = 0; i < 3; i++) {
        if (which[i] < 0) continue;
        info->aConstraintUsage[which[i]].argvIndex = ++arguments;
        info->aConstraintUsage[which[i]].omit = 1;
    }
    if (!start_seen) {
        sqlite3_free(vtab->zErrMsg);
        vtab->zErrMsg = sqlite3_mprintf("first argument to \"generate_series()\" missing or unusable");
        return SQLITE_ERROR;
    }
    if ((unusable & ~plan) != 0) return SQLITE_CONSTRAINT;
    if ((plan & (SERIES_HAS_START | SERIES_HAS_STOP)) == (SERIES_HAS_START | SERIES_HAS_STOP)) {
        info->estimatedCost = (double)(2 - ((plan & SERIES_HAS_STEP) != 0));
        info->estimatedRows = 1000;
        if (info->nOrderBy >= 1 && info->aOrderBy[0].iColumn == SERIES_VALUE) {
            plan |= info->aOrderBy[0].desc ? SERIES_DESC : SERIES_ASC;
            info->orderByConsumed = 1;
        }
    } else {
        info->estimatedRows = 2147483647;
    }
    info->idxNum = plan;
    return SQLITE_OK;
}

static sqlite3_module series_module = {
    .iVersion = 0,
    .xCreate = NULL,
    .xConnect = series_connect,
    .xBestIndex = series_best_index,
    .xDisconnect = series_disconnect,
    .xDestroy = NULL,
    .xOpen = series_open,
    .xClose = series_close,
    .xFilter = series_filter,
    .xNext = series_next,
    .xEof = series_eof,
    .xColumn = series_column,
    .xRowid = series_rowid,
};

/** Registers generate_series as an eponymous-only module. */
int shipyard_register_series(sqlite3 *db) {
    return sqlite3_create_module(db, "generate_series", &series_module, NULL);
}
