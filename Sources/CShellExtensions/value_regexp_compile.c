/*
 * The compiler of the shell's regular-expression language: . * + ? {m,n} (X) X|Y ^ $ [...]
 * [^...] \b \w \W \d \D \s \S \xHH \uHHHH and C escapes, with the shell's error messages.
 * Quantifiers copy and wrap the instructions of the item before them, in place.
 */
#include <string.h>
#include "value_regexp.h"

/* Instructions a pattern may compile to before it is refused (the shell has no limit but
 * fails far beyond this by running out of memory). */
#define RX_MAX_INSTRUCTIONS 16000000u

typedef struct rx_compiler {
    shipyard_regexp *re;
    const unsigned char *pattern;
    int pos;
    int length;
    const char *deferred_error; /* an unknown escape: reported only if nothing worse happens */
    int out_of_memory;
} rx_compiler;

/** Makes room for `needed` instructions; 0 or 1 when out of memory (remembered). */
static int rx_reserve(rx_compiler *p, unsigned needed) {
    shipyard_regexp *re = p->re;
    if (needed <= re->capacity) return 0;
    unsigned capacity = re->capacity * 2 > needed ? re->capacity * 2 : needed;
    if (capacity > RX_MAX_INSTRUCTIONS) { p->out_of_memory = 1; return 1; }
    unsigned char *ops = sqlite3_realloc64(re->ops, capacity);
    if (ops != NULL) re->ops = ops;
    int *args = sqlite3_realloc64(re->args, (sqlite3_uint64)capacity * sizeof(int));
    if (args != NULL) re->args = args;
    if (ops == NULL || args == NULL) { p->out_of_memory = 1; return 1; }
    re->capacity = capacity;
    return 0;
}

/** Inserts an instruction before instruction `at`; returns `at`. */
static int rx_insert(rx_compiler *p, int at, int op, int arg) {
    shipyard_regexp *re = p->re;
    if (rx_reserve(p, re->count + 1)) return at;
    memmove(re->ops + at + 1, re->ops + at, re->count - (unsigned)at);
    memmove(re->args + at + 1, re->args + at, (re->count - (unsigned)at) * sizeof(int));
    re->ops[at] = (unsigned char)op;
    re->args[at] = arg;
    re->count++;
    return at;
}

/** Appends an instruction; returns its index. */
static int rx_append(rx_compiler *p, int op, int arg) {
    return rx_insert(p, (int)p->re->count, op, arg);
}

/** Appends a copy of the `n` instructions starting at `from`. */
static void rx_copy(rx_compiler *p, int from, unsigned n) {
    shipyard_regexp *re = p->re;
    if (rx_reserve(p, re->count + n)) return;
    memcpy(re->ops + re->count, re->ops + from, n);
    memcpy(re->args + re->count, re->args + from, n * sizeof(int));
    re->count += n;
}

/** The next byte of the pattern without consuming it (0 at the end). */
static unsigned char rx_peek(const rx_compiler *p) {
    return p->pos < p->length ? p->pattern[p->pos] : 0;
}

/** The next pattern character (UTF-8 decoded, lowered when ignoring case). */
static unsigned rx_next(rx_compiler *p) {
    return shipyard_regexp_next_char(p->pattern, &p->pos, p->length, p->re->ignore_case);
}

/** Adds the value of hex digit c to *v (v*16+digit); 0 if c is not a hex digit. */
static int rx_hex(unsigned char c, int *v) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return 0;
    *v = *v * 16 + d;
    return 1;
}

/** The character after a backslash: \uHHHH, \xHH, a C escape (\a\f\n\r\t\v) or a literal
 *  metacharacter (3.40.1 has no \-). Anything else is "unknown \ escape" (deferred) and is
 *  not consumed. A backslash at the very end stands for the end of input. */
static unsigned rx_escape(rx_compiler *p) {
    static const char escapable[] = "afnrtv\\()*.+?[$^{|}]";
    static const char translated[] = "\a\f\n\r\t\v";
    const unsigned char *z = p->pattern + p->pos;
    int v = 0;
    if (p->pos >= p->length) return 0;
    if (z[0] == 'u' && p->pos + 4 < p->length && rx_hex(z[1], &v) && rx_hex(z[2], &v) && rx_hex(z[3], &v) && rx_hex(z[4], &v)) {
        p->pos += 5;
        return (unsigned)v;
    }
    v = 0;
    if (z[0] == 'x' && p->pos + 2 < p->length && rx_hex(z[1], &v) && rx_hex(z[2], &v)) {
        p->pos += 3;
        return (unsigned)v;
    }
    const char *hit = z[0] != 0 ? strchr(escapable, z[0]) : NULL;
    if (hit == NULL) {
        p->deferred_error = "unknown \\ escape";
        return (unsigned)(int)(signed char)z[0];
    }
    p->pos++;
    return hit - escapable < 6 ? (unsigned char)translated[hit - escapable] : z[0];
}

