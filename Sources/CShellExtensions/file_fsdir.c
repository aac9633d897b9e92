#include "file_extensions_internal.h"

#include <dirent.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * fsdir(PATH [, DIR]): an eponymous table of PATH and, when it is a directory, everything
 * beneath it, in readdir() order, depth first, with the shell's columns name, mode, mtime
 * and data. Names are the paths as written (DIR/PATH, shown without the DIR/ prefix);
 * relative ones are resolved against the host's base directory only to touch the disk.
 */

enum { FSDIR_NAME, FSDIR_MODE, FSDIR_MTIME, FSDIR_DATA, FSDIR_PATH, FSDIR_DIR };

/** The table: only the environment, for resolving paths and recording inputs. */
typedef struct fsdir_table {
    sqlite3_vtab base;
    shipyard_shell_environment *environment;
} fsdir_table;

/** One directory being listed: its stream and its path as written. */
typedef struct fsdir_level {
    DIR *stream;
    char *path;
} fsdir_level;

/** A scan: the stack of open directories and the current entry. */
typedef struct fsdir_cursor {
    sqlite3_vtab_cursor base;
    fsdir_level *levels;   /* levels[0..depth] are open */
    int capacity;          /* allocated entries of levels */
    int depth;             /* index of the innermost open level, -1 when none */
    int name_offset;       /* bytes of "DIR/" hidden from the name column */
    struct stat status;    /* lstat() of the current entry */
    char *path;            /* current entry as written; NULL at the end */
    sqlite3_int64 rowid;
} fsdir_cursor;

/** The environment of the table that owns `cursor`. */
static shipyard_shell_environment *cursor_environment(fsdir_cursor *cursor) {
    return ((fsdir_table *)cursor->base.pVtab)->environment;
}

/** Sets the table's error message from a printf-style format. */
static void fsdir_error(fsdir_cursor *cursor, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    sqlite3_free(cursor->base.pVtab->zErrMsg);
    cursor->base.pVtab->zErrMsg = sqlite3_vmprintf(format, arguments);
    va_end(arguments);
}

/** xConnect: declares the shell's schema (path and dir are the hidden arguments). */
static int fsdir_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                         sqlite3_vtab **table_out, char **error) {
    (void)argc; (void)argv; (void)error;
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(name,mode,mtime,data,path HIDDEN,dir HIDDEN)");
    if (rc != SQLITE_OK) return rc;
    fsdir_table *table = sqlite3_malloc(sizeof(*table));
    if (table == NULL) return SQLITE_NOMEM;
    memset(table, 0, sizeof(*table));
    table->environment = aux;
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    *table_out = &table->base;
    return SQLITE_OK;
}

/** xDisconnect. */
static int fsdir_disconnect(sqlite3_vtab *table) {
    sqlite3_free(table);
    return SQLITE_OK;
}

/** xOpen. */
static int fsdir_open(sqlite3_vtab *table, sqlite3_vtab_cursor **cursor_out) {
    (void)table;
    fsdir_cursor *cursor = sqlite3_malloc(sizeof(*cursor));
    if (cursor == NULL) return SQLITE_NOMEM;
    memset(cursor, 0, sizeof(*cursor));
    cursor->depth = -1;
    *cursor_out = &cursor->base;
    return SQLITE_OK;
}

/** Closes every open directory and forgets the current entry. */
static void fsdir_reset(fsdir_cursor *cursor) {
    for (int i = 0; i <= cursor->depth; i++) {
        if (cursor->levels[i].stream) closedir(cursor->levels[i].stream);
        sqlite3_free(cursor->levels[i].path);
    }
    sqlite3_free(cursor->levels);
    sqlite3_free(cursor->path);
    cursor->levels = NULL;
    cursor->capacity = 0;
    cursor->depth = -1;
    cursor->path = NULL;
    cursor->name_offset = 0;
    cursor->rowid = 1;
}

/** xClose. */
static int fsdir_close(sqlite3_vtab_cursor *base) {
    fsdir_cursor *cursor = (fsdir_cursor *)base;
    fsdir_reset(cursor);
    sqlite3_free(cursor);
    return SQLITE_OK;
}

/** lstat() of a path as written, resolved against the base directory. A directory or regular
 *  file is recorded as an input: its row (name, mode, mtime, a directory's entries) comes from
 *  the file system, so a file added, removed or touched changes what fsdir returns. (A symbolic
 *  link is not: its stamp would be its target's, and it is an entry of a recorded directory.) */
