/*
 * Walking the pages of sqlite_dbdata and sqlite_dbptr: cells of b-tree pages, the fields
 * of each cell's record (overflow pages followed), child pointers of interior pages. Like
 * the shell's, it never reports corruption: it stops reading what does not make sense.
 */
#include <string.h>
#include "value_dbdata.h"

#define DBDATA_PADDING 100
#define DBDATA_MAX_FIELDS 32676

/** Big-endian 16-bit unsigned integer. */
unsigned shipyard_dbdata_u16(const unsigned char *a) {
    return (unsigned)(a[0] << 8) | a[1];
}

/** Big-endian 32-bit unsigned integer. */
unsigned shipyard_dbdata_u32(const unsigned char *a) {
    return ((unsigned)a[0] << 24) | ((unsigned)a[1] << 16) | ((unsigned)a[2] << 8) | a[3];
}

/** SQLite's varint: up to 8 bytes of 7 bits, a 9th of 8 bits. */
int shipyard_dbdata_varint(const unsigned char *z, sqlite3_int64 *v) {
    sqlite3_uint64 u = 0;
    for (int i = 0; i < 8; i++) {
        u = (u << 7) + (z[i] & 0x7f);
        if ((z[i] & 0x80) == 0) {
            *v = (sqlite3_int64)u;
            return i + 1;
        }
    }
    *v = (sqlite3_int64)((u << 8) + z[8]);
    return 9;
}

/** A varint that must fit 32 unsigned bits; anything else reads as 0. */
int shipyard_dbdata_varint32(const unsigned char *z, sqlite3_int64 *v) {
    int n = shipyard_dbdata_varint(z, v);
    if (*v < 0 || *v > 0xFFFFFFFF) *v = 0;
    return n;
}

/** Bytes of data a serial type takes. */
static int dbdata_type_size(int type) {
    static const int fixed[12] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0};
    if (type < 0) return 0;
    return type < 12 ? fixed[type] : (type - 12) / 2;
}

/** Reads page pgno (page number 0 is never read). Adds 100 zero bytes after the page. */
int shipyard_dbdata_load_page(dbdata_cursor *c, unsigned pgno, unsigned char **page, int *size) {
    int rc = SQLITE_OK;
    *page = NULL;
    *size = 0;
    if (pgno == 0) return SQLITE_OK;
    sqlite3_bind_int64(c->stmt, 2, pgno);
    if (sqlite3_step(c->stmt) == SQLITE_ROW) {
        int n = sqlite3_column_bytes(c->stmt, 0);
        if (n > 0) {
            unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)n + DBDATA_PADDING);
            if (copy == NULL) {
                rc = SQLITE_NOMEM;
            } else {
                memcpy(copy, sqlite3_column_blob(c->stmt, 0), (size_t)n);
                memset(copy + n, 0, DBDATA_PADDING);
            }
            *page = copy;
            *size = n;
        }
    }
    int reset = sqlite3_reset(c->stmt);
    return rc == SQLITE_OK ? reset : rc;
}

/** Sets a value from `data`, which holds at least what the serial type needs. */
static void dbdata_set_value(sqlite3_context *context, unsigned encoding, int type, const unsigned char *data) {
    if (type == 0 || type == 10 || type == 11) {
        sqlite3_result_null(context);
    } else if (type == 8 || type == 9) {
        sqlite3_result_int(context, type - 8);
    } else if (type <= 7) {
        sqlite3_uint64 v = (sqlite3_uint64)(sqlite3_int64)(signed char)data[0];
        for (int i = 1; i < dbdata_type_size(type); i++) v = (v << 8) + data[i];
        if (type == 7) {
            double r;
            memcpy(&r, &v, sizeof(r));
            sqlite3_result_double(context, r);
        } else {
            sqlite3_result_int64(context, (sqlite3_int64)v);
        }
    } else if (type % 2 == 0) {
        sqlite3_result_blob(context, data, (type - 12) / 2, SQLITE_TRANSIENT);
    } else if (encoding == SQLITE_UTF16BE) {
        sqlite3_result_text16be(context, data, (type - 12) / 2, SQLITE_TRANSIENT);
    } else if (encoding == SQLITE_UTF16LE) {
        sqlite3_result_text16le(context, data, (type - 12) / 2, SQLITE_TRANSIENT);
    } else {
        sqlite3_result_text(context, (const char *)data, (type - 12) / 2, SQLITE_TRANSIENT);
    }
}