static const char *rx_alternation(rx_compiler *p);

/** [...] or [^...] after the '['. */
static const char *rx_class(rx_compiler *p) {
    int first = (int)p->re->count;
    unsigned c;
    if (rx_peek(p) == '^') {
        rx_append(p, RX_NOT_CLASS, 0);
        p->pos++;
    } else {
        rx_append(p, RX_CLASS, 0);
    }
    while ((c = rx_next(p)) != 0) {
        if (c == '[' && rx_peek(p) == ':') return "POSIX character classes not supported";
        if (c == '\\') c = rx_escape(p);
        if (rx_peek(p) == '-') {
            rx_append(p, RX_CLASS_RANGE, (int)c);
            p->pos++;
            c = rx_next(p);
            if (c == '\\') c = rx_escape(p);
            rx_append(p, RX_CLASS_RANGE, (int)c);
        } else {
            rx_append(p, RX_CLASS_VALUE, (int)c);
        }
        if (rx_peek(p) == ']') {
            p->pos++;
            break;
        }
    }
    if (c == 0) return "unclosed '['";
    if (!p->out_of_memory) p->re->args[first] = (int)p->re->count - first;
    return NULL;
}

/** Reads decimal digits at the current position into *value. */
static void rx_number(rx_compiler *p, unsigned *value) {
    unsigned char c;
    while ((c = rx_peek(p)) >= '0' && c <= '9') {
        *value = *value * 10 + (c - '0');
        p->pos++;
    }
}

/** {m}, {m,}, {,n}, {m,n} after the item starting at `prev`: m copies, then n-m optional
 *  copies (or a loop on the last copy when n is omitted). */
static const char *rx_repeat(rx_compiler *p, int prev) {
    unsigned m = 0, n;
    rx_number(p, &m);
    n = m;
    if (rx_peek(p) == ',') {
        p->pos++;
        n = 0;
        rx_number(p, &n);
    }
    if (rx_peek(p) != '}') return "unmatched '{'";
    if (n > 0 && n < m) return "n less than m in '{m,n}'";
    p->pos++;
    unsigned size = p->re->count - (unsigned)prev;
    if (m == 0) {
        if (n == 0) return "both m and n are zero in '{m,n}'";
        rx_insert(p, prev, RX_FORK, (int)size + 1);
        prev++;
        n--;
    } else {
        for (unsigned j = 1; j < m && !p->out_of_memory; j++) rx_copy(p, prev, size);
    }
    for (unsigned j = m; j < n && !p->out_of_memory; j++) {
        rx_append(p, RX_FORK, (int)size + 1);
        rx_copy(p, prev, size);
    }
    if (n == 0 && m > 0) rx_append(p, RX_FORK, -(int)size);
    return NULL;
}

/** \b \d \D \s \S \w \W as instructions, or an escaped character to match. */
static void rx_backslash(rx_compiler *p) {
    int op = 0;
    switch (rx_peek(p)) {
    case 'b': op = RX_BOUNDARY; break;
    case 'd': op = RX_DIGIT; break;
    case 'D': op = RX_NOT_DIGIT; break;
    case 's': op = RX_SPACE; break;
    case 'S': op = RX_NOT_SPACE; break;
    case 'w': op = RX_WORD; break;
    case 'W': op = RX_NOT_WORD; break;
    }
    if (op != 0) {
        p->pos++;
        rx_append(p, op, 0);
    } else {
        rx_append(p, RX_MATCH, (int)rx_escape(p));
    }
}

/** A postfix operator applied to the item that starts at `prev` (negative: none). */
static const char *rx_postfix(rx_compiler *p, unsigned c, int prev) {
    int count = (int)p->re->count;
    switch (c) {
    case '*':
        if (prev < 0) return "'*' without operand";
        rx_insert(p, prev, RX_GOTO, count - prev + 1);
        rx_append(p, RX_FORK, prev - count);
        return NULL;
    case '+':
        if (prev < 0) return "'+' without operand";
        rx_append(p, RX_FORK, prev - count);
        return NULL;
    case '?':
        if (prev < 0) return "'?' without operand";
        rx_insert(p, prev, RX_FORK, count - prev + 1);
        return NULL;
    default:
        if (prev < 0) return "'{m,n}' without operand";
        return rx_repeat(p, prev);
    }
}

/** One item: a group, '.', '$', '^', a class, an escape or a literal character. */
static const char *rx_item(rx_compiler *p, unsigned c) {
    switch (c) {
    case '(': {
        const char *error = rx_alternation(p);
        if (error != NULL) return error;
        if (rx_peek(p) != ')') return "unmatched '('";
        p->pos++;
        return NULL;
    }
    case '.':
        if (rx_peek(p) == '*') {
            rx_append(p, RX_ANYSTAR, 0);
            p->pos++;
        } else {
            rx_append(p, RX_ANY, 0);
        }
        return NULL;
    case '$': rx_append(p, RX_MATCH, 0); return NULL;
    case '^': rx_append(p, RX_AT_START, 0); return NULL;
    case '[': return rx_class(p);
    case '\\': rx_backslash(p); return NULL;
    default: rx_append(p, RX_MATCH, (int)c); return NULL;
    }
}

