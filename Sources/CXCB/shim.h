#ifndef GESTURES_CXCB_SHIM_H
#define GESTURES_CXCB_SHIM_H
// The X11 shell's only view of X: XCB and its extensions (the shell has no Xlib, so no second
// event queue that a library could wait in).
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <time.h>
#include <unistd.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xcb/xinput.h>
#include <xcb/shm.h>
#include <xcb/randr.h>
#include <xcb/present.h>
#include <xcb/xinerama.h>
#include <xcb/screensaver.h>
#include <xcb/render.h>

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

/// The RENDER extension's data, or NULL.
static inline const xcb_query_extension_reply_t *gestures_render_extension(xcb_connection_t *c) {
    return xcb_get_extension_data(c, &xcb_render_id);
}

/// Sends RENDER's QueryExtension without waiting: gestures_render_extension takes the reply.
static inline void gestures_prefetch_render_extension(xcb_connection_t *c) {
    xcb_prefetch_extension_data(c, &xcb_render_id);
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
/// The connection set-up's watchdog: waits on `fd` (the read end of a pipe whose write end is
/// closed when xcb_connect returns) for at most `milliseconds`; on timeout writes `message` to
/// standard error and ends the process with status 1 (`_exit`: the main thread is inside
/// xcb_connect and nothing else can be relied on).
struct gestures_connect_watch {
    int fd;
    int milliseconds;
    const char *message;
};

static inline void *gestures_connect_watchdog(void *arg) {
    const struct gestures_connect_watch *w = arg;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed >= w->milliseconds) break;
        struct pollfd p = {.fd = w->fd, .events = POLLIN, .revents = 0};
        int r = poll(&p, 1, (int)(w->milliseconds - elapsed));
        if (r > 0) return NULL;  // xcb_connect returned (the write end was closed)
        if (r < 0 && errno != EINTR) return NULL;
    }
    ssize_t unused = write(2, w->message, strlen(w->message));
    (void)unused;
    _exit(1);
}

/// xcb_connect with a deadline: a server that accepts the connection and never answers the
/// set-up (a stopped or wedged server, a stale socket someone else listens on) would leave
/// xcb_connect waiting forever. A watchdog thread ends the process with `message` and status 1
/// after `milliseconds`; it is gone when this returns.
static inline xcb_connection_t *gestures_connect_within(
    const char *display, int *screen, int milliseconds, const char *message)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return xcb_connect(display, screen);
    struct gestures_connect_watch w = {.fd = fds[0], .milliseconds = milliseconds, .message = message};
    pthread_t thread;
    int started = pthread_create(&thread, NULL, gestures_connect_watchdog, &w) == 0;
    xcb_connection_t *c = xcb_connect(display, screen);
    close(fds[1]);
    if (started) pthread_join(thread, NULL);
    close(fds[0]);
    return c;
}
#endif
