#include "file_extensions_internal.h"

#include <string.h>
#include <zlib.h>

/*
 * The zipfile() aggregate: zipfile(NAME, DATA) or zipfile(NAME, MODE, MTIME, DATA [, METHOD])
 * builds a whole zip archive in memory and returns it as a BLOB, byte for byte as the shell
 * builds it (same headers, extended-timestamp field, level-9 raw deflate). It writes no file.
 */

#define ZIP_MADE_BY ((3 << 8) + 30)   /* unix, spec 3.0 */
#define ZIP_VERSION_NEEDED 20
#define ZIP_FLAGS_UTF8 0x800
#define ZIP_S_IFDIR 0040000u
#define ZIP_S_IFREG 0100000u
#define ZIP_S_IFLNK 0120000u

/** A growable byte buffer. */
typedef struct zip_buffer {
    unsigned char *bytes;
    int used;
    int allocated;
} zip_buffer;

/** The aggregate's state: local headers and data so far, and the central directory. */
typedef struct zip_builder {
    int entry_count;
    zip_buffer body;
    zip_buffer directory;
} zip_builder;

/** One entry being added, after its arguments are checked. */
typedef struct zip_new_entry {
    const char *name;
    int name_length;
    uint32_t mode, mtime, crc32;
    int method;
    const unsigned char *data;     /* stored or deflated bytes */
    int data_size, uncompressed_size;
} zip_new_entry;

/** Makes room for `more` bytes in `buffer`. */
static int buffer_reserve(zip_buffer *buffer, int more) {
    if (buffer->used + more <= buffer->allocated) return SQLITE_OK;
    sqlite3_int64 size = buffer->used ? (sqlite3_int64)buffer->used * 2 : 512;
    while (size < (sqlite3_int64)buffer->used + more) size *= 2;
    unsigned char *grown = sqlite3_realloc64(buffer->bytes, (sqlite3_uint64)size);
    if (grown == NULL) return SQLITE_NOMEM;
    buffer->bytes = grown;
    buffer->allocated = (int)size;
    return SQLITE_OK;
}

/** Writes the header fields common to local and central records, from "method" to "name length". */
static unsigned char *put_common(unsigned char *p, const zip_new_entry *e) {
    uint16_t dos_time, dos_date;
    zip_unix_to_dos(e->mtime, &dos_time, &dos_date);
    zip_put16(p, ZIP_FLAGS_UTF8);
    zip_put16(p + 2, (uint16_t)e->method);
    zip_put16(p + 4, dos_time);
    zip_put16(p + 6, dos_date);
    zip_put32(p + 8, e->crc32);
    zip_put32(p + 12, (uint32_t)e->data_size);
    zip_put32(p + 16, (uint32_t)e->uncompressed_size);
    zip_put16(p + 20, (uint16_t)e->name_length);
    zip_put16(p + 22, 9);
    return p + 24;
}

/** Writes the name and the 9-byte extended-timestamp field. */
static unsigned char *put_name_and_extra(unsigned char *p, const zip_new_entry *e) {
    memcpy(p, e->name, (size_t)(uint16_t)e->name_length);
    p += (uint16_t)e->name_length;
    zip_put16(p, ZIP_EXTRA_TIMESTAMP);
    zip_put16(p + 2, 5);
    p[4] = 0x01;
    zip_put32(p + 5, e->mtime);
    return p + 9;
}

/** Appends the local header, the data and the central-directory record of `e`. */
static int builder_append(zip_builder *builder, const zip_new_entry *e) {
    int name_length = (uint16_t)e->name_length;
    int rc = buffer_reserve(&builder->body, ZIP_LFH_FIXED_SIZE + name_length + 9 + e->data_size);
    if (rc == SQLITE_OK) rc = buffer_reserve(&builder->directory, ZIP_CDS_FIXED_SIZE + name_length + 9);
    if (rc != SQLITE_OK) return rc;
    uint32_t offset = (uint32_t)builder->body.used;
    unsigned char *p = builder->body.bytes + builder->body.used;
    zip_put32(p, ZIP_SIGNATURE_LFH);
    zip_put16(p + 4, ZIP_VERSION_NEEDED);
    p = put_name_and_extra(put_common(p + 6, e), e);
    if (e->data_size > 0) memcpy(p, e->data, (size_t)e->data_size);
    builder->body.used = (int)(p + e->data_size - builder->body.bytes);
    p = builder->directory.bytes + builder->directory.used;
    zip_put32(p, ZIP_SIGNATURE_CDS);
    zip_put16(p + 4, ZIP_MADE_BY);
    zip_put16(p + 6, ZIP_VERSION_NEEDED);
    p = put_common(p + 8, e);
    zip_put16(p, 0);                 /* comment length */
    zip_put16(p + 2, 0);             /* disk number */
    zip_put16(p + 4, 0);             /* internal attributes */
    zip_put32(p + 6, e->mode << 16); /* external attributes */
    zip_put32(p + 10, offset);
    p = put_name_and_extra(p + 14, e);
    builder->directory.used = (int)(p - builder->directory.bytes);
    builder->entry_count++;
    return SQLITE_OK;
}

