// Any C library header first: it is what defines __GLIBC__ on glibc.
#include <stdlib.h>
#include "CMalloc.h"
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int switchboard_malloc_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
