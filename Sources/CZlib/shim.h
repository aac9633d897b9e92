// zlib: the system's (libz of the SDK on Apple platforms; Debian: zlib1g-dev). The feed's
// targets are zlib streams (RFC 1950): deflated when published, inflated under a cap on the device.
#include <zlib.h>
