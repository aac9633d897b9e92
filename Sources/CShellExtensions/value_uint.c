/*
 * The "uint" collation of the sqlite3 3.40.1 shell: text compared byte by byte, except
 * that runs of ASCII digits compare as unsigned integers of any size ("x9" < "x10"),
 * leading zeros ignored.
 */
#include <string.h>
#include "value_extensions_internal.h"

/** True for the ASCII digits 0-9. */
static int uint_is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}

/*
 * Compares the digit runs starting at a[*i] and b[*j] (both digits) by value: leading
 * zeros skipped, then the longer run is larger, equal lengths compare bytewise. Advances
 * *i and *j past equal runs and returns 0; otherwise returns the sign of the comparison.
 */
static int uint_compare_digit_runs(const unsigned char *a, int na, int *i,
                                   const unsigned char *b, int nb, int *j) {
    int k = 0;
    while (*i < na && a[*i] == '0') (*i)++;
    while (*j < nb && b[*j] == '0') (*j)++;
    while (*i + k < na && uint_is_digit(a[*i + k]) && *j + k < nb && uint_is_digit(b[*j + k])) k++;
    if (*i + k < na && uint_is_digit(a[*i + k])) return 1;
    if (*j + k < nb && uint_is_digit(b[*j + k])) return -1;
    int x = memcmp(a + *i, b + *j, (size_t)k);
    if (x != 0) return x;
    *i += k;
    *j += k;
    return 0;
}

/** The collating function: natural order of digit runs, bytes elsewhere, then what remains. */
static int uint_collate(void *unused, int na, const void *pa, int nb, const void *pb) {
    const unsigned char *a = pa, *b = pb;
    int i = 0, j = 0;
    (void)unused;
    while (i < na && j < nb) {
        int x = a[i] - b[j];
        if (uint_is_digit(a[i])) {
            if (!uint_is_digit(b[j])) return x;
            x = uint_compare_digit_runs(a, na, &i, b, nb, &j);
            if (x != 0) return x;
        } else if (x != 0) {
            return x;
        } else {
            i++;
            j++;
        }
    }
    return (na - i) - (nb - j);
}

/** Registers the "uint" collation (UTF-8). */
int shipyard_register_uint(sqlite3 *db) {
    return sqlite3_create_collation(db, "uint", SQLITE_UTF8, NULL, uint_collate);
}
