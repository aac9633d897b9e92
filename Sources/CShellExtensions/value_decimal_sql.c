/*
 * The SQL face of the 3.40.1 shell's decimal extension: decimal(X), decimal_cmp(A,B),
 * decimal_add(A,B), decimal_sub(A,B), decimal_mul(A,B), the decimal_sum(X) aggregate
 * (usable as a window function) and the "decimal" collation.
 */
#include <string.h>
#include "value_decimal.h"
#include "value_extensions_internal.h"

/** Sets `d` as the result: NULL, out of memory, or its text. */
static void decimal_result(sqlite3_context *context, shipyard_decimal *d) {
    if (d->out_of_memory) {
        sqlite3_result_error_nomem(context);
        return;
    }
    if (d->is_null) {
        sqlite3_result_null(context);
        return;
    }
    char *text = shipyard_decimal_text(d);
    if (text == NULL) {
        sqlite3_result_error_nomem(context);
        return;
    }
    sqlite3_result_text(context, text, -1, sqlite3_free);
}

/** decimal(X): X in canonical decimal text; NULL for NULL. */
static void decimal_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    shipyard_decimal d;
    (void)argc;
    shipyard_decimal_from_value(&d, argv[0]);
    decimal_result(context, &d);
    shipyard_decimal_clear(&d);
}

/** decimal_cmp(A,B): -1, 0 or +1; NULL if either is NULL. */
static void decimal_cmp_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    shipyard_decimal a, b;
    (void)argc;
    int rc = shipyard_decimal_from_value(&a, argv[0]);
    rc |= shipyard_decimal_from_value(&b, argv[1]);
    if (rc != 0) {
        sqlite3_result_error_nomem(context);
    } else if (!a.is_null && !b.is_null) {
        int order = shipyard_decimal_compare(&a, &b);
        sqlite3_result_int(context, order < 0 ? -1 : order > 0);
    }
    shipyard_decimal_clear(&a);
    shipyard_decimal_clear(&b);
}

/** decimal_add(A,B) (user data NULL) and decimal_sub(A,B) (user data non-NULL). */
static void decimal_add_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    shipyard_decimal a, b;
    (void)argc;
    shipyard_decimal_from_value(&a, argv[0]);
    shipyard_decimal_from_value(&b, argv[1]);
    if (sqlite3_user_data(context) != NULL) b.negative = !b.negative;
    shipyard_decimal_add(&a, &b);
    decimal_result(context, &a);
    shipyard_decimal_clear(&a);
    shipyard_decimal_clear(&b);
}

/** decimal_mul(A,B): the exact product; NULL if either is NULL. */
static void decimal_mul_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    shipyard_decimal a, b;
    (void)argc;
    shipyard_decimal_from_value(&a, argv[0]);
    shipyard_decimal_from_value(&b, argv[1]);
    if (a.out_of_memory || b.out_of_memory) {
        sqlite3_result_error_nomem(context);
    } else if (!a.is_null && !b.is_null) {
        shipyard_decimal_multiply(&a, &b);
        decimal_result(context, &a);
    }
    shipyard_decimal_clear(&a);
    shipyard_decimal_clear(&b);
}

/* The running total of decimal_sum, in the aggregate context. */
typedef struct decimal_sum_state {
    int started;
    shipyard_decimal total;
} decimal_sum_state;

/** Adds (or, for the inverse, subtracts) a non-NULL row's value to the running total,
 *  which starts as a single zero digit on the first row. */
static void decimal_sum_accumulate(sqlite3_context *context, sqlite3_value *value, int subtract) {
    decimal_sum_state *state = sqlite3_aggregate_context(context, sizeof(*state));
    shipyard_decimal term;
    if (state == NULL) return;
    if (!state->started) {
        state->started = 1;
        if (shipyard_decimal_parse(&state->total, "0", 1) != 0) return;
    }
    if (sqlite3_value_type(value) == SQLITE_NULL) return;
    shipyard_decimal_from_value(&term, value);
    if (subtract) term.negative = !term.negative;
    shipyard_decimal_add(&state->total, &term);
    shipyard_decimal_clear(&term);
}

/** xStep of decimal_sum. */
static void decimal_sum_step(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    decimal_sum_accumulate(context, argv[0], 0);
}

/** xInverse of decimal_sum (a row leaves the window). */
static void decimal_sum_inverse(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    decimal_sum_accumulate(context, argv[0], 1);
}

/** xValue: the total so far; NULL if no row was seen. */
static void decimal_sum_value(sqlite3_context *context) {
    decimal_sum_state *state = sqlite3_aggregate_context(context, 0);
    if (state != NULL && state->started) decimal_result(context, &state->total);
}

/** xFinal: the total, then frees it. */
static void decimal_sum_final(sqlite3_context *context) {
    decimal_sum_state *state = sqlite3_aggregate_context(context, 0);
    if (state == NULL) return;
    if (state->started) decimal_result(context, &state->total);
    shipyard_decimal_clear(&state->total);
}

/** The "decimal" collation: compares the keys' texts as decimal numbers. */
static int decimal_collate(void *unused, int na, const void *pa, int nb, const void *pb) {
    shipyard_decimal a, b;
    int order = 0;
    (void)unused;
    int rc = shipyard_decimal_parse(&a, pa, na);
    rc |= shipyard_decimal_parse(&b, pb, nb);
    if (rc == 0) order = shipyard_decimal_compare(&a, &b);
    shipyard_decimal_clear(&a);
    shipyard_decimal_clear(&b);
    return order;
}

/** Registers the decimal functions (pure), the decimal_sum window aggregate and the collation. */
int shipyard_register_decimal(sqlite3 *db) {
    static int subtract = 1;
    int rc = sqlite3_create_function(db, "decimal", 1, SHIPYARD_PURE_FUNCTION, NULL, decimal_function, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "decimal_cmp", 2, SHIPYARD_PURE_FUNCTION, NULL, decimal_cmp_function, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "decimal_add", 2, SHIPYARD_PURE_FUNCTION, NULL, decimal_add_function, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "decimal_sub", 2, SHIPYARD_PURE_FUNCTION, &subtract, decimal_add_function, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "decimal_mul", 2, SHIPYARD_PURE_FUNCTION, NULL, decimal_mul_function, NULL, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_create_window_function(db, "decimal_sum", 1, SHIPYARD_PURE_FUNCTION, NULL, decimal_sum_step,
                                            decimal_sum_final, decimal_sum_value, decimal_sum_inverse, NULL);
    }
    if (rc == SQLITE_OK) rc = sqlite3_create_collation(db, "decimal", SQLITE_UTF8, NULL, decimal_collate);
    return rc;
}
