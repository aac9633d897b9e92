/*
 * regexp(PATTERN, STRING) and regexpi(PATTERN, STRING) of the sqlite3 3.40.1 shell (so
 * that `X REGEXP Y` works): the NFA of value_regexp_compile.c simulated over the string
 * with a set of live states per character, so time is bounded by pattern size times
 * string length.
 */
#include <string.h>
#include "value_extensions_internal.h"
#include "value_regexp.h"

/** Decodes one UTF-8 character as the shell does (see value_regexp.h). */
unsigned shipyard_regexp_next_char(const unsigned char *z, int *i, int n, int ignore_case) {
    unsigned c;
    if (*i >= n) return 0;
    c = z[(*i)++];
    if (c >= 0x80) {
        int k = *i;
        if ((c & 0xe0) == 0xc0 && k < n && (z[k] & 0xc0) == 0x80) {
            c = (c & 0x1f) << 6 | (z[k] & 0x3f);
            *i += 1;
            if (c < 0x80) c = 0xfffd;
        } else if ((c & 0xf0) == 0xe0 && k + 1 < n && (z[k] & 0xc0) == 0x80 && (z[k + 1] & 0xc0) == 0x80) {
            c = (c & 0x0f) << 12 | (unsigned)(z[k] & 0x3f) << 6 | (z[k + 1] & 0x3f);
            *i += 2;
            if (c <= 0x7ff || (c >= 0xd800 && c <= 0xdfff)) c = 0xfffd;
        } else if ((c & 0xf8) == 0xf0 && k + 2 < n && (z[k] & 0xc0) == 0x80 && (z[k + 1] & 0xc0) == 0x80 &&
                   (z[k + 2] & 0xc0) == 0x80) {
            c = (c & 0x07) << 18 | (unsigned)(z[k] & 0x3f) << 12 | (unsigned)(z[k + 1] & 0x3f) << 6 | (z[k + 2] & 0x3f);
            *i += 3;
            if (c <= 0xffff || c > 0x10ffff) c = 0xfffd;
        } else {
            c = 0xfffd;
        }
    }
    if (ignore_case && c >= 'A' && c <= 'Z') c += 'a' - 'A';
    return c;
}

/* A set of live states: at most one entry per instruction. */
typedef struct rx_states {
    unsigned count;
    unsigned *items;
} rx_states;

/** Adds state s unless present. */
static void rx_add(rx_states *set, unsigned s) {
    for (unsigned i = 0; i < set->count; i++) if (set->items[i] == s) return;
    set->items[set->count++] = s;
}

