/*
 * The helper SQL functions the sqlite3 3.40.1 shell registers for its own dot-commands
 * (.schema, .dump, .dbinfo, ...): shell_add_schema, shell_module_schema, shell_putsnl,
 * shell_escape_crnl, shell_int32 and shell_idquote. A script can call them, so they return
 * what the shell's return; shell_putsnl prints nothing here (dbgen has no console output).
 */
#include <string.h>
#include "value_extensions_internal.h"

/** '"' if an identifier must be quoted (not [A-Za-z_][A-Za-z0-9_]* or a keyword), else 0. */
static char identifier_quote(const char *name) {
    int i;
    unsigned char c = (unsigned char)name[0];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) return '"';
    for (i = 0; name[i]; i++) {
        c = (unsigned char)name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return '"';
    }
    return sqlite3_keyword_check(name, i) ? '"' : 0;
}

/** Appends `text`, wrapped in `quote` with inner quotes doubled when quote is not 0. */
static void append_quoted(sqlite3_str *out, const char *text, char quote) {
    if (quote == 0) {
        sqlite3_str_appendall(out, text);
        return;
    }
    sqlite3_str_appendchar(out, 1, quote);
    for (; *text; text++) {
        if (*text == quote) sqlite3_str_appendchar(out, 1, quote);
        sqlite3_str_appendchar(out, 1, *text);
    }
    sqlite3_str_appendchar(out, 1, quote);
}

/** The shell's "fake schema" of a table: schema.name(col,col,...) from PRAGMA table_info,
 *  names quoted where needed; NULL if the table has no columns. sqlite3_malloc'd. */
static char *fake_schema(sqlite3 *db, const char *schema, const char *name) {
    sqlite3_stmt *stmt = NULL;
    char *sql = sqlite3_mprintf("PRAGMA \"%w\".table_info=%Q;", schema ? schema : "main", name);
    if (sql == NULL) return NULL;
    sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    sqlite3_free(sql);
    sqlite3_str *out = sqlite3_str_new(db);
    if (schema != NULL) {
        char quote = identifier_quote(schema);
        if (quote && sqlite3_stricmp(schema, "temp") == 0) quote = 0;
        append_quoted(out, schema, quote);
        sqlite3_str_appendall(out, ".");
    }
    append_quoted(out, name, identifier_quote(name));
    int rows = 0;
    while (stmt != NULL && sqlite3_step(stmt) == SQLITE_ROW) {
        const char *column = (const char *)sqlite3_column_text(stmt, 1);
        sqlite3_str_appendall(out, rows++ == 0 ? "(" : ",");
        if (column == NULL) column = "";
        append_quoted(out, column, identifier_quote(column));
    }
    sqlite3_str_appendall(out, ")");
    sqlite3_finalize(stmt);
    char *result = sqlite3_str_finish(out);
    if (rows == 0) {
        sqlite3_free(result);
        return NULL;
    }
    return result;
}

/** shell_add_schema(SQL, SCHEMA, NAME): "CREATE <kind> x" becomes "CREATE <kind> SCHEMA.x"
 *  (SCHEMA quoted when needed, except temp); a view also gets its fake schema as a comment.
 *  Any other SQL is returned unchanged. */
static void shell_add_schema(sqlite3_context *context, int argc, sqlite3_value **argv) {
    static const char *const kinds[] = {"TABLE", "INDEX", "UNIQUE INDEX", "VIEW", "TRIGGER", "VIRTUAL TABLE"};
    const char *sql = (const char *)sqlite3_value_text(argv[0]);
    const char *schema = (const char *)sqlite3_value_text(argv[1]);
    const char *name = (const char *)sqlite3_value_text(argv[2]);
    (void)argc;
    if (sql != NULL && strncmp(sql, "CREATE ", 7) == 0) {
        for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
            int n = (int)strlen(kinds[i]);
            if (strncmp(sql + 7, kinds[i], (size_t)n) != 0 || sql[n + 7] != ' ') continue;
            char *z = NULL, *fake = NULL;
            if (schema != NULL) {
                int quoted = identifier_quote(schema) && sqlite3_stricmp(schema, "temp") != 0;
                z = sqlite3_mprintf(quoted ? "%.*s \"%w\".%s" : "%.*s %s.%s", n + 7, sql, schema, sql + n + 8);
            }
            if (name != NULL && kinds[i][0] == 'V' && (fake = fake_schema(sqlite3_context_db_handle(context), schema, name)) != NULL) {
                z = z == NULL ? sqlite3_mprintf("%s\n/* %s */", sql, fake) : sqlite3_mprintf("%z\n/* %s */", z, fake);
                sqlite3_free(fake);
            }
            if (z != NULL) {
                sqlite3_result_text(context, z, -1, sqlite3_free);
                return;
            }
        }
    }
    sqlite3_result_value(context, argv[0]);
}

/** shell_module_schema(NAME): the fake schema name(col,...) inside a C comment, for a table
 *  with columns; NULL otherwise. */
