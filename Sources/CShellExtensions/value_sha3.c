/*
 * sha3(X[,SIZE]) and sha3_query(SQL[,SIZE]), as the sqlite3 3.40.1 shell registers them:
 * SHA3-224/256/384/512 (FIPS 202) of a value, or of the statements of an SQL script and
 * every row they return, encoded the way the shell encodes them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "value_extensions_internal.h"

/* The sponge: 1600 bits of state, the rate in bytes, and how many bytes of the current
 * block have been absorbed. */
typedef struct sha3_context {
    uint64_t lanes[25];
    unsigned rate;
    unsigned absorbed;
    unsigned digest_bytes;
} sha3_context;

static const uint64_t keccak_round_constants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* Rotation of lane x+5y in the rho step. */
static const unsigned keccak_rotations[25] = {
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
};

/** Rotates a 64-bit lane left by `n` bits (n < 64). */
static uint64_t rotate_left(uint64_t v, unsigned n) {
    return n == 0 ? v : (v << n) | (v >> (64 - n));
}

/** Keccak-f[1600]: 24 rounds of theta, rho and pi, chi, iota over the state. */
static void keccak_permute(uint64_t a[25]) {
    uint64_t b[25], c[5], d;
    for (int round = 0; round < 24; round++) {
        for (int x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (int x = 0; x < 5; x++) {
            d = c[(x + 4) % 5] ^ rotate_left(c[(x + 1) % 5], 1);
            for (int y = 0; y < 25; y += 5) a[x + y] ^= d;
        }
        for (int x = 0; x < 5; x++) {
            for (int y = 0; y < 5; y++) {
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rotate_left(a[x + 5 * y], keccak_rotations[x + 5 * y]);
            }
        }
        for (int y = 0; y < 25; y += 5) {
            for (int x = 0; x < 5; x++) a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
        }
        a[0] ^= keccak_round_constants[round];
    }
}

/** Starts a SHA3 hash whose digest is `bits` long (224, 256, 384 or 512). */
static void sha3_init(sha3_context *cx, int bits) {
    memset(cx, 0, sizeof(*cx));
    cx->digest_bytes = (unsigned)bits / 8;
    cx->rate = 200 - 2 * cx->digest_bytes;
}

/** XORs one byte into the state at the current position, permuting when a block is full. */
static void sha3_absorb_byte(sha3_context *cx, unsigned char byte) {
    cx->lanes[cx->absorbed / 8] ^= (uint64_t)byte << (8 * (cx->absorbed % 8));
    if (++cx->absorbed == cx->rate) {
        keccak_permute(cx->lanes);
        cx->absorbed = 0;
    }
}

/** Absorbs `n` bytes of input. */
static void sha3_update(sha3_context *cx, const void *data, size_t n) {
    const unsigned char *bytes = data;
    for (size_t i = 0; i < n; i++) sha3_absorb_byte(cx, bytes[i]);
}

/** Pads (SHA3 domain bits 01, then pad10*1), permutes, and writes the digest to `out`. */
static void sha3_final(sha3_context *cx, unsigned char *out) {
    cx->lanes[cx->absorbed / 8] ^= (uint64_t)0x06 << (8 * (cx->absorbed % 8));
    cx->lanes[(cx->rate - 1) / 8] ^= (uint64_t)0x80 << (8 * ((cx->rate - 1) % 8));
    keccak_permute(cx->lanes);
    for (unsigned i = 0; i < cx->digest_bytes; i++) out[i] = (unsigned char)(cx->lanes[i / 8] >> (8 * (i % 8)));
}

/** Reads the optional SIZE argument; 0 (after setting the shell's error) if it is not allowed. */
static int sha3_requested_size(sqlite3_context *context, int argc, sqlite3_value **argv) {
    int bits = argc > 1 ? sqlite3_value_int(argv[1]) : 256;
    if (bits != 224 && bits != 256 && bits != 384 && bits != 512) {
        sqlite3_result_error(context, "SHA3 size should be one of: 224 256 384 512", -1);
        return 0;
    }
    return bits;
}

/** Returns the digest of a finished context as a blob result. */
static void sha3_result(sqlite3_context *context, sha3_context *cx) {
    unsigned char digest[64];
    unsigned n = cx->digest_bytes;
    sha3_final(cx, digest);
    sqlite3_result_blob(context, digest, (int)n, SQLITE_TRANSIENT);
}

/** sha3(X[,SIZE]): the hash of a blob's bytes or of any other value's text; NULL for NULL. */
static void sha3_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    sha3_context cx;
    int bits = sha3_requested_size(context, argc, argv);
    int type = sqlite3_value_type(argv[0]);
    if (bits == 0 || type == SQLITE_NULL) return;
    sha3_init(&cx, bits);
    if (type == SQLITE_BLOB) {
        const void *blob = sqlite3_value_blob(argv[0]);
        sha3_update(&cx, blob, (size_t)sqlite3_value_bytes(argv[0]));
    } else {
        const unsigned char *text = sqlite3_value_text(argv[0]);
        sha3_update(&cx, text, (size_t)sqlite3_value_bytes(argv[0]));
    }
    sha3_result(context, &cx);
}

