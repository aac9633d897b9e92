#ifndef SHIPYARD_VALUE_DECIMAL_H
#define SHIPYARD_VALUE_DECIMAL_H
/*
 * Arbitrary-precision decimal numbers with the semantics of the sqlite3 3.40.1 shell's
 * decimal extension: a sign, a string of digits (most significant first, possibly with
 * leading zeros) and how many of them are after the point. The widths the shell's
 * arithmetic produces are kept, because they show in results ('0.000', '-0').
 */
#include <sqlite3.h>

typedef struct shipyard_decimal {
    int negative;        /* 1 if the sign is minus (a zero may be negative) */
    int is_null;         /* 1 for SQL NULL */
    int out_of_memory;   /* 1 once an allocation failed */
    int count;           /* number of digits */
    int fraction;        /* digits after the decimal point */
    signed char *digits; /* `count` digits 0-9, sqlite3_malloc'd */
} shipyard_decimal;

/* Parses `n` bytes of text as the shell does (junk characters skipped, an exponent
 * applied). Returns 0, or SQLITE_NOMEM. */
int shipyard_decimal_parse(shipyard_decimal *d, const char *text, int n);
/* A decimal from an SQL value: NULL gives is_null, anything else its text. */
int shipyard_decimal_from_value(shipyard_decimal *d, sqlite3_value *value);
/* Frees the digits (not the struct). */
void shipyard_decimal_clear(shipyard_decimal *d);
/* The shell's text form, sqlite3_malloc'd, or NULL when out of memory. */
char *shipyard_decimal_text(shipyard_decimal *d);
/* a := a + b (b may be widened too). */
void shipyard_decimal_add(shipyard_decimal *a, shipyard_decimal *b);
/* a := a * b. */
void shipyard_decimal_multiply(shipyard_decimal *a, const shipyard_decimal *b);
/* Negative, zero or positive as a < b, a == b, a > b (neither NULL); trailing zeros count. */
int shipyard_decimal_compare(shipyard_decimal *a, shipyard_decimal *b);

#endif
