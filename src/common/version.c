/* gisa_version(), gisa_version_number(): the project VERSION of
 * CMakeLists.txt, passed in as GISA_VERSION_MAJOR/MINOR/PATCH compile
 * definitions of this file. In the bottom layer: any layer may print it
 * (the HTML manual does). */
#include "gisa.h"

#if !defined(GISA_VERSION_MAJOR) || !defined(GISA_VERSION_MINOR) || !defined(GISA_VERSION_PATCH)
#error "build with -DGISA_VERSION_MAJOR=.. -DGISA_VERSION_MINOR=.. -DGISA_VERSION_PATCH=.. (CMakeLists.txt does)"
#endif

#define GISA_STR_(x) #x
#define GISA_STR(x) GISA_STR_(x)

const char *gisa_version(void)
{
    return GISA_STR(GISA_VERSION_MAJOR) "." GISA_STR(GISA_VERSION_MINOR) "." GISA_STR(GISA_VERSION_PATCH);
}

unsigned gisa_version_number(void)
{
    return GISA_VERSION_MAJOR * 10000u + GISA_VERSION_MINOR * 100u + GISA_VERSION_PATCH;
}