/** Absorbs a tag letter, a decimal length and ':' (the shell's "T%d:" style headers). */
static void sha3_update_header(sha3_context *cx, char tag, int length) {
    char header[24];
    int n = snprintf(header, sizeof(header), "%c%d:", tag, length);
    sha3_update(cx, header, (size_t)n);
}

/** Absorbs a tag letter and 8 big-endian bytes (integers and the bits of reals). */
static void sha3_update_word(sha3_context *cx, char tag, uint64_t word) {
    unsigned char bytes[9];
    bytes[0] = (unsigned char)tag;
    for (int i = 8; i >= 1; i--) {
        bytes[i] = (unsigned char)(word & 0xff);
        word >>= 8;
    }
    sha3_update(cx, bytes, sizeof(bytes));
}

/** Absorbs one column of the current row of `stmt` in the shell's N/I/F/T/B encoding. */
static void sha3_update_column(sha3_context *cx, sqlite3_stmt *stmt, int i) {
    switch (sqlite3_column_type(stmt, i)) {
    case SQLITE_NULL:
        sha3_update(cx, "N", 1);
        break;
    case SQLITE_INTEGER:
        sha3_update_word(cx, 'I', (uint64_t)sqlite3_column_int64(stmt, i));
        break;
    case SQLITE_FLOAT: {
        double r = sqlite3_column_double(stmt, i);
        uint64_t bits;
        memcpy(&bits, &r, sizeof(bits));
        sha3_update_word(cx, 'F', bits);
        break;
    }
    case SQLITE_TEXT: {
        const unsigned char *text = sqlite3_column_text(stmt, i);
        int n = sqlite3_column_bytes(stmt, i);
        sha3_update_header(cx, 'T', n);
        sha3_update(cx, text, (size_t)n);
        break;
    }
    default: {
        const void *blob = sqlite3_column_blob(stmt, i);
        int n = sqlite3_column_bytes(stmt, i);
        sha3_update_header(cx, 'B', n);
        sha3_update(cx, blob, (size_t)n);
        break;
    }
    }
}

/** Absorbs a prepared statement's text and every row it returns (step errors end it quietly). */
static void sha3_update_statement(sha3_context *cx, sqlite3_stmt *stmt) {
    int columns = sqlite3_column_count(stmt);
    const char *sql = sqlite3_sql(stmt);
    if (sql != NULL) {
        size_t n = strlen(sql);
        sha3_update_header(cx, 'S', (int)n);
        sha3_update(cx, sql, n);
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        sha3_update(cx, "R", 1);
        for (int i = 0; i < columns; i++) sha3_update_column(cx, stmt, i);
    }
}

/** Sets `message` (an sqlite3_mprintf string, or NULL when out of memory) as the error and frees it. */
static void sha3_query_error(sqlite3_context *context, char *message) {
    if (message == NULL) {
        sqlite3_result_error_nomem(context);
        return;
    }
    sqlite3_result_error(context, message, -1);
    sqlite3_free(message);
}

/** sha3_query(SQL[,SIZE]): runs each read-only statement of SQL and hashes statements and rows. */
static void sha3_query_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    sqlite3 *db = sqlite3_context_db_handle(context);
    const char *sql = (const char *)sqlite3_value_text(argv[0]);
    sha3_context cx;
    int bits = sha3_requested_size(context, argc, argv);
    if (bits == 0 || sql == NULL) return;
    sha3_init(&cx, bits);
    while (sql[0] != 0) {
        sqlite3_stmt *stmt = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &stmt, &sql) != SQLITE_OK) {
            sha3_query_error(context, sqlite3_mprintf("error SQL statement [%s]: %s", sql, sqlite3_errmsg(db)));
            sqlite3_finalize(stmt);
            return;
        }
        if (stmt == NULL) continue;
        if (!sqlite3_stmt_readonly(stmt)) {
            sha3_query_error(context, sqlite3_mprintf("non-query: [%s]", sqlite3_sql(stmt)));
            sqlite3_finalize(stmt);
            return;
        }
        sha3_update_statement(&cx, stmt);
        sqlite3_finalize(stmt);
    }
    sha3_result(context, &cx);
}

/** Registers sha3 (1 and 2 arguments, pure) and sha3_query (1 and 2 arguments, direct-only). */
int shipyard_register_sha3(sqlite3 *db) {
    int rc = SQLITE_OK;
    for (int argc = 1; argc <= 2 && rc == SQLITE_OK; argc++) {
        rc = sqlite3_create_function(db, "sha3", argc, SHIPYARD_PURE_FUNCTION, NULL, sha3_function, NULL, NULL);
        if (rc == SQLITE_OK) {
            rc = sqlite3_create_function(db, "sha3_query", argc, SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL,
                                         sha3_query_function, NULL, NULL);
        }
    }
    return rc;
}
