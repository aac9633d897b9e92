#include "file_extensions_internal.h"

#include <stdarg.h>
#include <string.h>

/*
 * The zipfile virtual table, read-only: `SELECT * FROM zipfile(FILE_OR_BLOB)` or a table
 * created with `USING zipfile('archive.zip')` lists an archive's entries with the shell's
 * columns and values. Writes through it are refused before anything is opened for writing.
 * zipfile_cds(z) (z being the hidden column) describes the current central-directory record.
 */

enum { ZIP_NAME, ZIP_MODE, ZIP_MTIME, ZIP_SZ, ZIP_RAWDATA, ZIP_DATA, ZIP_METHOD, ZIP_Z };

typedef struct zipfile_cursor zipfile_cursor;

/** The table: its archive name when created with one, and its open cursors. */
typedef struct zipfile_table {
    sqlite3_vtab base;
    shipyard_shell_environment *environment;
    char *file;                 /* dequoted constructor argument, or NULL */
    zipfile_cursor *cursors;    /* for zipfile_cds(), which names a cursor by id */
    sqlite3_int64 last_cursor_id;
} zipfile_table;

/** A scan over one archive's central directory, one record at a time. */
struct zipfile_cursor {
    sqlite3_vtab_cursor base;
    sqlite3_int64 id;
    int eof;
    zip_source source;
    zip_eocd eocd;
    int from_blob;              /* a BLOB stops after eocd.entry_count records, a file at the directory's end */
    int index;
    sqlite3_int64 next_offset;
    zip_entry *current;
    zipfile_cursor *next_cursor;
};

/** Replaces the table's error message with a printf-style one. */
static void zipfile_error(sqlite3_vtab *table, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    sqlite3_free(table->zErrMsg);
    table->zErrMsg = sqlite3_vmprintf(format, arguments);
    va_end(arguments);
}

/** Removes SQL quotes ('', "", ``, []) from a constructor argument in place. */
static void dequote(char *text) {
    char quote = text[0];
    if (quote != '"' && quote != '\'' && quote != '`' && quote != '[') return;
    if (quote == '[') quote = ']';
    int in = 1, out = 0;
    while (text[in]) {
        char c = text[in++];
        if (c == quote) {
            if (text[in] != quote) break;
            in++;
        }
        text[out++] = c;
    }
    text[out] = '\0';
}

/** xCreate and xConnect: a table not named zipfile needs the archive argument. */
static int zipfile_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                           sqlite3_vtab **table_out, char **error) {
    if ((sqlite3_stricmp(argv[2], "zipfile") != 0 && argc < 4) || argc > 4) {
        *error = sqlite3_mprintf("zipfile constructor requires one argument");
        return SQLITE_ERROR;
    }
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE y(name PRIMARY KEY,mode,mtime,sz,rawdata,data,method,"
                                      "z HIDDEN) WITHOUT ROWID;");
    if (rc != SQLITE_OK) return rc;
    zipfile_table *table = sqlite3_malloc(sizeof(*table));
    if (table == NULL) return SQLITE_NOMEM;
    memset(table, 0, sizeof(*table));
    table->environment = aux;
    if (argc > 3) {
        table->file = sqlite3_mprintf("%s", argv[3]);
        if (table->file == NULL) {
            sqlite3_free(table);
            return SQLITE_NOMEM;
        }
        dequote(table->file);
    }
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    *table_out = &table->base;
    return SQLITE_OK;
}

/** xDisconnect and xDestroy (nothing on disk belongs to the table). */
static int zipfile_disconnect(sqlite3_vtab *base) {
    zipfile_table *table = (zipfile_table *)base;
    sqlite3_free(table->file);
    sqlite3_free(table);
    return SQLITE_OK;
}

/** xOpen: numbers the cursor and links it into the table's list. */
static int zipfile_open(sqlite3_vtab *base, sqlite3_vtab_cursor **cursor_out) {
    zipfile_table *table = (zipfile_table *)base;
    zipfile_cursor *cursor = sqlite3_malloc(sizeof(*cursor));
    if (cursor == NULL) return SQLITE_NOMEM;
    memset(cursor, 0, sizeof(*cursor));
    cursor->id = ++table->last_cursor_id;
    cursor->next_cursor = table->cursors;
    table->cursors = cursor;
    *cursor_out = &cursor->base;
    return SQLITE_OK;
}

