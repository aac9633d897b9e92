#ifndef SHIPYARD_VALUE_REGEXP_H
#define SHIPYARD_VALUE_REGEXP_H
/*
 * The regular-expression language of the sqlite3 3.40.1 shell's regexp() function, compiled
 * to a small NFA program (value_regexp_compile.c) and run over UTF-8 text without
 * backtracking (value_regexp.c). The program's shape follows the shell's compiler, because a
 * few of the shell's results (a quantifier after a quantifier, '$' followed by an optional
 * item) depend on it.
 */
#include <sqlite3.h>

/* Instructions. Each has one integer argument. */
enum {
    RX_MATCH = 1,   /* the character in arg (0 is the end of the input) */
    RX_ANY,         /* any character except the end */
    RX_ANYSTAR,     /* .* */
    RX_FORK,        /* continue both here+1 and here+arg */
    RX_GOTO,        /* continue at here+arg */
    RX_ACCEPT,      /* match found */
    RX_CLASS,       /* [...]: arg instructions (this one included), then continue after them */
    RX_NOT_CLASS,   /* [^...] */
    RX_CLASS_VALUE, /* one character of a class */
    RX_CLASS_RANGE, /* two of these: low, high */
    RX_WORD,        /* \w */
    RX_NOT_WORD,    /* \W */
    RX_DIGIT,       /* \d */
    RX_NOT_DIGIT,   /* \D */
    RX_SPACE,       /* \s */
    RX_NOT_SPACE,   /* \S */
    RX_BOUNDARY,    /* \b */
    RX_AT_START     /* ^ not at the start of the pattern */
};

/* The value of the "previous character" before the first one. */
#define RX_START_OF_INPUT 0xfffffff

typedef struct shipyard_regexp {
    unsigned char *ops;
    int *args;
    unsigned count;
    unsigned capacity;
    int ignore_case;
    unsigned char prefix[12]; /* UTF-8 bytes every match must start with (case-sensitive only) */
    int prefix_length;
} shipyard_regexp;

/* Compiles a NUL-terminated pattern. Returns NULL and sets *out, or the shell's error
 * message (a static string); on error *out is NULL. */
const char *shipyard_regexp_compile(shipyard_regexp **out, const char *pattern, int ignore_case);
/* Frees a compiled pattern (NULL is fine). */
void shipyard_regexp_free(void *re);
/* Decodes the next UTF-8 character at text[*i] (before `length`), advancing *i; 0 at the end.
 * Malformed, overlong and surrogate sequences give U+FFFD. A-Z are lowered if ignore_case. */
unsigned shipyard_regexp_next_char(const unsigned char *text, int *i, int length, int ignore_case);
/* 1 if the NUL-terminated `text` contains a match, 0 if not, -1 when out of memory. */
int shipyard_regexp_match(const shipyard_regexp *re, const unsigned char *text);

#endif