static void shell_module_schema(sqlite3_context *context, int argc, sqlite3_value **argv) {
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    char *fake = name ? fake_schema(sqlite3_context_db_handle(context), NULL, name) : NULL;
    (void)argc;
    if (fake != NULL) {
        sqlite3_result_text(context, sqlite3_mprintf("/* %s */", fake), -1, sqlite3_free);
        sqlite3_free(fake);
    }
}

/** shell_putsnl(X): returns X read as text first, as the shell does (so a blob comes back as
 *  text). The shell also prints X and a newline to its output; dbgen prints nothing. */
static void shell_putsnl(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)sqlite3_value_text(argv[0]);
    sqlite3_result_value(context, argv[0]);
}

/** A replacement for a control character that does not occur in `text`: `plain` ("\n"),
 *  else `octal` ("\012"), else "(\nN)" for the first N not found. `buffer` holds the last. */
static const char *unused_marker(const char *text, const char *plain, const char *octal, char buffer[20]) {
    unsigned i = 0;
    if (strstr(text, plain) == NULL) return plain;
    if (strstr(text, octal) == NULL) return octal;
    do {
        sqlite3_snprintf(20, buffer, "(%s%u)", plain, i++);
    } while (strstr(text, buffer) != NULL);
    return buffer;
}

/** Builds replace(replace('..\n..\r..','\n',char(10)),'\r',char(13)) around `text`, with the
 *  markers standing in for the newlines and carriage returns. */
static char *escape_crnl_text(const char *text, const char *nl, const char *cr) {
    sqlite3_str *out = sqlite3_str_new(NULL);
    sqlite3_str_appendall(out, nl && cr ? "replace(replace(" : "replace(");
    for (const char *p = text; *p; p++) {
        if (*p == '\n') sqlite3_str_appendall(out, nl);
        else if (*p == '\r') sqlite3_str_appendall(out, cr);
        else sqlite3_str_appendchar(out, 1, *p);
    }
    if (nl) sqlite3_str_appendf(out, ",'%s', char(10))", nl);
    if (cr) sqlite3_str_appendf(out, ",'%s', char(13))", cr);
    return sqlite3_str_finish(out);
}

/** shell_escape_crnl(X): a quoted SQL literal (text starting with ') containing newlines or
 *  carriage returns becomes a replace() expression without them; anything else is returned. */
static void shell_escape_crnl(sqlite3_context *context, int argc, sqlite3_value **argv) {
    const char *text = (const char *)sqlite3_value_text(argv[0]);
    char nl_buffer[20], cr_buffer[20];
    const char *nl = NULL, *cr = NULL;
    (void)argc;
    if (text != NULL && text[0] == '\'') {
        for (const char *p = text; *p; p++) {
            if (nl == NULL && *p == '\n') nl = unused_marker(text, "\\n", "\\012", nl_buffer);
            if (cr == NULL && *p == '\r') cr = unused_marker(text, "\\r", "\\015", cr_buffer);
        }
        if (nl || cr) {
            char *z = escape_crnl_text(text, nl, cr);
            if (z == NULL) sqlite3_result_error_nomem(context);
            else sqlite3_result_text(context, z, -1, sqlite3_free);
            return;
        }
    }
    sqlite3_result_value(context, argv[0]);
}

/** shell_int32(BLOB, I): the I-th big-endian unsigned 32-bit word of BLOB, or NULL if out of range. */
static void shell_int32(sqlite3_context *context, int argc, sqlite3_value **argv) {
    int n = sqlite3_value_bytes(argv[0]);
    const unsigned char *blob = sqlite3_value_blob(argv[0]);
    int index = sqlite3_value_int(argv[1]);
    (void)argc;
    if (index >= 0 && ((sqlite3_int64)index + 1) * 4 <= n) {
        const unsigned char *a = blob + (sqlite3_int64)index * 4;
        sqlite3_result_int64(context, ((sqlite3_int64)a[0] << 24) | (a[1] << 16) | (a[2] << 8) | a[3]);
    }
}

/** shell_idquote(X): X as a double-quoted identifier ("" for inner quotes); NULL for NULL. */
static void shell_idquote(sqlite3_context *context, int argc, sqlite3_value **argv) {
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    (void)argc;
    if (name != NULL) sqlite3_result_text(context, sqlite3_mprintf("\"%w\"", name), -1, sqlite3_free);
}

/** Registers the six helpers with the shell's flags (UTF-8 only: neither deterministic nor innocuous). */
int shipyard_register_shell_helpers(sqlite3 *db) {
    static const struct {
        const char *name;
        int argc;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } helpers[] = {
        {"shell_add_schema", 3, shell_add_schema}, {"shell_module_schema", 1, shell_module_schema},
        {"shell_putsnl", 1, shell_putsnl},         {"shell_escape_crnl", 1, shell_escape_crnl},
        {"shell_int32", 2, shell_int32},           {"shell_idquote", 1, shell_idquote},
    };
    int rc = SQLITE_OK;
    for (size_t i = 0; i < sizeof(helpers) / sizeof(helpers[0]) && rc == SQLITE_OK; i++) {
        rc = sqlite3_create_function(db, helpers[i].name, helpers[i].argc, SQLITE_UTF8, NULL, helpers[i].fn, NULL, NULL);
    }
    return rc;
}
