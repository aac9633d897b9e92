/*
 * Arbitrary-precision decimal arithmetic with the 3.40.1 shell's observable rules: what
 * the parser accepts, how many digits a sum or a product keeps, and how zero's sign shows.
 */
#include <ctype.h>
#include <string.h>
#include "value_decimal.h"

/** Frees the digits of `d` and leaves it empty. */
void shipyard_decimal_clear(shipyard_decimal *d) {
    sqlite3_free(d->digits);
    d->digits = NULL;
    d->count = 0;
}

/** Reads an exponent after 'e' at text[j..n): optional sign, then digits (other bytes skipped)
 *  until the magnitude reaches a million, as the shell does. */
static int decimal_parse_exponent(const char *text, int j, int n) {
    int negative = 0, exponent = 0;
    if (text[j] == '-') {
        negative = 1;
        j++;
    } else if (text[j] == '+') {
        j++;
    }
    for (; j < n && exponent < 1000000; j++) {
        if (text[j] >= '0' && text[j] <= '9') exponent = exponent * 10 + (text[j] - '0');
    }
    return negative ? -exponent : exponent;
}

/** Grows the digit array to hold `count` digits; 0 or SQLITE_NOMEM. */
static int decimal_reserve(shipyard_decimal *d, sqlite3_int64 count) {
    signed char *grown = sqlite3_realloc64(d->digits, (sqlite3_uint64)count + 1);
    if (grown == NULL) {
        d->out_of_memory = 1;
        return SQLITE_NOMEM;
    }
    d->digits = grown;
    return 0;
}

/** Applies a power-of-ten exponent: moves the point, adding zeros where digits run out. */
static int decimal_apply_exponent(shipyard_decimal *d, int exponent) {
    if (exponent > 0) {
        int moved = exponent <= d->fraction ? exponent : d->fraction;
        d->fraction -= moved;
        exponent -= moved;
        if (exponent == 0) return 0;
        if (decimal_reserve(d, (sqlite3_int64)d->count + exponent)) return SQLITE_NOMEM;
        memset(d->digits + d->count, 0, (size_t)exponent);
        d->count += exponent;
    } else if (exponent < 0) {
        int shift = -exponent, integer_digits = d->count - d->fraction - 1;
        if (integer_digits != 0) {
            int moved = integer_digits >= shift ? shift : integer_digits;
            d->fraction += moved;
            shift -= moved;
        }
        if (shift == 0) return 0;
        if (decimal_reserve(d, (sqlite3_int64)d->count + shift)) return SQLITE_NOMEM;
        memmove(d->digits + shift, d->digits, (size_t)d->count);
        memset(d->digits, 0, (size_t)shift);
        d->count += shift;
        d->fraction += shift;
    }
    return 0;
}

/** Parses text: spaces, a sign, leading zeros skipped; digits, one point position (the
 *  last '.' wins), an exponent; every other byte ignored. */
int shipyard_decimal_parse(shipyard_decimal *d, const char *text, int n) {
    int i = 0, point = 0, exponent = 0;
    memset(d, 0, sizeof(*d));
    if (decimal_reserve(d, n)) return SQLITE_NOMEM;
    while (i < n && isspace((unsigned char)text[i])) i++;
    if (i < n && text[i] == '-') {
        d->negative = 1;
        i++;
    } else if (i < n && text[i] == '+') {
        i++;
    }
    while (i < n && text[i] == '0') i++;
    for (; i < n; i++) {
        char c = text[i];
        if (c >= '0' && c <= '9') {
            d->digits[d->count++] = (signed char)(c - '0');
        } else if (c == '.') {
            point = d->count + 1;
        } else if (c == 'e' || c == 'E') {
            if (i + 1 < n) exponent = decimal_parse_exponent(text, i + 1, n);
            break;
        }
    }
    if (point) d->fraction = d->count - (point - 1);
    return decimal_apply_exponent(d, exponent);
}

/** A decimal from an SQL value: NULL is NULL, any other type is read from its text. */
int shipyard_decimal_from_value(shipyard_decimal *d, sqlite3_value *value) {
    if (sqlite3_value_type(value) == SQLITE_NULL) {
        memset(d, 0, sizeof(*d));
        d->is_null = 1;
        return 0;
    }
    const char *text = (const char *)sqlite3_value_text(value);
    if (text == NULL) {
        memset(d, 0, sizeof(*d));
        d->out_of_memory = 1;
        return SQLITE_NOMEM;
    }
    return shipyard_decimal_parse(d, text, sqlite3_value_bytes(value));
}

/** The text: a minus unless the number is a lone zero digit or empty, the integer part
 *  without leading zeros (at least "0"), then '.' and every fraction digit. */
char *shipyard_decimal_text(shipyard_decimal *d) {
    char *z = sqlite3_malloc64((sqlite3_uint64)d->count + 8);
    int i = 0, j = 0, integer_digits = d->count - d->fraction;
    if (z == NULL) return NULL;
    if (d->count == 0 || (d->count == 1 && d->digits[0] == 0)) d->negative = 0;
    if (d->negative) z[i++] = '-';
    if (integer_digits <= 0) z[i++] = '0';
    while (integer_digits > 1 && d->digits[j] == 0) {
        j++;
        integer_digits--;
    }
    for (; integer_digits > 0; integer_digits--) z[i++] = (char)('0' + d->digits[j++]);
    if (d->fraction) {
        z[i++] = '.';
        do {
            z[i++] = (char)('0' + d->digits[j++]);
        } while (j < d->count);
    }
    z[i] = 0;
    return z;
}

