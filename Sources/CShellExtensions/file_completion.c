#include "file_extensions_internal.h"

#include <ctype.h>
#include <string.h>

/*
 * completion(PREFIX, WHOLELINE): the shell's tab-completion candidates, in the shell's
 * order: SQL keywords, then database names, then schema object names (tables, views,
 * indexes, triggers) of every database, then column names of every table, each kept when
 * it starts with PREFIX (case-insensitively). Without PREFIX, it is the identifier that
 * ends WHOLELINE.
 */

enum { COMPLETION_CANDIDATE, COMPLETION_PREFIX, COMPLETION_WHOLELINE, COMPLETION_PHASE };
enum { PHASE_KEYWORDS = 1, PHASE_DATABASES = 7, PHASE_TABLES = 8, PHASE_COLUMNS = 9, PHASE_EOF = 11 };

/** The table: only its connection, which it queries for names. */
typedef struct completion_table {
    sqlite3_vtab base;
    sqlite3 *db;
} completion_table;

/** A scan: the phase, the statement of the current phase, the current candidate. */
typedef struct completion_cursor {
    sqlite3_vtab_cursor base;
    sqlite3 *db;
    char *prefix;
    int prefix_length;
    char *line;
    const char *candidate;      /* not NUL-terminated for keywords: use candidate_length */
    int candidate_length;
    sqlite3_stmt *statement;
    sqlite3_int64 rowid;
    int phase;
    int keyword_index;
} completion_cursor;

/** xConnect. */
static int completion_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                              sqlite3_vtab **table_out, char **error) {
    (void)aux; (void)argc; (void)argv; (void)error;
    sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(  candidate TEXT,  prefix TEXT HIDDEN,"
                                      "  wholeline TEXT HIDDEN,  phase INT HIDDEN)");
    if (rc != SQLITE_OK) return rc;
    completion_table *table = sqlite3_malloc(sizeof(*table));
    if (table == NULL) return SQLITE_NOMEM;
    memset(table, 0, sizeof(*table));
    table->db = db;
    *table_out = &table->base;
    return SQLITE_OK;
}

/** xDisconnect. */
static int completion_disconnect(sqlite3_vtab *table) {
    sqlite3_free(table);
    return SQLITE_OK;
}

/** xOpen. */
static int completion_open(sqlite3_vtab *table, sqlite3_vtab_cursor **cursor_out) {
    completion_cursor *cursor = sqlite3_malloc(sizeof(*cursor));
    if (cursor == NULL) return SQLITE_NOMEM;
    memset(cursor, 0, sizeof(*cursor));
    cursor->db = ((completion_table *)table)->db;
    *cursor_out = &cursor->base;
    return SQLITE_OK;
}

/** Forgets the arguments and the running statement. */
static void completion_reset(completion_cursor *cursor) {
    sqlite3_free(cursor->prefix);
    sqlite3_free(cursor->line);
    sqlite3_finalize(cursor->statement);
    cursor->prefix = cursor->line = NULL;
    cursor->prefix_length = 0;
    cursor->statement = NULL;
    cursor->keyword_index = 0;
}

/** xClose. */
static int completion_close(sqlite3_vtab_cursor *base) {
    completion_reset((completion_cursor *)base);
    sqlite3_free(base);
    return SQLITE_OK;
}

/** The union over every attached database of `per_database` (a format taking the name twice). */
static char *union_over_databases(sqlite3 *db, const char *per_database) {
    sqlite3_stmt *list = NULL;
    char *sql = NULL;
    const char *separator = "";
    sqlite3_prepare_v2(db, "PRAGMA database_list", -1, &list, NULL);
    while (list && sqlite3_step(list) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(list, 1);
        char *part = sqlite3_mprintf(per_database, name, name);
        char *joined = part ? sqlite3_mprintf("%s%s%s", sql ? sql : "", separator, part) : NULL;
        sqlite3_free(part);
        sqlite3_free(sql);
        sql = joined;
        if (sql == NULL) break;
        separator = " UNION ";
    }
    sqlite3_finalize(list);
    return sql;
}

/** Prepares the statement that lists the candidates of the current (name) phase. */
static int completion_prepare_phase(completion_cursor *cursor) {
    char *sql = NULL;
    if (cursor->phase == PHASE_DATABASES) {
        sql = sqlite3_mprintf("PRAGMA database_list");
    } else if (cursor->phase == PHASE_TABLES) {
        sql = union_over_databases(cursor->db, "SELECT name FROM \"%w\".sqlite_schema");
    } else {
        sql = union_over_databases(cursor->db, "SELECT pti.name FROM \"%w\".sqlite_schema AS sm"
                                               " JOIN pragma_table_info(sm.name,%Q) AS pti WHERE sm.type='table'");
    }
    if (sql == NULL) return SQLITE_NOMEM;
    sqlite3_prepare_v2(cursor->db, sql, -1, &cursor->statement, NULL);
    sqlite3_free(sql);
    return SQLITE_OK;
}

/** Moves to the next candidate of any phase, ignoring the prefix; 0 at the end. */
static int completion_step(completion_cursor *cursor, int *rc) {
    while (cursor->phase != PHASE_EOF) {
        if (cursor->phase == PHASE_KEYWORDS) {
            if (cursor->keyword_index < sqlite3_keyword_count()) {
                sqlite3_keyword_name(cursor->keyword_index++, &cursor->candidate, &cursor->candidate_length);
                return 1;
            }
            cursor->phase = PHASE_DATABASES;
            continue;
        }
        if (cursor->statement == NULL && (*rc = completion_prepare_phase(cursor)) != SQLITE_OK) return 0;
        int column = cursor->phase == PHASE_DATABASES ? 1 : 0;
        if (cursor->statement && sqlite3_step(cursor->statement) == SQLITE_ROW) {
            cursor->candidate = (const char *)sqlite3_column_text(cursor->statement, column);
            cursor->candidate_length = sqlite3_column_bytes(cursor->statement, column);
            return 1;
        }
        sqlite3_finalize(cursor->statement);
        cursor->statement = NULL;
        cursor->phase = cursor->phase == PHASE_DATABASES ? PHASE_TABLES
                      : cursor->phase == PHASE_TABLES ? PHASE_COLUMNS : PHASE_EOF;
    }
    return 0;
}

