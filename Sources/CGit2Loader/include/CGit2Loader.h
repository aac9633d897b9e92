#ifndef SHIPYARD_CGIT2_LOADER_H
#define SHIPYARD_CGIT2_LOADER_H
// libgit2, opened with dlopen at its first call on Linux, so that a versionstamp command that
// reads no repository (--version, --help, a format check) never maps libgit2 and the seventeen
// libraries it links (OpenSSL, mbedTLS, Kerberos, libssh2, ...). Git2Functions.c defines every
// libgit2 function Shipyard calls, each calling the library's own; Swift imports CGit2 as before.

// Opens libgit2 (once) and returns NULL, or why it cannot be opened: the library is missing or
// lacks a function. GitLibrary calls it before any other libgit2 function.
const char *shipyard_git2_load_failure(void);

// Makes the libgit2 this process opens load no CA bundle: Debian's libgit2 (built with mbedTLS)
// parses every certificate of /etc/ssl/certs at git_libgit2_init, for HTTPS that versionstamp,
// which opens no connection, never makes. Its references to mbedTLS's two certificate loaders
// are pointed at functions that load nothing, so a TLS connection made through it would fail its
// certificate check. Call it before the first libgit2 call; the versionstamp executable does.
void shipyard_git2_skip_certificate_loading(void);
#endif