/** \w: ASCII letters, digits and '_'. */
static int rx_is_word(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/** \s: space, tab, newline, carriage return, vertical tab, form feed. */
static int rx_is_space(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/** Whether character c is in the class at instruction x (values and low/high pairs). */
static int rx_class_hit(const shipyard_regexp *re, unsigned x, int c) {
    int n = re->args[x];
    for (int j = 1; j < n; j++) {
        if (re->ops[x + j] == RX_CLASS_VALUE) {
            if (re->args[x + j] == c) return 1;
        } else {
            if (re->args[x + j] <= c && re->args[x + j + 1] >= c) return 1;
            j++;
        }
    }
    return 0;
}

/** Whether a character-consuming instruction x accepts c (c == 0 is the end of input). */
static int rx_consumes(const shipyard_regexp *re, unsigned x, int c) {
    switch (re->ops[x]) {
    case RX_MATCH: return re->args[x] == c;
    case RX_ANY: return c != 0;
    case RX_WORD: return rx_is_word(c);
    case RX_NOT_WORD: return !rx_is_word(c) && c != 0;
    case RX_DIGIT: return c >= '0' && c <= '9';
    case RX_NOT_DIGIT: return !(c >= '0' && c <= '9') && c != 0;
    case RX_SPACE: return rx_is_space(c);
    case RX_NOT_SPACE: return !rx_is_space(c) && c != 0;
    case RX_CLASS: return rx_class_hit(re, x, c);
    case RX_NOT_CLASS: return c != 0 && !rx_class_hit(re, x, c);
    default: return 0;
    }
}

/** Runs every live state of `now` on character c (previous character prev): empty moves
 *  extend `now` itself, consuming moves fill `next`. Returns 1 if ACCEPT was reached. */
static int rx_step(const shipyard_regexp *re, rx_states *now, rx_states *next, int c, int prev) {
    for (unsigned i = 0; i < now->count; i++) {
        unsigned x = now->items[i];
        int arg = re->args[x];
        switch (re->ops[x]) {
        case RX_ACCEPT: return 1;
        case RX_AT_START: if (prev == RX_START_OF_INPUT) rx_add(now, x + 1); break;
        case RX_BOUNDARY: if (rx_is_word(c) != rx_is_word(prev)) rx_add(now, x + 1); break;
        case RX_ANYSTAR: rx_add(next, x); rx_add(now, x + 1); break;
        case RX_FORK: rx_add(now, x + (unsigned)arg); rx_add(now, x + 1); break;
        case RX_GOTO: rx_add(now, x + (unsigned)arg); break;
        case RX_CLASS: case RX_NOT_CLASS:
            if (rx_consumes(re, x, c)) rx_add(next, x + (unsigned)arg);
            break;
        default: if (rx_consumes(re, x, c)) rx_add(next, x + 1); break;
        }
    }
    return 0;
}

/** After the input ends: whether a surviving state reaches ACCEPT through GOTOs alone. */
static int rx_accepts_at_end(const shipyard_regexp *re, const rx_states *set) {
    for (unsigned i = 0; i < set->count; i++) {
        unsigned x = set->items[i];
        while (re->ops[x] == RX_GOTO) x += (unsigned)re->args[x];
        if (re->ops[x] == RX_ACCEPT) return 1;
    }
    return 0;
}

/** Skips to the first occurrence of the literal prefix; -1 if there is none. */
static int rx_skip_to_prefix(const shipyard_regexp *re, const unsigned char *text, int length) {
    int i = 0, n = re->prefix_length;
    while (i + n <= length && memcmp(text + i, re->prefix, (size_t)n) != 0) i++;
    return i + n > length ? -1 : i;
}

/** Simulates the NFA over text (see value_regexp.h). */
int shipyard_regexp_match(const shipyard_regexp *re, const unsigned char *text) {
    int length = (int)strlen((const char *)text), i = 0, c = RX_START_OF_INPUT, prev, matched = 0;
    if (re->prefix_length > 0) {
        i = rx_skip_to_prefix(re, text, length);
        if (i < 0) return 0;
        c = RX_START_OF_INPUT - 1;
    }
    unsigned *space = sqlite3_malloc64((sqlite3_uint64)re->count * 2 * sizeof(unsigned));
    if (space == NULL) return -1;
    rx_states sets[2] = {{0, space}, {0, space + re->count}}, *now, *next = &sets[1];
    int flip = 0;
    rx_add(next, 0);
    while (c != 0 && next->count > 0 && !matched) {
        prev = c;
        c = (int)shipyard_regexp_next_char(text, &i, length, re->ignore_case);
        now = next;
        next = &sets[flip];
        flip = 1 - flip;
        next->count = 0;
        matched = rx_step(re, now, next, c, prev);
    }
    if (!matched) matched = rx_accepts_at_end(re, next);
    sqlite3_free(space);
    return matched;
}

/** regexp(P,S) / regexpi(P,S): 1 or 0; NULL if either is NULL; the compiled pattern is
 *  kept as auxiliary data while P stays the same. */
static void regexp_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    shipyard_regexp *re = sqlite3_get_auxdata(context, 0);
    int fresh = 0;
    (void)argc;
    if (re == NULL) {
        const char *pattern = (const char *)sqlite3_value_text(argv[0]);
        if (pattern == NULL) return;
        const char *error = shipyard_regexp_compile(&re, pattern, sqlite3_user_data(context) != NULL);
        if (error != NULL) {
            sqlite3_result_error(context, error, -1);
            return;
        }
        fresh = 1;
    }
    const unsigned char *text = sqlite3_value_text(argv[1]);
    if (text != NULL) {
        int matched = shipyard_regexp_match(re, text);
        if (matched < 0) sqlite3_result_error_nomem(context);
        else sqlite3_result_int(context, matched);
    }
    if (fresh) sqlite3_set_auxdata(context, 0, re, shipyard_regexp_free);
}

/** Registers regexp and regexpi (pure, two arguments). */
int shipyard_register_regexp(sqlite3 *db) {
    int rc = sqlite3_create_function(db, "regexp", 2, SHIPYARD_PURE_FUNCTION, NULL, regexp_function, NULL, NULL);
    if (rc == SQLITE_OK) {
        rc = sqlite3_create_function(db, "regexpi", 2, SHIPYARD_PURE_FUNCTION, (void *)db, regexp_function, NULL, NULL);
    }
    return rc;
}
