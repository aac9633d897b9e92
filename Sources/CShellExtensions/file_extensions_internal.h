#ifndef SHIPYARD_FILE_EXTENSIONS_INTERNAL_H
#define SHIPYARD_FILE_EXTENSIONS_INTERNAL_H
/*
 * Private declarations shared by the file and archive extensions (file_*.c, zip_*.c):
 * path resolution against the host's base directory, input recording, whole-file reads,
 * and one registration entry point per concept.
 */
#include "shell_extensions.h"
#include <stdint.h>

/** Returns `path` resolved against `environment->base_directory` (a new sqlite3_malloc'd
 *  string): absolute or empty paths, or a NULL base directory, leave it unchanged.
 *  Returns NULL when out of memory. */
char *shipyard_file_resolve(const shipyard_shell_environment *environment, const char *path);

/** Tells the host (when it asked to know) that the file at `resolved_path` was read. */
void shipyard_file_record(const shipyard_shell_environment *environment, const char *resolved_path);

/** Sets the result of `ctx` to the bytes of the file at `resolved_path` as a BLOB, exactly as
 *  the shell does: NULL when it cannot be opened, SQLITE_TOOBIG beyond the length limit,
 *  SQLITE_IOERR on a short read. Records the file as an input when its bytes are returned. */
void shipyard_file_result_contents(sqlite3_context *ctx, const shipyard_shell_environment *environment,
                                   const char *resolved_path);

/** readfile, writefile, edit, lsmode, usleep (file_fileio.c). */
int shipyard_register_fileio(sqlite3 *db, shipyard_shell_environment *environment);
/** The fsdir eponymous virtual table (file_fsdir.c). */
int shipyard_register_fsdir(sqlite3 *db, shipyard_shell_environment *environment);
/** The zipfile virtual table and zipfile_cds (zip_zipfile.c). */
int shipyard_register_zipfile_table(sqlite3 *db, shipyard_shell_environment *environment);
/** The zipfile() aggregate (zip_aggregate.c). */
int shipyard_register_zipfile_aggregate(sqlite3 *db);
/** sqlar_compress, sqlar_uncompress (zip_sqlar.c). */
int shipyard_register_sqlar(sqlite3 *db);
/** The completion eponymous virtual table (file_completion.c). */
int shipyard_register_completion(sqlite3 *db);

#endif

/* ---- Zip archives (zip_format.c, zip_reader.c) ---- */
#include <stdio.h>

#define ZIP_SIGNATURE_CDS 0x02014b50u
#define ZIP_SIGNATURE_LFH 0x04034b50u
#define ZIP_SIGNATURE_EOCD 0x06054b50u
#define ZIP_CDS_FIXED_SIZE 46
#define ZIP_LFH_FIXED_SIZE 30
#define ZIP_EOCD_FIXED_SIZE 22
#define ZIP_EXTRA_TIMESTAMP 0x5455
#define ZIP_TAIL_SCAN_SIZE (64 * 1024)

/** The end-of-central-directory record's fields that matter. */
typedef struct zip_eocd {
    uint16_t entry_count;
    uint32_t directory_size;
    uint32_t directory_offset;
} zip_eocd;

/** One central-directory record, decoded. */
typedef struct zip_entry {
    uint16_t version_made_by, version_extract, flags, method, dos_time, dos_date;
    uint32_t crc32, compressed_size, uncompressed_size;
    uint16_t name_length, extra_length, comment_length, disk_start, internal_attributes;
    uint32_t external_attributes, local_header_offset;
    char *name;               /* sqlite3_malloc'd, stops at the first NUL as the shell's */
    uint32_t unix_mtime;      /* from the 0x5455 extra field, else the DOS date and time */
    sqlite3_int64 data_offset;
} zip_entry;

/** Where an archive's bytes come from: an open file, or a private copy of a BLOB. */
typedef struct zip_source {
    FILE *file;
    unsigned char *blob;
    sqlite3_int64 size;
} zip_source;

uint16_t zip_get16(const unsigned char *p);
uint32_t zip_get32(const unsigned char *p);
void zip_put16(unsigned char *p, uint16_t value);
void zip_put32(unsigned char *p, uint32_t value);
/** The UNIX time of a DOS date and time, computed as the shell does. */
uint32_t zip_dos_to_unix(uint16_t dos_time, uint16_t dos_date);
/** The DOS date and time of a UNIX time (both 0 before 1980), as the shell computes them. */
void zip_unix_to_dos(uint32_t unix_time, uint16_t *dos_time, uint16_t *dos_date);
/** The current UNIX time from the default VFS, as a 32-bit value. */
uint32_t zip_current_time(void);
/** Raw-deflates `size` bytes at level 9 into a new sqlite3_malloc'd buffer. */
int zip_deflate(const unsigned char *in, int size, unsigned char **out, int *out_size, char **error);
/** Sets the result of `ctx` to the raw-inflated `in`, expected to be `out_size` bytes. */
void zip_inflate_result(sqlite3_context *ctx, const unsigned char *in, int size, int out_size);

/** Reads `n` bytes at `offset` of the source into `out` ("error in fread()" when short). */
int zip_source_read(zip_source *source, sqlite3_int64 offset, int n, unsigned char *out, char **error);
/** Finds and decodes the end-of-central-directory record, as the shell does. */
int zip_read_eocd(zip_source *source, zip_eocd *eocd, char **error);
/** Decodes the central-directory record at `offset` and its local header. */
int zip_read_entry(zip_source *source, sqlite3_int64 offset, zip_entry **entry, char **error);
/** Frees an entry from zip_read_entry (NULL is fine). */
void zip_entry_free(zip_entry *entry);
