// libbz2: the system's (libbz2 of the SDK on Apple platforms; Debian: libbz2-dev). The feed's
// targets are bzip2 streams by default (a third smaller than zlib's on a dbgen patch):
// compressed when published, decompressed under a cap on the device.
#include <bzlib.h>
