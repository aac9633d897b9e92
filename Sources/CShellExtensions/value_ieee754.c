/*
 * ieee754(X), ieee754(M,E), ieee754_mantissa(X), ieee754_exponent(X), ieee754_to_blob(X)
 * and ieee754_from_blob(B), as the sqlite3 3.40.1 shell registers them: a double split into
 * an integer mantissa M and a power-of-two exponent E with X = M * 2^E, and back.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "value_extensions_internal.h"

/* What the one-argument form returns (its user data). */
enum { IEEE754_TEXT = 0, IEEE754_MANTISSA = 1, IEEE754_EXPONENT = 2 };

/** Reads 8 big-endian bytes as a double. */
static double double_from_big_endian(const unsigned char *bytes) {
    uint64_t bits = 0;
    double r;
    for (int i = 0; i < 8; i++) bits = (bits << 8) | bytes[i];
    memcpy(&r, &bits, sizeof(r));
    return r;
}

/** The double an argument stands for: an 8-byte blob's bits, else the value as a real. */
static double ieee754_argument(sqlite3_value *value) {
    if (sqlite3_value_type(value) == SQLITE_BLOB && sqlite3_value_bytes(value) == 8) {
        return double_from_big_endian(sqlite3_value_blob(value));
    }
    return sqlite3_value_double(value);
}

/*
 * Splits r into (*mantissa, *exponent) with the fewest mantissa bits, as the shell does:
 * the sign is taken off a negative r first, and the exponent field of what remains is read
 * as a signed shift (so -0.0 and negative NaNs give the shell's exponents below -2048).
 */
static void ieee754_split(double r, int64_t *mantissa, int64_t *exponent) {
    int negative = 0;
    int64_t bits, m, e;
    if (r < 0.0) {
        negative = 1;
        r = -r;
    }
    memcpy(&bits, &r, sizeof(bits));
    if (bits == 0) {
        *mantissa = 0;
        *exponent = -1075;
        return;
    }
    e = bits < 0 ? (int64_t)(((uint64_t)bits >> 52) | ~(uint64_t)0xfff) : bits >> 52;
    m = bits & ((INT64_C(1) << 52) - 1);
    if (e == 0) m <<= 1; else m |= INT64_C(1) << 52;
    while (e < 1075 && m > 0 && (m & 1) == 0) {
        m >>= 1;
        e++;
    }
    *mantissa = negative ? -m : m;
    *exponent = e - 1075;
}

/** ieee754(X) and its mantissa/exponent variants: X as 'ieee754(M,E)', M or E. */
static void ieee754_split_function(sqlite3_context *context, sqlite3_value **argv) {
    int64_t m, e;
    ieee754_split(ieee754_argument(argv[0]), &m, &e);
    switch (*(const int *)sqlite3_user_data(context)) {
    case IEEE754_MANTISSA:
        sqlite3_result_int64(context, m);
        break;
    case IEEE754_EXPONENT:
        sqlite3_result_int(context, (int)e);
        break;
    default: {
        char text[64];
        snprintf(text, sizeof(text), "ieee754(%lld,%d)", (long long)m, (int)e);
        sqlite3_result_text(context, text, -1, SQLITE_TRANSIENT);
        break;
    }
    }
}

/*
 * Builds M * 2^E as the shell does: E clamped to +-10000, M normalised to 53 bits, an
 * exponent past the largest finite one giving an exponent field of all ones, subnormals
 * shifted down. The shell loops forever on M = -2^63; here that gives NULL.
 */
static void ieee754_join_function(sqlite3_context *context, sqlite3_value **argv) {
    int64_t m = sqlite3_value_int64(argv[0]), e = sqlite3_value_int64(argv[1]);
    uint64_t bits;
    double r;
    int negative = 0;
    if (e > 10000) e = 10000; else if (e < -10000) e = -10000;
    if (m < 0) {
        if (m == INT64_MIN) return;
        negative = 1;
        m = -m;
    } else if (m == 0 && e > -1000 && e < 1000) {
        sqlite3_result_double(context, 0.0);
        return;
    }
    while (((m >> 32) & 0xffe00000) != 0) { m >>= 1; e++; }
    while (m != 0 && ((m >> 32) & 0xfff00000) == 0) { m <<= 1; e--; }
    e += 1075;
    if (e <= 0) {
        m = (1 - e >= 64) ? 0 : m >> (1 - e);
        e = 0;
    } else if (e > 0x7ff) {
        e = 0x7ff;
    }
    bits = ((uint64_t)m & ((UINT64_C(1) << 52) - 1)) | ((uint64_t)e << 52);
    if (negative) bits |= UINT64_C(1) << 63;
    memcpy(&r, &bits, sizeof(r));
    sqlite3_result_double(context, r);
}

/** ieee754(X) (one argument: split) or ieee754(M,E) (two: join). */
static void ieee754_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    if (argc == 1) ieee754_split_function(context, argv);
    else ieee754_join_function(context, argv);
}

/** ieee754_to_blob(X): the 8 big-endian bytes of a numeric X; NULL for other types. */
static void ieee754_to_blob_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    int type = sqlite3_value_type(argv[0]);
    (void)argc;
    if (type == SQLITE_FLOAT || type == SQLITE_INTEGER) {
        double r = sqlite3_value_double(argv[0]);
        uint64_t bits;
        unsigned char bytes[8];
        memcpy(&bits, &r, sizeof(bits));
        for (int i = 7; i >= 0; i--) {
            bytes[i] = (unsigned char)(bits & 0xff);
            bits >>= 8;
        }
        sqlite3_result_blob(context, bytes, 8, SQLITE_TRANSIENT);
    }
}

/** ieee754_from_blob(B): the double whose big-endian bytes are the 8-byte blob B, else NULL. */
static void ieee754_from_blob_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_BLOB && sqlite3_value_bytes(argv[0]) == 8) {
        sqlite3_result_double(context, double_from_big_endian(sqlite3_value_blob(argv[0])));
    }
}

/** Registers the six ieee754 functions, innocuous but (as in the shell) not deterministic. */
int shipyard_register_ieee754(sqlite3 *db) {
    static const int modes[3] = {IEEE754_TEXT, IEEE754_MANTISSA, IEEE754_EXPONENT};
    static const struct { const char *name; int argc; int mode; void (*fn)(sqlite3_context *, int, sqlite3_value **); } table[] = {
        {"ieee754", 1, 0, ieee754_function},
        {"ieee754", 2, 0, ieee754_function},
        {"ieee754_mantissa", 1, 1, ieee754_function},
        {"ieee754_exponent", 1, 2, ieee754_function},
        {"ieee754_to_blob", 1, 0, ieee754_to_blob_function},
        {"ieee754_from_blob", 1, 0, ieee754_from_blob_function},
    };
    int rc = SQLITE_OK;
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]) && rc == SQLITE_OK; i++) {
        rc = sqlite3_create_function(db, table[i].name, table[i].argc, SQLITE_UTF8 | SQLITE_INNOCUOUS,
                                     (void *)&modes[table[i].mode], table[i].fn, NULL, NULL);
    }
    return rc;
}