/** Decodes MODE: NULL gives a default, digits an integer, else "drwxr-xr-x" text. */
static int parse_mode(sqlite3_value *value, int is_directory, uint32_t *mode_out, char **error) {
    const char *text = value ? (const char *)sqlite3_value_text(value) : NULL;
    uint32_t mode = 0;
    if (text == NULL) {
        mode = is_directory ? (ZIP_S_IFDIR + 0755) : (ZIP_S_IFREG + 0644);
    } else if (text[0] >= '0' && text[0] <= '9') {
        mode = (uint32_t)sqlite3_value_int(value);
    } else {
        static const char letters[] = "-rwxrwxrwx";
        int ok = strlen(text) == 10;
        if (ok && text[0] == '-') mode = ZIP_S_IFREG;
        else if (ok && text[0] == 'd') mode = ZIP_S_IFDIR;
        else if (ok && text[0] == 'l') mode = ZIP_S_IFLNK;
        else ok = 0;
        for (int i = 1; ok && i < 10; i++) {
            if (text[i] == letters[i]) mode |= 1u << (9 - i);
            else if (text[i] != '-') ok = 0;
        }
        if (!ok) {
            *error = sqlite3_mprintf("zipfile: parse error in mode: %s", text);
            return SQLITE_ERROR;
        }
    }
    if (((mode & ZIP_S_IFDIR) == 0) == is_directory) {
        *error = sqlite3_mprintf("zipfile: mode does not match data");
        return SQLITE_CONSTRAINT;
    }
    *mode_out = mode;
    return SQLITE_OK;
}

/** Chooses stored or deflated bytes for DATA (METHOD NULL: deflate only when smaller). */
static int prepare_data(zip_new_entry *e, sqlite3_value *data, int method, unsigned char **deflated, char **error) {
    e->data = sqlite3_value_blob(data);
    e->data_size = e->uncompressed_size = sqlite3_value_bytes(data);
    e->crc32 = (uint32_t)crc32(0, e->data, (uInt)e->data_size);
    e->method = 0;
    if (method == 0) return SQLITE_OK;
    int size = 0;
    int rc = zip_deflate(e->data, e->data_size, deflated, &size, error);
    if (rc != SQLITE_OK) return rc;
    if (method == 8 || size < e->data_size) {
        e->data = *deflated;
        e->data_size = size;
        e->method = 8;
    }
    return SQLITE_OK;
}

/** Checks NAME against the entry's kind: a directory ends in exactly one '/', a file in none. */
static int prepare_name(zip_new_entry *e, sqlite3_value *name, int is_directory, char **copy, char **error) {
    e->name = (const char *)sqlite3_value_text(name);
    e->name_length = sqlite3_value_bytes(name);
    int n = e->name_length;
    if (!is_directory) {
        if (n > 0 && e->name[n - 1] == '/') {
            *error = sqlite3_mprintf("non-directory name must not end with /");
            return SQLITE_ERROR;
        }
    } else if (n == 0 || e->name[n - 1] != '/') {
        *copy = sqlite3_mprintf("%s/", e->name);
        if (*copy == NULL) return SQLITE_NOMEM;
        e->name = *copy;
        e->name_length = (int)strlen(*copy);
    } else {
        while (e->name_length > 1 && e->name[e->name_length - 2] == '/') e->name_length--;
    }
    return SQLITE_OK;
}

