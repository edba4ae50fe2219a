#ifndef GESTURES_CTURBOJPEG_SHIM_H
#define GESTURES_CTURBOJPEG_SHIM_H
// libjpeg-turbo's TurboJPEG API: errors come back as return values (no setjmp/longjmp as with
// libjpeg's, which Swift cannot use), and it decodes straight into Cairo's BGRX pixels.
#include <turbojpeg.h>
#endif