static int fsdir_lstat(fsdir_cursor *cursor, const char *path, struct stat *status) {
    char *resolved = shipyard_file_resolve(cursor_environment(cursor), path);
    if (resolved == NULL) return -1;
    int rc = lstat(resolved, status);
    if (rc == 0 && (S_ISDIR(status->st_mode) || S_ISREG(status->st_mode))) {
        shipyard_file_record(cursor_environment(cursor), resolved);
    }
    sqlite3_free(resolved);
    return rc;
}

/** Pushes the current entry (a directory) as a new level and opens it. */
static int fsdir_descend(fsdir_cursor *cursor) {
    int next = cursor->depth + 1;
    if (next >= cursor->capacity) {
        fsdir_level *grown = sqlite3_realloc64(cursor->levels, (sqlite3_uint64)(next + 1) * sizeof(fsdir_level));
        if (grown == NULL) return SQLITE_NOMEM;
        memset(&grown[cursor->capacity], 0, sizeof(fsdir_level) * (size_t)(next + 1 - cursor->capacity));
        cursor->levels = grown;
        cursor->capacity = next + 1;
    }
    cursor->depth = next;
    fsdir_level *level = &cursor->levels[next];
    level->path = cursor->path;
    cursor->path = NULL;
    char *resolved = shipyard_file_resolve(cursor_environment(cursor), level->path);
    level->stream = resolved ? opendir(resolved) : NULL;
    sqlite3_free(resolved);
    if (level->stream == NULL) {
        fsdir_error(cursor, "cannot read directory: %s", level->path);
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

/** xNext: descends into a directory just returned, else reads the next entry up the stack. */
static int fsdir_next(sqlite3_vtab_cursor *base) {
    fsdir_cursor *cursor = (fsdir_cursor *)base;
    cursor->rowid++;
    if (S_ISDIR(cursor->status.st_mode)) {
        int rc = fsdir_descend(cursor);
        if (rc != SQLITE_OK) return rc;
    }
    while (cursor->depth >= 0) {
        fsdir_level *level = &cursor->levels[cursor->depth];
        struct dirent *entry = readdir(level->stream);
        if (entry != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
            sqlite3_free(cursor->path);
            cursor->path = sqlite3_mprintf("%s/%s", level->path, entry->d_name);
            if (cursor->path == NULL) return SQLITE_NOMEM;
            if (fsdir_lstat(cursor, cursor->path, &cursor->status) != 0) {
                fsdir_error(cursor, "cannot stat file: %s", cursor->path);
                return SQLITE_ERROR;
            }
            return SQLITE_OK;
        }
        closedir(level->stream);
        sqlite3_free(level->path);
        level->stream = NULL;
        level->path = NULL;
        cursor->depth--;
    }
    sqlite3_free(cursor->path);
    cursor->path = NULL;
    return SQLITE_OK;
}

/** The target of the current symbolic link as TEXT. */
static int fsdir_link_text(fsdir_cursor *cursor, sqlite3_context *ctx) {
    char *resolved = shipyard_file_resolve(cursor_environment(cursor), cursor->path);
    if (resolved == NULL) return SQLITE_NOMEM;
    sqlite3_int64 size = 64;
    for (;;) {
        char *buffer = sqlite3_malloc64((sqlite3_uint64)size);
        if (buffer == NULL) {
            sqlite3_free(resolved);
            return SQLITE_NOMEM;
        }
        ssize_t n = readlink(resolved, buffer, (size_t)size);
        if (n < 0) n = 0; /* vanished since lstat(): an empty target */
        if (n < size) {
            sqlite3_result_text(ctx, buffer, (int)n, SQLITE_TRANSIENT);
            sqlite3_free(buffer);
            break;
        }
        sqlite3_free(buffer);
        size *= 2;
    }
    sqlite3_free(resolved);
    return SQLITE_OK;
}

/** xColumn: data is NULL for a directory, the link text, or the file's bytes (recorded). */
static int fsdir_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int column) {
    fsdir_cursor *cursor = (fsdir_cursor *)base;
    switch (column) {
    case FSDIR_NAME:
        sqlite3_result_text(ctx, cursor->path + cursor->name_offset, -1, SQLITE_TRANSIENT);
        break;
    case FSDIR_MODE: sqlite3_result_int64(ctx, cursor->status.st_mode); break;
    case FSDIR_MTIME: sqlite3_result_int64(ctx, cursor->status.st_mtime); break;
    case FSDIR_DATA: {
        mode_t mode = cursor->status.st_mode;
        if (S_ISDIR(mode)) break;
        if (S_ISLNK(mode)) return fsdir_link_text(cursor, ctx);
        char *resolved = shipyard_file_resolve(cursor_environment(cursor), cursor->path);
        if (resolved == NULL) return SQLITE_NOMEM;
        shipyard_file_result_contents(ctx, cursor_environment(cursor), resolved);
        sqlite3_free(resolved);
        break;
    }
    default: break; /* path and dir are arguments: NULL, as in the shell */
    }
    return SQLITE_OK;
}

/** xRowid: 1 for the first row, then consecutive. */
static int fsdir_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid) {
    *rowid = ((fsdir_cursor *)base)->rowid;
    return SQLITE_OK;
}