/** Checks the arguments and fills `e` (method -1 means choose). */
static int prepare_entry(zip_new_entry *e, int argc, sqlite3_value **argv, unsigned char **deflated,
                         char **name_copy, char **error) {
    if (argc != 2 && argc != 4 && argc != 5) {
        *error = sqlite3_mprintf("wrong number of arguments to function zipfile()");
        return SQLITE_ERROR;
    }
    sqlite3_value *data = argc == 2 ? argv[1] : argv[3];
    if (sqlite3_value_text(argv[0]) == NULL) {
        *error = sqlite3_mprintf("first argument to zipfile() must be non-NULL");
        return SQLITE_ERROR;
    }
    int method = -1;
    if (argc == 5 && sqlite3_value_type(argv[4]) != SQLITE_NULL) {
        method = (int)sqlite3_value_int64(argv[4]);
        if (method != 0 && method != 8) {
            *error = sqlite3_mprintf("illegal method value: %d", method);
            return SQLITE_ERROR;
        }
    }
    int is_directory = sqlite3_value_type(data) == SQLITE_NULL;
    int rc = is_directory ? SQLITE_OK : prepare_data(e, data, method, deflated, error);
    if (rc == SQLITE_OK) rc = parse_mode(argc == 2 ? NULL : argv[1], is_directory, &e->mode, error);
    if (rc != SQLITE_OK) return rc;
    sqlite3_value *mtime = argc == 2 ? NULL : argv[2];
    e->mtime = (mtime == NULL || sqlite3_value_type(mtime) == SQLITE_NULL)
        ? zip_current_time() : (uint32_t)sqlite3_value_int64(mtime);
    return prepare_name(e, argv[0], is_directory, name_copy, error);
}

/** xStep: adds one entry. */
static void zipfile_step(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    zip_builder *builder = sqlite3_aggregate_context(ctx, sizeof(zip_builder));
    if (builder == NULL) return;
    zip_new_entry entry;
    memset(&entry, 0, sizeof(entry));
    unsigned char *deflated = NULL;
    char *name_copy = NULL, *error = NULL;
    int rc = prepare_entry(&entry, argc, argv, &deflated, &name_copy, &error);
    if (rc == SQLITE_OK) rc = builder_append(builder, &entry);
    if (rc != SQLITE_OK) {
        if (error) sqlite3_result_error(ctx, error, -1);
        else sqlite3_result_error_code(ctx, rc);
    }
    sqlite3_free(error);
    sqlite3_free(deflated);
    sqlite3_free(name_copy);
}

/** xFinal: the archive (body, directory, end record), or NULL when no row was added. */
static void zipfile_final(sqlite3_context *ctx) {
    zip_builder *builder = sqlite3_aggregate_context(ctx, sizeof(zip_builder));
    if (builder == NULL) return;
    if (builder->entry_count > 0) {
        sqlite3_int64 size = (sqlite3_int64)builder->body.used + builder->directory.used + ZIP_EOCD_FIXED_SIZE;
        unsigned char *archive = sqlite3_malloc64((sqlite3_uint64)size);
        if (archive == NULL) {
            sqlite3_result_error_nomem(ctx);
        } else {
            memcpy(archive, builder->body.bytes, (size_t)builder->body.used);
            memcpy(archive + builder->body.used, builder->directory.bytes, (size_t)builder->directory.used);
            unsigned char *end = archive + builder->body.used + builder->directory.used;
            memset(end, 0, ZIP_EOCD_FIXED_SIZE);
            zip_put32(end, ZIP_SIGNATURE_EOCD);
            zip_put16(end + 8, (uint16_t)builder->entry_count);
            zip_put16(end + 10, (uint16_t)builder->entry_count);
            zip_put32(end + 12, (uint32_t)builder->directory.used);
            zip_put32(end + 16, (uint32_t)builder->body.used);
            sqlite3_result_blob64(ctx, archive, (sqlite3_uint64)size, sqlite3_free);
        }
    }
    sqlite3_free(builder->body.bytes);
    sqlite3_free(builder->directory.bytes);
}

/** Registers zipfile() as an aggregate of any number of arguments (checked per row). */
int shipyard_register_zipfile_aggregate(sqlite3 *db) {
    return sqlite3_create_function(db, "zipfile", -1, SQLITE_UTF8, NULL, NULL, zipfile_step, zipfile_final);
}
