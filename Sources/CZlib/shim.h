#ifndef GESTURES_CZLIB_SHIM_H
#define GESTURES_CZLIB_SHIM_H
#include <zlib.h>
#endif
