#include "file_extensions_internal.h"

#include <zlib.h>

/*
 * sqlar_compress(X) and sqlar_uncompress(X, SZ): the zlib-format (compress()) content
 * encoding of SQLite archives, with the shell's rules for when data is left as it is.
 */

/** sqlar_compress(X): a BLOB X compressed with zlib's compress() when that makes it
 *  smaller; otherwise (and for any other type) X unchanged. */
static void sqlar_compress_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    const Bytef *data = sqlite3_value_blob(argv[0]);
    uLong size = (uLong)sqlite3_value_bytes(argv[0]);
    uLongf out_size = compressBound(size);
    Bytef *out = sqlite3_malloc64(out_size);
    if (out == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (compress(out, &out_size, data, size) != Z_OK) {
        sqlite3_result_error(ctx, "error in compress()", -1);
    } else if (out_size < size) {
        sqlite3_result_blob(ctx, out, (int)out_size, SQLITE_TRANSIENT);
    } else {
        sqlite3_result_value(ctx, argv[0]);
    }
    sqlite3_free(out);
}

/** sqlar_uncompress(X, SZ): X itself when SZ (as a 32-bit integer) is 0 or X's size;
 *  otherwise X uncompressed with zlib's uncompress() into at most SZ bytes (a negative
 *  SZ fails as in the shell). */
static void sqlar_uncompress_function(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    int size = sqlite3_value_int(argv[1]);
    int data_size = sqlite3_value_bytes(argv[0]);
    if (size == 0 || size == data_size) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    if (size < 0) {
        sqlite3_result_error(ctx, "error in uncompress()", -1);
        return;
    }
    uLongf out_size = (uLongf)size;
    const Bytef *data = sqlite3_value_blob(argv[0]);
    Bytef *out = sqlite3_malloc(size);
    if (out == NULL) {
        sqlite3_result_error_nomem(ctx);
    } else if (uncompress(out, &out_size, data, (uLong)data_size) != Z_OK) {
        sqlite3_result_error(ctx, "error in uncompress()", -1);
    } else {
        sqlite3_result_blob(ctx, out, (int)out_size, SQLITE_TRANSIENT);
    }
    sqlite3_free(out);
}

/** Registers sqlar_compress and sqlar_uncompress (innocuous, as in the shell). */
int shipyard_register_sqlar(sqlite3 *db) {
    int rc = sqlite3_create_function(db, "sqlar_compress", 1, SQLITE_UTF8 | SQLITE_INNOCUOUS, NULL,
                                     sqlar_compress_function, NULL, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_create_function(db, "sqlar_uncompress", 2, SQLITE_UTF8 | SQLITE_INNOCUOUS, NULL,
                                     sqlar_uncompress_function, NULL, NULL);
    }
    return rc;
}
