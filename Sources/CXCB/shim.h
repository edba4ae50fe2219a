#ifndef GESTURES_CXCB_SHIM_H
#define GESTURES_CXCB_SHIM_H
// The X11 shell's only view of X: XCB and its extensions (the shell has no Xlib, so no second
// event queue that a library could wait in).
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xcb/xinput.h>
#include <xcb/shm.h>
#include <xcb/randr.h>
#include <xcb/present.h>
#include <xcb/xinerama.h>
#include <xcb/xcb_keysyms.h>
#include <xcb/screensaver.h>

/// The Xinerama extension's data (XCB's cached QueryExtension reply), or NULL.
static inline const xcb_query_extension_reply_t *gestures_xinerama_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_xinerama_id);
}

/// The Present extension's data (XCB's cached QueryExtension reply), or NULL.
static inline const xcb_query_extension_reply_t *gestures_present_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_present_id);
}

/// The XInput extension's data (XCB's cached QueryExtension reply), or NULL.
static inline const xcb_query_extension_reply_t *gestures_xinput_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_input_id);
}

/// The MIT-SHM extension's data, or NULL.
static inline const xcb_query_extension_reply_t *gestures_shm_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_shm_id);
}

/// The RANDR extension's data, or NULL.
static inline const xcb_query_extension_reply_t *gestures_randr_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_randr_id);
}

/// The MIT-SCREEN-SAVER extension's data, or NULL.
static inline const xcb_query_extension_reply_t *gestures_screensaver_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_screensaver_id);
}

/// Selects XI2 events on `window` for `deviceid`: `mask` holds `words` 32-bit words. With
/// `checked`, waits for the server's answer and returns the X error code (0: selected; -1: the
/// connection failed); otherwise returns 0 at once. (The variable-length request is easier to
/// lay out in C.)
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
    if (!e) return xcb_connection_has_error(c) ? -1 : 0;
    int code = e->error_code;
    free(e);
    return code;
}

/// Sends a 32-bit-format client message to `destination` (EWMH requests to the root window).
static inline void gestures_send_client_message(
    xcb_connection_t *c, uint32_t destination, uint32_t window, uint32_t type, const uint32_t data[5],
    uint32_t event_mask)
{
    xcb_client_message_event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.response_type = XCB_CLIENT_MESSAGE;
    ev.format = 32;
    ev.window = window;
    ev.type = type;
    memcpy(ev.data.data32, data, 5 * sizeof(uint32_t));
    xcb_send_event(c, 0, destination, event_mask, (const char *)&ev);
}

/// shmat for a fresh private segment; NULL on failure.
static inline void *gestures_shm_attach(int id) {
    void *p = shmat(id, NULL, 0);
    return p == (void *)-1 ? NULL : p;
}
#endif
