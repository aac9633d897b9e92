#ifndef SHIPYARD_CGIT2_SHIM_H
#define SHIPYARD_CGIT2_SHIM_H
#include <git2.h>
#endif
