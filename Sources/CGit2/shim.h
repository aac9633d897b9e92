#ifndef SHIPYARD_CGIT2_SHIM_H
#define SHIPYARD_CGIT2_SHIM_H
#include <git2.h>
/* git_repository_set_index / set_odb: how versionstamp applies GIT_INDEX_FILE and
 * GIT_OBJECT_DIRECTORY to an opened repository (RepositoryEnvironment.swift). */
#include <git2/sys/repository.h>
/* zlib (libgit2 links it too): versionstamp inflates packed commits and trees itself. */
#include <zlib.h>

/*
 * git_libgit2_opts is variadic, which Swift cannot call: plain wrappers for the options
 * Shipyard sets.
 */

/* libgit2 re-hashes every object it reads unless told not to; git itself does not
 * (it verifies on fsck and transfer). Reading a revision is read-only, so skip it. */
static inline int shipyard_git_set_strict_hash_verification(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}

/* The repository extensions this libgit2 reads (GIT_OPT_GET_EXTENSIONS, 1.5 and later):
 * how versionstamp names the one that makes it refuse a repository (RepositoryExtensions.swift). */
static inline int shipyard_git_get_extensions(git_strarray *out) {
    return git_libgit2_opts(GIT_OPT_GET_EXTENSIONS, out);
}

/* inflateInit2 is a macro, which Swift cannot call. Raw deflate (no zlib header or
 * Adler-32 check): the caller skips the 2-byte header itself, as git's data never sets a
 * preset dictionary, and saves the checksum of every object read. */
static inline int shipyard_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
#endif
