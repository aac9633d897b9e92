#include "file_extensions_internal.h"

#include <string.h>
#include <zlib.h>

/*
 * Zip primitives shared by the zipfile table and the zipfile() aggregate: little-endian
 * fields, DOS timestamps (converted with the shell's Julian-day arithmetic so that odd
 * values round the same way), raw deflate and inflate with zlib.
 */

/** A little-endian 16-bit field. */
uint16_t zip_get16(const unsigned char *p) {
    return (uint16_t)(p[0] | (p[1] << 8));
}

/** A little-endian 32-bit field. */
uint32_t zip_get32(const unsigned char *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/** Stores a little-endian 16-bit field. */
void zip_put16(unsigned char *p, uint16_t value) {
    p[0] = (unsigned char)(value & 0xff);
    p[1] = (unsigned char)(value >> 8);
}

/** Stores a little-endian 32-bit field. */
void zip_put32(unsigned char *p, uint32_t value) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)((value >> (8 * i)) & 0xff);
}

/** DOS date and time to UNIX time, with the shell's Julian-day arithmetic (see the header). */
uint32_t zip_dos_to_unix(uint16_t dos_time, uint16_t dos_date) {
    int year = 1980 + ((dos_date >> 9) & 0x7f);
    int month = (dos_date >> 5) & 0x0f;
    int day = dos_date & 0x1f;
    int seconds = (dos_time & 0x1f) * 2;
    int minutes = (dos_time >> 5) & 0x3f;
    int hours = (dos_time >> 11) & 0x1f;
    if (month <= 2) {
        year -= 1;
        month += 12;
    }
    /* Julian day number (Meeus), then seconds since the UNIX epoch. */
    int year_days = 36525 * (year + 4716) / 100;
    int month_days = 306001 * (month + 1) / 10000;
    int century = year / 100;
    int gregorian = 2 - century + (century / 4);
    sqlite3_int64 julian_seconds = (sqlite3_int64)((year_days + month_days + day + gregorian - 1524.5) * 86400)
        + hours * 3600 + minutes * 60 + seconds;
    return (uint32_t)(julian_seconds - (sqlite3_int64)24405875 * (sqlite3_int64)8640);
}

/** UNIX time to DOS date and time (zero before 1980), as the shell computes them. */
void zip_unix_to_dos(uint32_t unix_time, uint16_t *dos_time, uint16_t *dos_date) {
    sqlite3_int64 julian_day = (sqlite3_int64)2440588 + unix_time / (24 * 60 * 60);
    int alpha = (int)((julian_day - 1867216.25) / 36524.25);
    int a = (int)(julian_day + 1 + alpha - (alpha / 4));
    int b = a + 1524;
    int c = (int)((b - 122.1) / 365.25);
    int d = (36525 * (c & 32767)) / 100;
    int e = (int)((b - d) / 30.6001);
    int day = b - d - (int)(30.6001 * e);
    int month = e < 14 ? e - 1 : e - 13;
    int year = month > 2 ? c - 4716 : c - 4715;
    int hours = (int)((unix_time % (24 * 60 * 60)) / (60 * 60));
    int minutes = (int)((unix_time % (60 * 60)) / 60);
    int seconds = (int)(unix_time % 60);
    if (year >= 1980) {
        *dos_date = (uint16_t)(day + (month << 5) + ((year - 1980) << 9));
        *dos_time = (uint16_t)(seconds / 2 + (minutes << 5) + (hours << 11));
    } else {
        *dos_date = 0;
        *dos_time = 0;
    }
}

/** The current time, from the default VFS as the shell takes it. */
uint32_t zip_current_time(void) {
    sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
    if (vfs == NULL) return 0;
    if (vfs->iVersion >= 2 && vfs->xCurrentTimeInt64) {
        sqlite3_int64 milliseconds = 0;
        vfs->xCurrentTimeInt64(vfs, &milliseconds);
        return (uint32_t)((milliseconds / 1000) - ((sqlite3_int64)24405875 * 8640));
    }
    double day = 0;
    vfs->xCurrentTime(vfs, &day);
    return (uint32_t)((day - 2440587.5) * 86400);
}

/** Raw deflate (level 9, window 15, memLevel 8): the shell's settings, hence its bytes. */
int zip_deflate(const unsigned char *in, int size, unsigned char **out, int *out_size, char **error) {
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    stream.next_in = (Bytef *)in;
    stream.avail_in = (uInt)size;
    if (deflateInit2(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        *error = sqlite3_mprintf("zipfile: deflate() error");
        return SQLITE_ERROR;
    }
    uLong bound = deflateBound(&stream, (uLong)size);
    unsigned char *buffer = sqlite3_malloc64(bound);
    int rc = SQLITE_OK;
    if (buffer == NULL) {
        rc = SQLITE_NOMEM;
    } else {
        stream.next_out = buffer;
        stream.avail_out = (uInt)bound;
        if (deflate(&stream, Z_FINISH) == Z_STREAM_END) {
            *out = buffer;
            *out_size = (int)stream.total_out;
        } else {
            sqlite3_free(buffer);
            *error = sqlite3_mprintf("zipfile: deflate() error");
            rc = SQLITE_ERROR;
        }
    }
    deflateEnd(&stream);
    return rc;
}

/** Raw inflate in one call, failing unless the stream ends exactly (the shell's messages). */
void zip_inflate_result(sqlite3_context *ctx, const unsigned char *in, int size, int out_size) {
    unsigned char *buffer = sqlite3_malloc(out_size);
    if (buffer == NULL) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    memset(buffer, 0, (size_t)out_size); /* a stream shorter than its recorded size ends in zeros */
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    stream.next_in = (Bytef *)in;
    stream.avail_in = (uInt)size;
    stream.next_out = buffer;
    stream.avail_out = (uInt)out_size;
    int status = inflateInit2(&stream, -15);
    if (status != Z_OK) {
        char *message = sqlite3_mprintf("inflateInit2() failed (%d)", status);
        sqlite3_result_error(ctx, message, -1);
        sqlite3_free(message);
    } else if ((status = inflate(&stream, Z_NO_FLUSH)) != Z_STREAM_END) {
        char *message = sqlite3_mprintf("inflate() failed (%d)", status);
        sqlite3_result_error(ctx, message, -1);
        sqlite3_free(message);
    } else {
        sqlite3_result_blob(ctx, buffer, out_size, sqlite3_free);
        buffer = NULL;
    }
    sqlite3_free(buffer);
    inflateEnd(&stream);
}