/** Closes the archive and forgets the current record. */
static void zipfile_reset(zipfile_cursor *cursor) {
    if (cursor->source.file) fclose(cursor->source.file);
    sqlite3_free(cursor->source.blob);
    memset(&cursor->source, 0, sizeof(cursor->source));
    zip_entry_free(cursor->current);
    cursor->current = NULL;
    cursor->eof = 0;
    cursor->index = 0;
    cursor->from_blob = 0;
}

/** xClose: unlinks the cursor from its table. */
static int zipfile_close(sqlite3_vtab_cursor *base) {
    zipfile_cursor *cursor = (zipfile_cursor *)base;
    zipfile_table *table = (zipfile_table *)base->pVtab;
    zipfile_reset(cursor);
    zipfile_cursor **link = &table->cursors;
    while (*link != cursor) link = &(*link)->next_cursor;
    *link = cursor->next_cursor;
    sqlite3_free(cursor);
    return SQLITE_OK;
}

/** xNext: decodes the next central-directory record, or reaches the end. */
static int zipfile_next(sqlite3_vtab_cursor *base) {
    zipfile_cursor *cursor = (zipfile_cursor *)base;
    zip_entry_free(cursor->current);
    cursor->current = NULL;
    /* The shell adds these two 32-bit fields in 32 bits: a wrapped sum ends the scan early. */
    sqlite3_int64 end = (uint32_t)(cursor->eocd.directory_offset + cursor->eocd.directory_size);
    if (cursor->from_blob ? cursor->index >= cursor->eocd.entry_count : cursor->next_offset >= end) {
        cursor->eof = 1;
        return SQLITE_OK;
    }
    zip_entry *entry = NULL;
    int rc = zip_read_entry(&cursor->source, cursor->next_offset, &entry, &base->pVtab->zErrMsg);
    if (rc != SQLITE_OK) return rc;
    cursor->current = entry;
    cursor->index++;
    cursor->next_offset += ZIP_CDS_FIXED_SIZE + entry->name_length + entry->extra_length + entry->comment_length;
    return SQLITE_OK;
}

/** Opens the archive file `path` (as written; resolved against the base directory). */
static int zipfile_open_file(zipfile_cursor *cursor, const char *path) {
    zipfile_table *table = (zipfile_table *)cursor->base.pVtab;
    char *resolved = path ? shipyard_file_resolve(table->environment, path) : NULL;
    if (path && resolved == NULL) return SQLITE_NOMEM;
    cursor->source.file = resolved ? fopen(resolved, "rb") : NULL;
    if (cursor->source.file == NULL) {
        sqlite3_free(resolved);
        zipfile_error(&table->base, "cannot open file: %s", path);
        return SQLITE_ERROR;
    }
    shipyard_file_record(table->environment, resolved);
    sqlite3_free(resolved);
    fseek(cursor->source.file, 0, SEEK_END);
    cursor->source.size = ftell(cursor->source.file);
    return SQLITE_OK;
}

/** Takes a private copy of an archive given as a BLOB. */
static int zipfile_open_blob(zipfile_cursor *cursor, sqlite3_value *value) {
    int size = sqlite3_value_bytes(value);
    const void *bytes = sqlite3_value_blob(value);
    cursor->source.blob = sqlite3_malloc(size > 0 ? size : 1);
    if (cursor->source.blob == NULL) return SQLITE_NOMEM;
    if (size > 0) memcpy(cursor->source.blob, bytes, (size_t)size);
    cursor->source.size = size;
    cursor->from_blob = 1;
    return SQLITE_OK;
}

