#ifndef SHIPYARD_VALUE_DBDATA_H
#define SHIPYARD_VALUE_DBDATA_H
/*
 * The sqlite_dbdata and sqlite_dbptr eponymous virtual tables of the sqlite3 3.40.1 shell:
 * b-tree pages read through sqlite_dbpage(SCHEMA) (or, when SCHEMA is "f()", through the
 * SQL function f: f(0) is the page count, f(N) page N), decoded without the b-tree layer.
 * value_dbdata.c has the module, value_dbdata_cursor.c the page walking.
 */
#include <sqlite3.h>

/* The table: which of the two it is, and a page-reading statement kept between scans. */
typedef struct dbdata_table {
    sqlite3_vtab base;
    sqlite3 *db;
    sqlite3_stmt *stmt;
    int pointers; /* 1 for sqlite_dbptr */
} dbdata_table;

/* A scan. Offsets into `page` and `record` stand for the shell's pointers. */
typedef struct dbdata_cursor {
    sqlite3_vtab_cursor base;
    sqlite3_stmt *stmt;        /* reads one page: ?1 schema, ?2 page number */
    int pgno;                  /* current page */
    unsigned char *page;       /* its bytes (plus 100 zero bytes), NULL at EOF */
    int page_size;
    int cell_count;
    int cell;
    int one_page;              /* a pgno= constraint: stop after that page */
    int db_pages;              /* page count when scanning the whole database */
    sqlite3_int64 rowid;
    unsigned char *record;     /* the current cell's payload (plus 100 zero bytes) */
    sqlite3_int64 record_capacity;
    sqlite3_int64 record_length; /* 0: no record loaded */
    sqlite3_int64 header_length;
    sqlite3_int64 header_at;   /* offset of the current field's type in the header */
    sqlite3_int64 data_at;     /* offset of the current field's data */
    int field;                 /* -1 for the rowid of a table b-tree */
    unsigned encoding;         /* from page 1's header: 1 UTF-8, 2 UTF-16le, 3 UTF-16be */
    sqlite3_int64 intkey;
} dbdata_cursor;

/* Moves to the next row (xNext). */
int shipyard_dbdata_next(sqlite3_vtab_cursor *cursor);
/* Reads page pgno with the cursor's statement into a new buffer (NULL if absent). */
int shipyard_dbdata_load_page(dbdata_cursor *c, unsigned pgno, unsigned char **page, int *size);
/* Sets a field's value from its serial type and data (`readable` bytes of record left there). */
void shipyard_dbdata_value(sqlite3_context *context, unsigned encoding, int type, const unsigned char *data, sqlite3_int64 readable);
/* Reads a varint at z into *v; returns its length. */
int shipyard_dbdata_varint(const unsigned char *z, sqlite3_int64 *v);
/* Like shipyard_dbdata_varint but values outside 0..0xffffffff read as 0. */
int shipyard_dbdata_varint32(const unsigned char *z, sqlite3_int64 *v);
/* Big-endian 16- and 32-bit unsigned integers. */
unsigned shipyard_dbdata_u16(const unsigned char *a);
unsigned shipyard_dbdata_u32(const unsigned char *a);

#endif