/** A sequence of items up to '|', ')' or the end. A postfix operator applies to what the
 *  previous step (item or operator) started, as in the shell's compiler. */
static const char *rx_sequence(rx_compiler *p) {
    int prev = -1;
    unsigned c;
    while ((c = rx_next(p)) != 0) {
        int start = (int)p->re->count;
        const char *error;
        if (c == '|' || c == ')') {
            p->pos--;
            return NULL;
        }
        if (c == '*' || c == '+' || c == '?' || c == '{') error = rx_postfix(p, c, prev);
        else error = rx_item(p, c);
        if (error != NULL) return error;
        if (p->out_of_memory) return "out of memory";
        prev = start;
    }
    return NULL;
}

/** Alternatives X|Y|...: each earlier part wrapped in a FORK to the next and a GOTO to the end. */
static const char *rx_alternation(rx_compiler *p) {
    int start = (int)p->re->count;
    const char *error = rx_sequence(p);
    if (error != NULL) return error;
    while (rx_peek(p) == '|') {
        int end = (int)p->re->count;
        rx_insert(p, start, RX_FORK, end + 2 - start);
        int jump = rx_append(p, RX_GOTO, 0);
        p->pos++;
        error = rx_sequence(p);
        if (error != NULL) return error;
        if (p->out_of_memory) return "out of memory";
        p->re->args[jump] = (int)p->re->count - jump;
    }
    return NULL;
}

/** Encodes code point x as UTF-8 into out; the byte count, or 0 beyond U+FFFF. */
static int rx_encode(unsigned x, unsigned char *out) {
    if (x <= 0x7f) { out[0] = (unsigned char)x; return 1; }
    if (x <= 0x7ff) { out[0] = (unsigned char)(0xc0 | (x >> 6)); out[1] = (unsigned char)(0x80 | (x & 0x3f)); return 2; }
    if (x > 0xffff) return 0;
    out[0] = (unsigned char)(0xe0 | (x >> 12));
    out[1] = (unsigned char)(0x80 | ((x >> 6) & 0x3f));
    out[2] = (unsigned char)(0x80 | (x & 0x3f));
    return 3;
}

/** Records the literal characters right after a leading .* as a byte prefix to search for
 *  (case-sensitive patterns only; at most 10 bytes are started; a final NUL is dropped). */
static void rx_find_prefix(shipyard_regexp *re) {
    int j = 0;
    if (re->ops[0] != RX_ANYSTAR || re->ignore_case) return;
    for (unsigned i = 1; j < (int)sizeof(re->prefix) - 2 && re->ops[i] == RX_MATCH; i++) {
        int n = rx_encode((unsigned)re->args[i], re->prefix + j);
        if (n == 0) break;
        j += n;
    }
    if (j > 0 && re->prefix[j - 1] == 0) j--;
    re->prefix_length = j;
}

/** Frees a compiled pattern. */
void shipyard_regexp_free(void *pointer) {
    shipyard_regexp *re = pointer;
    if (re == NULL) return;
    sqlite3_free(re->ops);
    sqlite3_free(re->args);
    sqlite3_free(re);
}

/** Compiles `pattern`: a leading '^' anchors it, otherwise it is preceded by .*; the whole
 *  pattern must be consumed ("unrecognized character" for a stray ')'). */
const char *shipyard_regexp_compile(shipyard_regexp **out, const char *pattern, int ignore_case) {
    rx_compiler p = {0};
    const char *error;
    *out = NULL;
    p.re = sqlite3_malloc(sizeof(*p.re));
    if (p.re == NULL) return "out of memory";
    memset(p.re, 0, sizeof(*p.re));
    p.re->ignore_case = ignore_case;
    if (rx_reserve(&p, 30)) {
        shipyard_regexp_free(p.re);
        return "out of memory";
    }
    if (pattern[0] == '^') pattern++;
    else rx_append(&p, RX_ANYSTAR, 0);
    p.pattern = (const unsigned char *)pattern;
    p.length = (int)strlen(pattern);
    error = rx_alternation(&p);
    if (error == NULL && p.pos < p.length) error = "unrecognized character";
    if (error == NULL) rx_append(&p, RX_ACCEPT, 0);
    if (error == NULL && p.out_of_memory) error = "out of memory";
    if (error == NULL) error = p.deferred_error;
    if (error != NULL) {
        shipyard_regexp_free(p.re);
        return error;
    }
    rx_find_prefix(p.re);
    *out = p.re;
    return NULL;
}
