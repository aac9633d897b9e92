#include "file_extensions_internal.h"

#include <string.h>

/*
 * Reading a zip archive's central directory the way the shell's zipfile table does, from
 * a file or from a BLOB, with every read bounds-checked.
 */

/** Reads `n` bytes at `offset` from the file or the BLOB copy; short reads fail. */
int zip_source_read(zip_source *source, sqlite3_int64 offset, int n, unsigned char *out, char **error) {
    if (n <= 0) return SQLITE_OK;
    if (source->blob != NULL || source->file == NULL) {
        if (offset < 0 || offset + n > source->size) goto short_read;
        memcpy(out, source->blob + offset, (size_t)n);
        return SQLITE_OK;
    }
    if (fseek(source->file, (long)offset, SEEK_SET) != 0) goto short_read;
    if (fread(out, 1, (size_t)n, source->file) == (size_t)n) return SQLITE_OK;
short_read:
    sqlite3_free(*error);
    *error = sqlite3_mprintf("error in fread()");
    return SQLITE_ERROR;
}

/** Scans the last 64 KiB backwards for the end record (an empty file has no entries). */
int zip_read_eocd(zip_source *source, zip_eocd *eocd, char **error) {
    memset(eocd, 0, sizeof(*eocd));
    if (source->file != NULL && source->size == 0) return SQLITE_OK; /* an empty file: no entries */
    int n = (int)(source->size < ZIP_TAIL_SCAN_SIZE ? source->size : ZIP_TAIL_SCAN_SIZE);
    unsigned char *tail = sqlite3_malloc(n > 0 ? n : 1);
    if (tail == NULL) return SQLITE_NOMEM;
    int rc = zip_source_read(source, source->size - n, n, tail, error);
    if (rc == SQLITE_OK) {
        int i = n - 20;
        while (i >= 0 && zip_get32(&tail[i]) != ZIP_SIGNATURE_EOCD) i--;
        if (i < 0) {
            sqlite3_free(*error);
            *error = sqlite3_mprintf("cannot find end of central directory record");
            rc = SQLITE_ERROR;
        } else {
            /* 20 bytes follow the signature's position at most: the fields end at i + 20. */
            eocd->entry_count = zip_get16(&tail[i + 8]);
            eocd->directory_size = zip_get32(&tail[i + 12]);
            eocd->directory_offset = zip_get32(&tail[i + 16]);
        }
    }
    sqlite3_free(tail);
    return rc;
}

/** Frees an entry and its name. */
void zip_entry_free(zip_entry *entry) {
    if (entry == NULL) return;
    sqlite3_free(entry->name);
    sqlite3_free(entry);
}

/** Decodes the fixed part of a central-directory record. */
static void decode_cds(const unsigned char *p, zip_entry *entry) {
    entry->version_made_by = zip_get16(p + 4);
    entry->version_extract = zip_get16(p + 6);
    entry->flags = zip_get16(p + 8);
    entry->method = zip_get16(p + 10);
    entry->dos_time = zip_get16(p + 12);
    entry->dos_date = zip_get16(p + 14);
    entry->crc32 = zip_get32(p + 16);
    entry->compressed_size = zip_get32(p + 20);
    entry->uncompressed_size = zip_get32(p + 24);
    entry->name_length = zip_get16(p + 28);
    entry->extra_length = zip_get16(p + 30);
    entry->comment_length = zip_get16(p + 32);
    entry->disk_start = zip_get16(p + 34);
    entry->internal_attributes = zip_get16(p + 36);
    entry->external_attributes = zip_get32(p + 38);
    entry->local_header_offset = zip_get32(p + 42);
}

/** Finds the modification time in an extended-timestamp (0x5455) extra field; 0 if none. */
static int scan_extra_mtime(const unsigned char *extra, int size, uint32_t *mtime) {
    int found = 0;
    int at = 0;
    while (at + 4 <= size) {
        uint16_t id = zip_get16(extra + at);
        uint16_t length = zip_get16(extra + at + 2);
        at += 4;
        if (id == ZIP_EXTRA_TIMESTAMP && at + 5 <= size && (extra[at] & 0x01)) {
            *mtime = zip_get32(extra + at + 1);
            found = 1;
        }
        at += length;
    }
    return found;
}

/** Reads the variable part (name, extra) of the record at `offset` into `entry`. */
static int read_cds_names(zip_source *source, sqlite3_int64 offset, zip_entry *entry, char **error) {
    int size = entry->name_length + entry->extra_length + entry->comment_length;
    unsigned char *buffer = sqlite3_malloc(size > 0 ? size : 1);
    if (buffer == NULL) return SQLITE_NOMEM;
    int rc = zip_source_read(source, offset + ZIP_CDS_FIXED_SIZE, size, buffer, error);
    if (rc == SQLITE_OK) {
        entry->name = sqlite3_mprintf("%.*s", (int)entry->name_length, (const char *)buffer);
        if (entry->name == NULL) rc = SQLITE_NOMEM;
        else if (!scan_extra_mtime(buffer + entry->name_length, entry->extra_length, &entry->unix_mtime)) {
            entry->unix_mtime = zip_dos_to_unix(entry->dos_time, entry->dos_date);
        }
    }
    sqlite3_free(buffer);
    return rc;
}

/** Reads the local header of `entry` to find where its data starts (any failure is
 *  reported as the shell does, as an unreadable LFH). */
static int read_local_header(zip_source *source, zip_entry *entry, char **error) {
    unsigned char header[ZIP_LFH_FIXED_SIZE];
    int rc = zip_source_read(source, entry->local_header_offset, ZIP_LFH_FIXED_SIZE, header, error);
    if (rc != SQLITE_OK || zip_get32(header) != ZIP_SIGNATURE_LFH) {
        sqlite3_free(*error);
        *error = sqlite3_mprintf("failed to read LFH at offset %d", (int)entry->local_header_offset);
        return SQLITE_ERROR;
    }
    entry->data_offset = (sqlite3_int64)entry->local_header_offset + ZIP_LFH_FIXED_SIZE
        + zip_get16(header + 26) + zip_get16(header + 28);
    return SQLITE_OK;
}

/** Decodes the central-directory record at `offset`, its name, mtime and data offset. */
int zip_read_entry(zip_source *source, sqlite3_int64 offset, zip_entry **out, char **error) {
    unsigned char fixed[ZIP_CDS_FIXED_SIZE];
    int rc = zip_source_read(source, offset, ZIP_CDS_FIXED_SIZE, fixed, error);
    if (rc != SQLITE_OK) return rc;
    zip_entry *entry = sqlite3_malloc(sizeof(*entry));
    if (entry == NULL) return SQLITE_NOMEM;
    memset(entry, 0, sizeof(*entry));
    if (zip_get32(fixed) != ZIP_SIGNATURE_CDS) {
        sqlite3_free(*error);
        *error = sqlite3_mprintf("failed to read CDS at offset %lld", offset);
        rc = SQLITE_ERROR;
    } else {
        decode_cds(fixed, entry);
        rc = read_cds_names(source, offset, entry, error);
        if (rc == SQLITE_OK) rc = read_local_header(source, entry, error);
    }
    if (rc != SQLITE_OK) {
        zip_entry_free(entry);
        return rc;
    }
    *out = entry;
    return SQLITE_OK;
}