/** xFilter: opens the table's archive, or the argument (a file name or a BLOB). */
static int zipfile_filter(sqlite3_vtab_cursor *base, int plan, const char *plan_text,
                          int argc, sqlite3_value **argv) {
    (void)plan_text; (void)argc;
    zipfile_cursor *cursor = (zipfile_cursor *)base;
    zipfile_table *table = (zipfile_table *)base->pVtab;
    zipfile_reset(cursor);
    int rc;
    if (table->file) {
        rc = zipfile_open_file(cursor, table->file);
    } else if (plan == 0) {
        zipfile_error(&table->base, "zipfile() function requires an argument");
        return SQLITE_ERROR;
    } else if (sqlite3_value_type(argv[0]) == SQLITE_BLOB) {
        rc = zipfile_open_blob(cursor, argv[0]);
    } else {
        rc = zipfile_open_file(cursor, (const char *)sqlite3_value_text(argv[0]));
    }
    if (rc == SQLITE_OK) rc = zip_read_eocd(&cursor->source, &cursor->eocd, &table->base.zErrMsg);
    if (rc != SQLITE_OK) return rc;
    if (cursor->eocd.entry_count == 0) {
        cursor->eof = 1;
        return SQLITE_OK;
    }
    cursor->next_offset = cursor->eocd.directory_offset;
    return zipfile_next(base);
}

/** The rawdata or data column of the current entry. */
static int zipfile_data(zipfile_cursor *cursor, sqlite3_context *ctx, int raw) {
    zip_entry *entry = cursor->current;
    if (!raw && entry->method != 0 && entry->method != 8) return SQLITE_OK;
    int final_size = (int)entry->uncompressed_size; /* an int in the shell: sizes from 2 GiB count as empty */
    if (final_size <= 0) {
        /* A directory (by mode or trailing '/') has NULL data; an empty file has an empty BLOB. */
        uint32_t mode = entry->external_attributes >> 16;
        size_t stored = strlen(entry->name); /* shorter than name_length when the name holds a NUL */
        int slash = entry->name_length > 0 && entry->name_length <= stored && entry->name[entry->name_length - 1] == '/';
        if (!(mode & 0040000) && !slash) sqlite3_result_blob(ctx, "", 0, SQLITE_STATIC);
        return SQLITE_OK;
    }
    int size = (int)entry->compressed_size;
    /* The shell allocates exactly `size` bytes (an int): 0 or a negative size fails as out of memory. */
    unsigned char *buffer = size > 0 ? sqlite3_malloc(size) : NULL;
    if (buffer == NULL) return SQLITE_NOMEM;
    int rc = zip_source_read(&cursor->source, entry->data_offset, size, buffer, &cursor->base.pVtab->zErrMsg);
    if (rc == SQLITE_OK) {
        if (!raw && entry->method != 0) zip_inflate_result(ctx, buffer, size, final_size);
        else sqlite3_result_blob(ctx, buffer, size, SQLITE_TRANSIENT);
    }
    sqlite3_free(buffer);
    return rc;
}

/** xColumn. */
static int zipfile_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int column) {
    zipfile_cursor *cursor = (zipfile_cursor *)base;
    zip_entry *entry = cursor->current;
    switch (column) {
    case ZIP_NAME: sqlite3_result_text(ctx, entry->name, -1, SQLITE_TRANSIENT); break;
    case ZIP_MODE: sqlite3_result_int(ctx, (int)(entry->external_attributes >> 16)); break;
    case ZIP_MTIME: sqlite3_result_int64(ctx, entry->unix_mtime); break;
    case ZIP_SZ: sqlite3_result_int64(ctx, entry->uncompressed_size); break;
    case ZIP_RAWDATA: return zipfile_data(cursor, ctx, 1);
    case ZIP_DATA: return zipfile_data(cursor, ctx, 0);
    case ZIP_METHOD: sqlite3_result_int(ctx, entry->method); break;
    default: sqlite3_result_int64(ctx, cursor->id); break;
    }
    return SQLITE_OK;
}

/** xEof. */
static int zipfile_eof(sqlite3_vtab_cursor *base) {
    return ((zipfile_cursor *)base)->eof;
}

/** xBestIndex: the hidden z column, when constrained by equality, is the archive argument. */
static int zipfile_best_index(sqlite3_vtab *table, sqlite3_index_info *info) {
    (void)table;
    int index = -1, unusable = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *constraint = &info->aConstraint[i];
        if (constraint->iColumn != ZIP_Z) continue;
        if (!constraint->usable) unusable = 1;
        else if (constraint->op == SQLITE_INDEX_CONSTRAINT_EQ) index = i;
    }
    info->estimatedCost = 1000.0;
    if (index >= 0) {
        info->aConstraintUsage[index].argvIndex = 1;
        info->aConstraintUsage[index].omit = 1;
        info->idxNum = 1;
    } else if (unusable) {
        return SQLITE_CONSTRAINT;
    }
    return SQLITE_OK;
}