/** Widens `d` to `count` digits with `fraction` after the point, zero-padding both ends. */
static void decimal_widen(shipyard_decimal *d, int count, int fraction) {
    int add_fraction = fraction - d->fraction;
    int add_integer = (count - d->count) - add_fraction;
    if (add_fraction == 0 && add_integer == 0) return;
    if (decimal_reserve(d, count)) return;
    if (add_integer) {
        memmove(d->digits + add_integer, d->digits, (size_t)d->count);
        memset(d->digits, 0, (size_t)add_integer);
        d->count += add_integer;
    }
    if (add_fraction) {
        memset(d->digits + d->count, 0, (size_t)add_fraction);
        d->count += add_fraction;
        d->fraction += add_fraction;
    }
}

/** Digit-wise |x| - |y| into out (|x| >= |y|, all `n` digits wide). */
static void decimal_subtract_digits(signed char *out, const signed char *x, const signed char *y, int n) {
    int borrow = 0;
    for (int i = n - 1; i >= 0; i--) {
        int v = x[i] - y[i] - borrow;
        borrow = v < 0;
        out[i] = (signed char)(borrow ? v + 10 : v);
    }
}

/** a := a + b. The result is one digit wider than the wider integer part (a's leading zero
 *  counts as that spare digit) and has the larger fraction; equal magnitudes of opposite
 *  signs keep a's sign. */
void shipyard_decimal_add(shipyard_decimal *a, shipyard_decimal *b) {
    if (a->out_of_memory || b->out_of_memory) { a->out_of_memory = 1; return; }
    if (a->is_null || b->is_null) { a->is_null = 1; return; }
    int integer = a->count - a->fraction;
    if (integer && a->digits[0] == 0) integer--;
    if (integer < b->count - b->fraction) integer = b->count - b->fraction;
    int fraction = a->fraction > b->fraction ? a->fraction : b->fraction;
    int count = integer + fraction + 1;
    decimal_widen(a, count, fraction);
    decimal_widen(b, count, fraction);
    if (a->out_of_memory || b->out_of_memory) { a->out_of_memory = 1; return; }
    if (a->negative == b->negative) {
        int carry = 0;
        for (int i = count - 1; i >= 0; i--) {
            int v = a->digits[i] + b->digits[i] + carry;
            carry = v >= 10;
            a->digits[i] = (signed char)(carry ? v - 10 : v);
        }
    } else if (memcmp(a->digits, b->digits, (size_t)count) < 0) {
        decimal_subtract_digits(a->digits, b->digits, a->digits, count);
        a->negative = !a->negative;
    } else {
        decimal_subtract_digits(a->digits, a->digits, b->digits, count);
    }
}

/** a := a * b: the full product in a.count + b.count + 2 digits, fraction digits summed,
 *  then trailing fraction zeros dropped down to the smaller input fraction. */
void shipyard_decimal_multiply(shipyard_decimal *a, const shipyard_decimal *b) {
    int width = a->count + b->count + 2;
    int min_fraction = a->fraction < b->fraction ? a->fraction : b->fraction;
    signed char *product = sqlite3_malloc64((sqlite3_uint64)width + 1);
    if (product == NULL) { a->out_of_memory = 1; return; }
    memset(product, 0, (size_t)width + 1);
    for (int i = a->count - 1; i >= 0; i--) {
        int carry = 0, k = i + b->count + 2;
        for (int j = b->count - 1; j >= 0; j--, k--) {
            int v = product[k] + a->digits[i] * b->digits[j] + carry;
            product[k] = (signed char)(v % 10);
            carry = v / 10;
        }
        for (; carry != 0 && k >= 0; k--) {
            int v = product[k] + carry;
            product[k] = (signed char)(v % 10);
            carry = v / 10;
        }
    }
    sqlite3_free(a->digits);
    a->digits = product;
    a->count = width;
    a->fraction += b->fraction;
    a->negative ^= b->negative;
    while (a->fraction > min_fraction && a->digits[a->count - 1] == 0) {
        a->fraction--;
        a->count--;
    }
}

/** Compares as the 3.40.1 shell does: sign first (a negative zero is below zero), then the
 *  length of the integer parts, then the digits, then the length (so 1 < 1.0). */
int shipyard_decimal_compare(shipyard_decimal *a, shipyard_decimal *b) {
    if (a->negative != b->negative) return a->negative ? -1 : 1;
    if (a->negative) {
        shipyard_decimal *t = a;
        a = b;
        b = t;
    }
    int integer_a = a->count - a->fraction, integer_b = b->count - b->fraction;
    if (integer_a != integer_b) return integer_a - integer_b;
    int n = a->count < b->count ? a->count : b->count;
    int rc = n > 0 ? memcmp(a->digits, b->digits, (size_t)n) : 0;
    return rc != 0 ? rc : a->count - b->count;
}