/** Sets the value of a field: NULL, 0, 1, integers of 1-8 bytes, a real, text or a blob;
 *  NULL when fewer than the type's bytes are left in the record. (On such corrupt records
 *  the 3.40.1 shell reads past its buffer instead; this never does.) */
void shipyard_dbdata_value(sqlite3_context *context, unsigned encoding, int type, const unsigned char *data, sqlite3_int64 readable) {
    if (type >= 0 && dbdata_type_size(type) <= readable) dbdata_set_value(context, encoding, type, data);
}

/** Drops the current page; the next step reads page pgno+1 (or ends a one-page scan). 1 if the
 *  scan is over. */
static int dbdata_leave_page(dbdata_cursor *c) {
    sqlite3_free(c->page);
    c->page = NULL;
    c->record_length = 0;
    if (c->one_page) return 1;
    c->pgno++;
    return 0;
}

/** Loads the next page of at least 256 bytes (or ends the scan, leaving page NULL). `header`
 *  is where the b-tree header was expected before any too-small page was skipped (the shell
 *  keeps that offset). */
static int dbdata_enter_page(dbdata_cursor *c, int pointers, int header) {
    for (;;) {
        if (!c->one_page && c->pgno > c->db_pages) return SQLITE_OK;
        int rc = shipyard_dbdata_load_page(c, (unsigned)c->pgno, &c->page, &c->page_size);
        if (rc != SQLITE_OK) return rc;
        if (c->page != NULL && c->page_size >= 256) break;
        sqlite3_free(c->page);
        c->page = NULL;
        if (c->one_page) return SQLITE_OK;
        c->pgno++;
    }
    c->cell = pointers ? -2 : 0;
    c->cell_count = (int)shipyard_dbdata_u16(c->page + header + 3);
    return SQLITE_OK;
}

/** sqlite_dbptr: the right-child pointer (cell -1), then each cell of an interior page.
 *  Returns 1 when positioned on a row, 0 to move on, or -1 when the scan is over. */
static int dbdata_next_pointer(dbdata_cursor *c, int header) {
    if (c->page[header] != 0x02 && c->page[header] != 0x05) c->cell = c->cell_count;
    c->cell++;
    if (c->cell < c->cell_count) return 1;
    return dbdata_leave_page(c) ? -1 : 0;
}

/** How much of a payload of n bytes is on the b-tree page of size u (the rest overflows). */
static sqlite3_int64 dbdata_local_size(sqlite3_int64 n, int u, int has_rowid) {
    int x = has_rowid ? u - 35 : ((u - 12) * 64 / 255) - 23;
    if (n <= x) return n;
    int m = ((u - 12) * 32 / 255) - 23;
    sqlite3_int64 k = m + ((n - m) % (u - 4));
    return k <= x ? k : m;
}

/** Grows the record buffer to at least n bytes. */
static int dbdata_reserve(dbdata_cursor *c, sqlite3_int64 n) {
    if (n <= c->record_capacity) return SQLITE_OK;
    unsigned char *grown = sqlite3_realloc64(c->record, (sqlite3_uint64)n + 16384);
    if (grown == NULL) return SQLITE_NOMEM;
    c->record = grown;
    c->record_capacity = n + 16384;
    return SQLITE_OK;
}

/** Copies the overflow chain starting at page `next` after the first `local` payload bytes;
 *  returns how many bytes could not be found (the payload is cut short by that many). */
static int dbdata_read_overflow(dbdata_cursor *c, unsigned next, sqlite3_int64 payload, sqlite3_int64 *missing) {
    sqlite3_int64 remaining = *missing;
    while (remaining > 0) {
        unsigned char *page = NULL;
        int size = 0;
        int rc = shipyard_dbdata_load_page(c, next, &page, &size);
        if (rc != SQLITE_OK) return rc;
        if (page == NULL) break;
        sqlite3_int64 n = c->page_size - 4;
        if (n > remaining) n = remaining;
        if (n > size - 4 + DBDATA_PADDING) n = size - 4 + DBDATA_PADDING;
        if (n > 0) memcpy(c->record + (payload - remaining), page + 4, (size_t)n);
        remaining -= n > 0 ? n : remaining;
        next = shipyard_dbdata_u32(page);
        sqlite3_free(page);
    }
    *missing = remaining;
    return SQLITE_OK;
}

/** Reads the payload at page offset `at` (local part and overflow) and positions on its first
 *  field. Returns SQLITE_OK with *skip set when the local part does not fit the page. */
