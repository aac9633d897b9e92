#include <errno.h>
#include "file_extensions_internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/*
 * readfile(), lsmode(), usleep(), and the refusing writefile() and edit(), with the
 * shell's semantics; the path helpers shared by fsdir and zipfile live here too.
 */

/** Resolves a relative path against the base directory (see the private header). */
char *shipyard_file_resolve(const shipyard_shell_environment *environment, const char *path) {
    const char *base = environment ? environment->base_directory : NULL;
    if (path[0] == '/' || path[0] == '\0' || base == NULL || base[0] == '\0') {
        return sqlite3_mprintf("%s", path);
    }
    size_t n = strlen(base);
    const char *separator = (n > 0 && base[n - 1] == '/') ? "" : "/";
    return sqlite3_mprintf("%s%s%s", base, separator, path);
}

/** Calls the host's record_input, when it has one, with a path that was read. */
void shipyard_file_record(const shipyard_shell_environment *environment, const char *resolved_path) {
    if (environment && environment->record_input) {
        environment->record_input(environment->context, resolved_path);
    }
}

/** Reads the whole of the open file `in` (of `size` bytes) into the result of `ctx`;
 *  returns 1 when the result is the file's bytes. */
static int result_from_stream(sqlite3_context *ctx, FILE *in, long size) {
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    if (size < 0 || (sqlite3_int64)size > sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1)) {
        sqlite3_result_error_code(ctx, SQLITE_TOOBIG);
        return 0;
    }
    void *buffer = sqlite3_malloc64(size > 0 ? (sqlite3_uint64)size : 1);
    if (buffer == NULL) {
        sqlite3_result_error_nomem(ctx);
        return 0;
    }
    if (fread(buffer, 1, (size_t)size, in) != (size_t)size) {
        sqlite3_result_error_code(ctx, SQLITE_IOERR);
        sqlite3_free(buffer);
        return 0;
    }
    sqlite3_result_blob64(ctx, buffer, (sqlite3_uint64)size, sqlite3_free);
    return 1;
}

/** Sets the result to the file's bytes as the shell does, recording the file when its
 *  bytes are returned, and a missing file too (the result is then NULL; should the file
 *  appear, the host's build is out of date). A directory or an oversized file is not recorded. */
void shipyard_file_result_contents(sqlite3_context *ctx, const shipyard_shell_environment *environment,
                                   const char *resolved_path) {
    FILE *in = fopen(resolved_path, "rb");
    if (in == NULL) { /* missing or unreadable: the result stays NULL */
        if (errno == ENOENT) shipyard_file_record(environment, resolved_path);
        return;
    }
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    rewind(in);
    if (result_from_stream(ctx, in, size)) shipyard_file_record(environment, resolved_path);
    fclose(in);
}

/** readfile(PATH): the file's bytes as a BLOB, or NULL when PATH is NULL or unreadable. */
static void readfile_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    const char *path = (const char *)sqlite3_value_text(argv[0]);
    if (path == NULL) return;
    char *resolved = shipyard_file_resolve(sqlite3_user_data(ctx), path);
    if (resolved == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    shipyard_file_result_contents(ctx, sqlite3_user_data(ctx), resolved);
    sqlite3_free(resolved);
}

/** writefile(...): registered so scripts that call it fail clearly; writes nothing. */
static void writefile_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc; (void)argv;
    sqlite3_result_error(ctx, "writefile() is refused: dbgen writes nothing outside the database it builds", -1);
}

/** edit(TEXT [, EDITOR]): registered so scripts that call it fail clearly; runs nothing. */
static void edit_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc; (void)argv;
    sqlite3_result_error(ctx, "edit() is refused: dbgen does not run programs", -1);
}

/** lsmode(MODE): the ten-character `ls -l` rendering of a stat() st_mode. */
static void lsmode_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    int mode = sqlite3_value_int(argv[0]);
    char text[11];
    if (S_ISLNK(mode)) text[0] = 'l';
    else if (S_ISREG(mode)) text[0] = '-';
    else if (S_ISDIR(mode)) text[0] = 'd';
    else text[0] = '?';
    static const char letters[] = "rwx";
    for (int bit = 0; bit < 9; bit++) {
        int mask = 0400 >> bit;
        text[1 + bit] = (mode & mask) ? letters[bit % 3] : '-';
    }
    text[10] = '\0';
    sqlite3_result_text(ctx, text, -1, SQLITE_TRANSIENT);
}

/** usleep(N): sleeps N microseconds (at millisecond granularity, as the shell) and returns N. */
static void usleep_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    int microseconds = sqlite3_value_int(argv[0]);
    if (microseconds / 1000 > 0) sqlite3_sleep(microseconds / 1000);
    sqlite3_result_int(ctx, microseconds);
}

/** Registers readfile, writefile, edit (one and two arguments), lsmode and usleep. */
int shipyard_register_fileio(sqlite3 *db, shipyard_shell_environment *environment) {
    int rc = sqlite3_create_function(db, "readfile", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, environment,
                                     readfile_function, NULL, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_create_function(db, "writefile", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL,
                                     writefile_function, NULL, NULL);
    }
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "edit", 1, SQLITE_UTF8, NULL, edit_function, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "edit", 2, SQLITE_UTF8, NULL, edit_function, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "lsmode", 1, SQLITE_UTF8, NULL, lsmode_function, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "usleep", 1, SQLITE_UTF8, NULL, usleep_function, NULL, NULL);
    return rc;
}
