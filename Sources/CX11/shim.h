#ifndef GESTURES_CX11_SHIM_H
#define GESTURES_CX11_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <X11/Xlib.h>
#include <X11/Xlib-xcb.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <X11/Xresource.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>
#include <xcb/xcb.h>
#include <xcb/xinput.h>

/// Selects XI2 events on `window` for `deviceid` through XCB: `mask` holds `words` 32-bit words
/// (XIMaskLen bytes rounded up). With `checked`, waits for the server's answer and returns the
/// X error code (0: selected); otherwise returns 0 at once. (The variable-length request is
/// easier to lay out in C.)
static inline int gestures_xi_select(
    xcb_connection_t *c, uint32_t window, uint16_t deviceid, const uint32_t *mask, uint16_t words,
    int checked)
{
    struct {
        xcb_input_event_mask_t head;
        uint32_t bits[8];
    } m;
    if (words > 8) words = 8;
    m.head.deviceid = deviceid;
    m.head.mask_len = words;
    memcpy(m.bits, mask, (size_t)words * 4);
    if (!checked) {
        xcb_input_xi_select_events(c, window, 1, &m.head);
        return 0;
    }
    xcb_generic_error_t *e = xcb_request_check(c, xcb_input_xi_select_events_checked(c, window, 1, &m.head));
    if (!e) return 0;
    int code = e->error_code;
    free(e);
    return code;
}
#endif
