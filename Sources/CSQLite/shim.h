#ifndef SHIPYARD_CSQLITE_SHIM_H
#define SHIPYARD_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