/** xNext: the next candidate that starts with the prefix. */
static int completion_next(sqlite3_vtab_cursor *base) {
    completion_cursor *cursor = (completion_cursor *)base;
    int rc = SQLITE_OK;
    cursor->rowid++;
    while (completion_step(cursor, &rc)) {
        if (cursor->prefix_length == 0) break;
        if (cursor->prefix_length <= cursor->candidate_length && cursor->candidate
            && sqlite3_strnicmp(cursor->prefix, cursor->candidate, cursor->prefix_length) == 0) break;
    }
    return rc;
}

/** xColumn. */
static int completion_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int column) {
    completion_cursor *cursor = (completion_cursor *)base;
    switch (column) {
    case COMPLETION_CANDIDATE:
        sqlite3_result_text(ctx, cursor->candidate, cursor->candidate_length, SQLITE_TRANSIENT);
        break;
    case COMPLETION_PREFIX: sqlite3_result_text(ctx, cursor->prefix, -1, SQLITE_TRANSIENT); break;
    case COMPLETION_WHOLELINE: sqlite3_result_text(ctx, cursor->line, -1, SQLITE_TRANSIENT); break;
    default: sqlite3_result_int(ctx, cursor->phase); break;
    }
    return SQLITE_OK;
}

/** xRowid: the candidate's position, counting those skipped by the prefix. */
static int completion_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid) {
    *rowid = ((completion_cursor *)base)->rowid;
    return SQLITE_OK;
}

/** xEof. */
static int completion_eof(sqlite3_vtab_cursor *base) {
    return ((completion_cursor *)base)->phase >= PHASE_EOF;
}

/** Copies argument `value` into `*out` when it is not empty. */
static int copy_argument(sqlite3_value *value, char **out, int *length) {
    *length = sqlite3_value_bytes(value);
    if (*length <= 0) return SQLITE_OK;
    *out = sqlite3_mprintf("%s", sqlite3_value_text(value));
    return *out ? SQLITE_OK : SQLITE_NOMEM;
}

/** xFilter: bit 1 of idxNum gives PREFIX, bit 2 WHOLELINE. */
static int completion_filter(sqlite3_vtab_cursor *base, int plan, const char *plan_text,
                             int argc, sqlite3_value **argv) {
    (void)plan_text; (void)argc;
    completion_cursor *cursor = (completion_cursor *)base;
    completion_reset(cursor);
    int next_argument = 0, line_length = 0, rc = SQLITE_OK;
    if (plan & 1) rc = copy_argument(argv[next_argument++], &cursor->prefix, &cursor->prefix_length);
    if (rc == SQLITE_OK && (plan & 2)) rc = copy_argument(argv[next_argument], &cursor->line, &line_length);
    if (rc != SQLITE_OK) return rc;
    if (cursor->line != NULL && cursor->prefix == NULL) {
        int start = line_length;
        while (start > 0 && (isalnum((unsigned char)cursor->line[start - 1]) || cursor->line[start - 1] == '_')) start--;
        cursor->prefix_length = line_length - start;
        if (cursor->prefix_length > 0) {
            cursor->prefix = sqlite3_mprintf("%.*s", cursor->prefix_length, cursor->line + start);
            if (cursor->prefix == NULL) return SQLITE_NOMEM;
        }
    }
    cursor->rowid = 0;
    cursor->phase = PHASE_KEYWORDS;
    return completion_next(base);
}

/** xBestIndex: uses usable equality constraints on prefix and wholeline. */
static int completion_best_index(sqlite3_vtab *table, sqlite3_index_info *info) {
    (void)table;
    int plan = 0, prefix_index = -1, line_index = -1, argument_count = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *constraint = &info->aConstraint[i];
        if (!constraint->usable || constraint->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (constraint->iColumn == COMPLETION_PREFIX) { prefix_index = i; plan |= 1; }
        else if (constraint->iColumn == COMPLETION_WHOLELINE) { line_index = i; plan |= 2; }
    }
    if (prefix_index >= 0) {
        info->aConstraintUsage[prefix_index].argvIndex = ++argument_count;
        info->aConstraintUsage[prefix_index].omit = 1;
    }
    if (line_index >= 0) {
        info->aConstraintUsage[line_index].argvIndex = ++argument_count;
        info->aConstraintUsage[line_index].omit = 1;
    }
    info->idxNum = plan;
    info->estimatedCost = 5000.0 - 1000.0 * argument_count;
    info->estimatedRows = 500 - 100 * argument_count;
    return SQLITE_OK;
}

static sqlite3_module completion_module = {
    .iVersion = 0,
    .xConnect = completion_connect,
    .xBestIndex = completion_best_index,
    .xDisconnect = completion_disconnect,
    .xOpen = completion_open,
    .xClose = completion_close,
    .xFilter = completion_filter,
    .xNext = completion_next,
    .xEof = completion_eof,
    .xColumn = completion_column,
    .xRowid = completion_rowid,
};

/** Registers the completion module. */
int shipyard_register_completion(sqlite3 *db) {
    return sqlite3_create_module(db, "completion", &completion_module, NULL);
}
