// dlinfo and RTLD_DI_LINKMAP are GNU extensions.
#define _GNU_SOURCE
#include "CGit2Loader.h"

#if defined(__linux__)
#include "Git2Loader.h"
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// The library of the headers Shipyard was compiled against (Debian's libgit2-1.5 for 1.5).
#define SHIPYARD_GIT2_LIBRARY "libgit2.so." LIBGIT2_SOVERSION

static void *library;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#if __SIZEOF_POINTER__ == 8
#define RELOCATION_SYMBOL(info) ELF64_R_SYM(info)
#else
#define RELOCATION_SYMBOL(info) ELF32_R_SYM(info)
#endif

static int skipsCertificates;

// Stand in for mbedTLS's loaders of a CA bundle (a file, or a directory of certificates): load
// nothing and report that no certificate failed to parse.
static int loadNoCertificateFile(void *chain, const char *path) {
    (void)chain;
    (void)path;
    return 0;
}

static int loadNoCertificateDirectory(void *chain, const char *path) {
    (void)chain;
    (void)path;
    return 0;
}

// Points libgit2's own references to mbedTLS's certificate loaders (its GOT entries, resolved at
// dlopen: RTLD_NOW) at the functions above, before anything has called git_libgit2_init, which
// parses every certificate of the system's CA bundle for HTTPS a versionstamp never uses.
// Only the relocations of libgit2 itself change; a libgit2 built with OpenSSL has none of them.
static void redirectCertificateLoading(void *opened) {
    struct link_map *map = NULL;
    if (dlinfo(opened, RTLD_DI_LINKMAP, &map) != 0 || map == NULL) return;
    const ElfW(Sym) *symbols = NULL;
    const char *names = NULL;
    const ElfW(Rela) *tables[2] = {NULL, NULL};
    size_t sizes[2] = {0, 0};
    for (const ElfW(Dyn) *entry = map->l_ld; entry->d_tag != DT_NULL; entry++) {
        // glibc has relocated these addresses in place (the link map's dynamic section).
        switch (entry->d_tag) {
        case DT_SYMTAB: symbols = (const ElfW(Sym) *)entry->d_un.d_ptr; break;
        case DT_STRTAB: names = (const char *)entry->d_un.d_ptr; break;
        case DT_JMPREL: tables[0] = (const ElfW(Rela) *)entry->d_un.d_ptr; break;
        case DT_PLTRELSZ: sizes[0] = entry->d_un.d_val; break;
        case DT_RELA: tables[1] = (const ElfW(Rela) *)entry->d_un.d_ptr; break;
        case DT_RELASZ: sizes[1] = entry->d_un.d_val; break;
        default: break;
        }
    }
    if (symbols == NULL || names == NULL) return;
    long page = sysconf(_SC_PAGESIZE);
    for (int table = 0; table < 2; table++) {
        if (tables[table] == NULL) continue;
        for (size_t index = 0; index < sizes[table] / sizeof(ElfW(Rela)); index++) {
            const ElfW(Rela) *relocation = &tables[table][index];
            const char *name = names + symbols[RELOCATION_SYMBOL(relocation->r_info)].st_name;
            void *replacement = NULL;
            if (strcmp(name, "mbedtls_x509_crt_parse_file") == 0) replacement = (void *)loadNoCertificateFile;
            if (strcmp(name, "mbedtls_x509_crt_parse_path") == 0) replacement = (void *)loadNoCertificateDirectory;
            if (replacement == NULL) continue;
            void **slot = (void **)(map->l_addr + relocation->r_offset);
            void *start = (void *)((uintptr_t)slot & ~(uintptr_t)(page - 1));
            // The slot is read-only once relocated (RELRO): writable for the one store.
            if (mprotect(start, (size_t)page, PROT_READ | PROT_WRITE) != 0) continue;
            *slot = replacement;
            mprotect(start, (size_t)page, PROT_READ);
        }
    }
}

void shipyard_git2_skip_certificate_loading(void) { skipsCertificates = 1; }

static void load(void) {
    library = dlopen(SHIPYARD_GIT2_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "cannot load %s (Debian: apt-get install libgit2-%s): %s",
                 SHIPYARD_GIT2_LIBRARY, LIBGIT2_SOVERSION, why ? why : "not found");
        return;
    }
    if (skipsCertificates) redirectCertificateLoading(library);
}

const char *shipyard_git2_load_failure(void) {
    pthread_once(&once, load);
    return library == NULL ? failure : NULL;
}

void *shipyard_git2_symbol(const char *name) {
    const char *why = shipyard_git2_load_failure();
    void *found = why == NULL ? dlsym(library, name) : NULL;
    if (found == NULL) {
        if (why != NULL) {
            fprintf(stderr, "error: %s\n", why);
        } else {
            fprintf(stderr, "error: %s has no %s\n", SHIPYARD_GIT2_LIBRARY, name);
        }
        exit(1);
    }
    return found;
}

// Variadic, so written here for the options Shipyard sets (CGit2's shim.h): each argument is
// passed on as the type libgit2 reads for that option.
int git_libgit2_opts(int option, ...) {
    int (*opts)(int, ...) = SHIPYARD_GIT2(git_libgit2_opts);
    va_list arguments;
    va_start(arguments, option);
    int status;
    switch (option) {
    case GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION:
        status = opts(option, va_arg(arguments, int));
        break;
    case GIT_OPT_GET_EXTENSIONS:
        status = opts(option, va_arg(arguments, git_strarray *));
        break;
    default:
        fprintf(stderr, "error: git_libgit2_opts(%d) is not forwarded (Sources/CGit2Loader/Git2Loader.c)\n", option);
        status = -1;
        break;
    }
    va_end(arguments);
    return status;
}
#else
// Apple platforms link libgit2 (Homebrew's) as usual.
const char *shipyard_git2_load_failure(void) { return 0; }
void shipyard_git2_skip_certificate_loading(void) {}
#endif