static int dbdata_load_payload(dbdata_cursor *c, int at, sqlite3_int64 payload, int has_rowid, int *skip) {
    sqlite3_int64 local = dbdata_local_size(payload, c->page_size, has_rowid);
    if (*skip || local + at > c->page_size) {
        *skip = 1;
        return SQLITE_OK;
    }
    int rc = dbdata_reserve(c, payload + DBDATA_PADDING);
    if (rc != SQLITE_OK) return rc;
    memcpy(c->record, c->page + at, (size_t)local);
    if (payload > local) {
        sqlite3_int64 missing = payload - local;
        rc = dbdata_read_overflow(c, shipyard_dbdata_u32(c->page + at + local), payload, &missing);
        if (rc != SQLITE_OK) return rc;
        payload -= missing;
    }
    memset(c->record + payload, 0, DBDATA_PADDING);
    c->record_length = payload;
    c->header_at = shipyard_dbdata_varint32(c->record, &c->header_length);
    if (c->header_length > payload) c->header_length = 0;
    c->data_at = c->header_length;
    c->field = has_rowid ? -1 : 0;
    return SQLITE_OK;
}

/** Loads the record of the current cell of a table/index b-tree page; *skip is set when the
 *  page has no (more) cells to read. */
static int dbdata_load_record(dbdata_cursor *c, int header, int *skip) {
    int pointer_size = 0, has_rowid = 0, at = header;
    sqlite3_int64 payload = 0;
    switch (c->page[header]) {
    case 0x02: pointer_size = 4; break;
    case 0x0a: break;
    case 0x0d: has_rowid = 1; break;
    default: c->cell = c->cell_count; break;
    }
    if (c->cell >= c->cell_count) {
        *skip = 1;
        return SQLITE_OK;
    }
    int cell_pointer = header + 8 + pointer_size + c->cell * 2;
    if (cell_pointer > c->page_size) *skip = 1;
    else at = (int)shipyard_dbdata_u16(c->page + cell_pointer);
    at += pointer_size;
    if (*skip || at > c->page_size) {
        *skip = 1;
    } else {
        at += shipyard_dbdata_varint32(c->page + at, &payload);
        if (payload > 0x7fffff00) payload &= 0x3fff;
        if (payload == 0) payload = 1;
    }
    if (has_rowid && !*skip && at < c->page_size) at += shipyard_dbdata_varint(c->page + at, &c->intkey);
    return dbdata_load_payload(c, at, payload, has_rowid, skip);
}

/** Moves to the next field of the loaded record (the type and data offsets advance). */
static void dbdata_advance_field(dbdata_cursor *c, int *skip) {
    c->field++;
    if (c->field <= 0) return;
    if (c->header_at >= c->record_length || c->field >= DBDATA_MAX_FIELDS) {
        *skip = 1;
        return;
    }
    sqlite3_int64 type;
    c->header_at += shipyard_dbdata_varint32(c->record + c->header_at, &type);
    c->data_at += dbdata_type_size((int)type); /* past the end: the remaining fields are NULL */
}

/** sqlite_dbdata: the next field of the current record, else the next cell, else the next
 *  page. Returns 1 on a row, 0 to continue, -1 at the end (*rc holds any error). */
static int dbdata_next_field(dbdata_cursor *c, int header, int *rc) {
    int skip = 0;
    if (c->record_length == 0) {
        *rc = dbdata_load_record(c, header, &skip);
        if (*rc != SQLITE_OK) return -1;
    } else {
        dbdata_advance_field(c, &skip);
    }
    if (skip) return dbdata_leave_page(c) ? -1 : 0;
    if (c->field < 0 || c->header_at < c->header_length) return 1;
    c->record_length = 0;
    c->cell++;
    return 0;
}

/** xNext: counts the row, then walks pages, cells and fields until a row or the end. */
int shipyard_dbdata_next(sqlite3_vtab_cursor *cursor) {
    dbdata_cursor *c = (dbdata_cursor *)cursor;
    int pointers = ((dbdata_table *)cursor->pVtab)->pointers;
    c->rowid++;
    for (;;) {
        int header = c->pgno == 1 ? 100 : 0;
        if (c->page == NULL) {
            int rc = dbdata_enter_page(c, pointers, header);
            if (rc != SQLITE_OK || c->page == NULL) return rc;
        }
        int rc = SQLITE_OK;
        int step = pointers ? dbdata_next_pointer(c, header) : dbdata_next_field(c, header, &rc);
        if (step != 0) return rc;
    }
}
