// zlib as the system has it (Debian/Ubuntu: zlib1g-dev), for reading zip and .tar.gz archives.
#ifndef SWITCHBOARD_CZLIB_SHIM_H
#define SWITCHBOARD_CZLIB_SHIM_H

#include <zlib.h>

#endif