/** xEof. */
static int fsdir_eof(sqlite3_vtab_cursor *base) {
    return ((fsdir_cursor *)base)->path == NULL;
}

/** xFilter: idxNum 1 gives PATH, 2 gives PATH and DIR. */
static int fsdir_filter(sqlite3_vtab_cursor *base, int plan, const char *plan_text,
                        int argc, sqlite3_value **argv) {
    (void)plan_text;
    fsdir_cursor *cursor = (fsdir_cursor *)base;
    fsdir_reset(cursor);
    if (plan == 0) {
        fsdir_error(cursor, "table function fsdir requires an argument");
        return SQLITE_ERROR;
    }
    const char *path = (const char *)sqlite3_value_text(argv[0]);
    if (path == NULL) {
        fsdir_error(cursor, "table function fsdir requires a non-NULL argument");
        return SQLITE_ERROR;
    }
    const char *directory = argc == 2 ? (const char *)sqlite3_value_text(argv[1]) : NULL;
    if (directory) {
        cursor->name_offset = (int)strlen(directory) + 1;
        cursor->path = sqlite3_mprintf("%s/%s", directory, path);
    } else {
        cursor->path = sqlite3_mprintf("%s", path);
    }
    if (cursor->path == NULL) return SQLITE_NOMEM;
    if (fsdir_lstat(cursor, cursor->path, &cursor->status) != 0) {
        fsdir_error(cursor, "cannot stat file: %s", cursor->path);
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

/** xBestIndex: PATH= (and DIR=) must be usable equality constraints to be used. */
static int fsdir_best_index(sqlite3_vtab *table, sqlite3_index_info *info) {
    (void)table;
    int path_index = -1, dir_index = -1, path_unusable = 0, dir_unusable = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *constraint = &info->aConstraint[i];
        if (constraint->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (constraint->iColumn == FSDIR_PATH) {
            if (constraint->usable) { path_index = i; path_unusable = 0; }
            else if (path_index < 0) path_unusable = 1;
        } else if (constraint->iColumn == FSDIR_DIR) {
            if (constraint->usable) { dir_index = i; dir_unusable = 0; }
            else if (dir_index < 0) dir_unusable = 1;
        }
    }
    if (path_unusable || dir_unusable) return SQLITE_CONSTRAINT;
    if (path_index < 0) {
        info->idxNum = 0;
        info->estimatedRows = 0x7fffffff;
        return SQLITE_OK;
    }
    info->aConstraintUsage[path_index].omit = 1;
    info->aConstraintUsage[path_index].argvIndex = 1;
    if (dir_index >= 0) {
        info->aConstraintUsage[dir_index].omit = 1;
        info->aConstraintUsage[dir_index].argvIndex = 2;
        info->idxNum = 2;
        info->estimatedCost = 10.0;
    } else {
        info->idxNum = 1;
        info->estimatedCost = 100.0;
    }
    return SQLITE_OK;
}

static sqlite3_module fsdir_module = {
    .iVersion = 0,
    .xConnect = fsdir_connect,
    .xBestIndex = fsdir_best_index,
    .xDisconnect = fsdir_disconnect,
    .xOpen = fsdir_open,
    .xClose = fsdir_close,
    .xFilter = fsdir_filter,
    .xNext = fsdir_next,
    .xEof = fsdir_eof,
    .xColumn = fsdir_column,
    .xRowid = fsdir_rowid,
};

/** Registers the fsdir module; `environment` is every table's aux data. */
int shipyard_register_fsdir(sqlite3 *db, shipyard_shell_environment *environment) {
    return sqlite3_create_module(db, "fsdir", &fsdir_module, environment);
}