/** xUpdate: every INSERT, UPDATE and DELETE is refused; nothing is written. */
static int zipfile_update(sqlite3_vtab *table, int argc, sqlite3_value **argv, sqlite3_int64 *rowid) {
    (void)argc; (void)argv; (void)rowid;
    zipfile_error(table, "writing through the zipfile table is refused: dbgen writes nothing outside the database it builds");
    return SQLITE_READONLY;
}

/** xBegin: a statement that would write through the table is refused before it starts,
 *  even when it would change no row. */
static int zipfile_begin(sqlite3_vtab *table) {
    return zipfile_update(table, 0, NULL, NULL);
}

/** zipfile_cds(z): the current central-directory record of cursor z, as the shell's JSON. */
static void zipfile_cds_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    zipfile_table *table = sqlite3_user_data(ctx);
    sqlite3_int64 id = sqlite3_value_int64(argv[0]);
    zipfile_cursor *cursor = table->cursors;
    while (cursor && cursor->id != id) cursor = cursor->next_cursor;
    if (cursor == NULL || cursor->current == NULL) return;
    zip_entry *e = cursor->current;
    char *json = sqlite3_mprintf(
        "{\"version-made-by\" : %u, \"version-to-extract\" : %u, \"flags\" : %u, \"compression\" : %u, "
        "\"time\" : %u, \"date\" : %u, \"crc32\" : %u, \"compressed-size\" : %u, \"uncompressed-size\" : %u, "
        "\"file-name-length\" : %u, \"extra-field-length\" : %u, \"file-comment-length\" : %u, "
        "\"disk-number-start\" : %u, \"internal-attr\" : %u, \"external-attr\" : %u, \"offset\" : %u }",
        (unsigned)e->version_made_by, (unsigned)e->version_extract, (unsigned)e->flags, (unsigned)e->method,
        (unsigned)e->dos_time, (unsigned)e->dos_date, (unsigned)e->crc32, (unsigned)e->compressed_size,
        (unsigned)e->uncompressed_size, (unsigned)e->name_length, (unsigned)e->extra_length,
        (unsigned)e->comment_length, (unsigned)e->disk_start, (unsigned)e->internal_attributes,
        (unsigned)e->external_attributes, (unsigned)e->local_header_offset);
    if (json == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, json, -1, sqlite3_free);
}

/** xFindFunction: binds zipfile_cds() to this table. */
static int zipfile_find_function(sqlite3_vtab *table, int argc, const char *name,
                                 void (**function)(sqlite3_context *, int, sqlite3_value **), void **user_data) {
    (void)argc;
    if (sqlite3_stricmp(name, "zipfile_cds") != 0) return 0;
    *function = zipfile_cds_function;
    *user_data = table;
    return 1;
}

static sqlite3_module zipfile_module = {
    .iVersion = 1,
    .xCreate = zipfile_connect,
    .xConnect = zipfile_connect,
    .xBestIndex = zipfile_best_index,
    .xDisconnect = zipfile_disconnect,
    .xDestroy = zipfile_disconnect,
    .xOpen = zipfile_open,
    .xClose = zipfile_close,
    .xFilter = zipfile_filter,
    .xNext = zipfile_next,
    .xEof = zipfile_eof,
    .xColumn = zipfile_column,
    .xUpdate = zipfile_update,
    .xBegin = zipfile_begin,
    .xFindFunction = zipfile_find_function,
};

/** Registers the zipfile module and the zipfile_cds() placeholder the table overloads. */
int shipyard_register_zipfile_table(sqlite3 *db, shipyard_shell_environment *environment) {
    int rc = sqlite3_create_module(db, "zipfile", &zipfile_module, environment);
    if (rc == SQLITE_OK) rc = sqlite3_overload_function(db, "zipfile_cds", -1);
    return rc;
}
