#ifndef SHIPYARD_GIT2_LOADER_PRIVATE_H
#define SHIPYARD_GIT2_LOADER_PRIVATE_H
// What the definitions in Git2Functions.c share: libgit2's own declarations (each definition must
// match its header's) and the lookup of the function of the same name in the opened library.
#include <git2.h>
#include <git2/sys/repository.h>

// libgit2's function `name`, looked up in the library at the first call (then kept). A process
// whose libgit2 cannot be opened, or lacks the function, stops with the reason on standard error:
// as the dynamic linker did when the library was linked. Swift checks
// shipyard_git2_load_failure() first and reports it as an error of its own.
void *shipyard_git2_symbol(const char *name);

#define SHIPYARD_GIT2(name)                                                                       \
    ({                                                                                            \
        static void *shipyard_slot;                                                               \
        void *shipyard_found = __atomic_load_n(&shipyard_slot, __ATOMIC_ACQUIRE);                 \
        if (shipyard_found == NULL) {                                                             \
            shipyard_found = shipyard_git2_symbol(#name);                                         \
            __atomic_store_n(&shipyard_slot, shipyard_found, __ATOMIC_RELEASE);                   \
        }                                                                                         \
        (__typeof__(&name))shipyard_found;                                                        \
    })
#endif
