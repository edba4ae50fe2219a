/*
 * xframes -- input-to-frame latency, frames and CPU per frame of any X11 app,
 * driven by XTEST and observed with XDamage.
 *
 *   xframes (--window ID | --pid PID | --name TEXT) [options]
 *   xframes --find (--pid PID | --name TEXT)       print the window and exit
 *
 * Target window (the largest viewable, not override-redirect window >= 2x2
 * that matches; searched over the whole window tree, so it also works under a
 * window manager that reparents):
 *   --window ID      a window id (decimal or 0x hex)
 *   --pid PID        _NET_WM_PID is PID or a descendant of PID
 *   --name TEXT      WM_NAME or _NET_WM_NAME contains TEXT
 *   --wait S         wait up to S s for it to appear (default 10)
 *   --cpu-pid PID    process whose CPU is counted, with its descendants
 *                    (default: --pid, else the window's _NET_WM_PID; 0 = none)
 *   --also-pid PID   another process whose CPU is reported (e.g. the X server)
 *   --resize WxH     resize the window first and wait for its drawing to settle
 *
 * Input (XTEST, core pointer; positions in window coordinates):
 *   --rect X,Y,W,H   area the input stays in (default: the whole window)
 *   --action A       drag  : press button, one motion per input, back to the
 *                            start, release (default)
 *                    move  : motions without a button (hover)
 *                    click : one press+release per input at the rect's centre
 *                            (every second one is a double click)
 *                    dblclick : two press+release pairs per input (a double
 *                            click), at the rect's centre
 *                    wheel : one wheel click per input at the centre, up and
 *                            down alternately (buttons 4/5)
 *   --button B       button for drag/click (default 1)
 *   --rate HZ        inputs per second, on an absolute schedule (default 60)
 *   --n N            measured inputs (default 300), or
 *   --duration S     measured inputs = S * rate
 *   --lead-in K      inputs before the measured ones, not measured (default 10;
 *                    e.g. so that a pan recognizer has begun)
 *   --lead-out K     drag/move: K motions back to the start point after the
 *                    measured ones, then 100 ms still, then the release
 *                    (default 10; the next drag starts where this one did)
 *   --step-px P      distance between successive positions (default 4): a
 *                    circle of radius 0.35*min(W,H) around the rect's centre,
 *                    radius modulated by 15 % so that turns do not repeat
 *
 * Observation:
 *   --level raw|nonempty  XDamage report level (default raw: one DamageNotify
 *                    per rendering request, nothing lost; nonempty: one per
 *                    frame, the region is subtracted after each notify)
 *   --max-latency-ms M    a frame more than M ms after an input does not count
 *                    as that input's frame (default 250)
 *   --frame-gap-ms G damage received less than G ms after the previous damage
 *                    belongs to the same frame (default 2)
 *   --quiet-ms Q     after the last input, wait until no damage for Q ms
 *                    (default 200; at most --drain-max-ms, default 3000)
 *   --idle-ms I      before the first input, count damage with no input for
 *                    I ms (default 300): should be 0, else the app animates by
 *                    itself and the latencies mean little
 *   --inputs-out F   one TSV row per measured input
 *   --frames-out F   one TSV row per frame
 *
 * How: XCB owns the event queue (XSetEventQueueOwner), so events are read
 * only by this loop: ppoll() on the connection until the next input is due,
 * every DamageNotify timestamped (CLOCK_MONOTONIC) when read.  Each input is
 * timestamped right after the XFlush that sends it, and the sequence number of
 * its XTEST request is kept.  An event carries the sequence number of the
 * last request of ours that the server had processed when it was generated,
 * so a DamageNotify with a sequence >= the input's was generated after the
 * server had handled that input: the input's latency is the time from the
 * XFlush to the first such DamageNotify read (rendering that the server
 * processed before the input never counts).  "With own frame": that first
 * frame was generated before the server handled the next input.
 * A frame is a run of damage events less than --frame-gap-ms apart.
 * CPU: utime+stime (/proc/PID/stat) and the sum of /proc/PID/task/T/schedstat,
 * of the process and its descendants, from just before the first measured
 * input to the end of the quiet period after the last one.
 *
 * Output: key=value lines on stdout.  Exit status 0, 3 if the window was not
 * found, 4 if it went away during the measurement, 2 bad usage.
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xlib-xcb.h>
#include <X11/Xutil.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xdamage.h>
#include <xcb/xcb.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "proc.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---------- /proc: the process tree (the accounting itself is in proc.h) ---------- */

static int parent_of(int pid)
{
    char buf[4096];
    if (read_stat(pid, buf, sizeof buf)) return -1;
    char *p = strrchr(buf, ')');
    int ppid = -1;
    if (!p || sscanf(p + 2, "%*c %d", &ppid) != 1) return -1;
    return ppid;
}

static int alive(int pid)
{
    char buf[4096];
    if (read_stat(pid, buf, sizeof buf)) return 0;
    char *p = strrchr(buf, ')');
    return p && p[2] != 'Z' && p[2] != 'X';
}

typedef struct { long long ticks, ns; } cpu_t;

static cpu_t cpu_of(int pid)
{
    cpu_t c = { 0, 0 };
    if (pid <= 0) return c;
    int pids[256];
    int n = proc_tree(pid, pids, 256), i;
    for (i = 0; i < n; i++) { c.ticks += stat_ticks(pids[i]); c.ns += sched_ns(pids[i]); }
    return c;
}

/* ---------- finding the window ---------- */

static int x_errors;
static int on_x_error(Display *d, XErrorEvent *e) { (void)d; (void)e; x_errors++; return 0; }

static int is_descendant(int pid, int ancestor)
{
    int i;
    for (i = 0; i < 64 && pid > 1; i++) {
        if (pid == ancestor) return 1;
        pid = parent_of(pid);
    }
    return pid == ancestor;
}

static long window_pid(Display *dpy, Window w)
{
    Atom a = XInternAtom(dpy, "_NET_WM_PID", True), type;
    int fmt;
    unsigned long n, after;
    unsigned char *data = NULL;
    long v = 0;
    if (a == None) return 0;
    if (XGetWindowProperty(dpy, w, a, 0, 1, False, XA_CARDINAL, &type, &fmt, &n, &after, &data) == Success
        && data && n == 1 && fmt == 32)
        v = (long)*(unsigned long *)data;
    if (data) XFree(data);
    return v;
}

/* WM_NAME or _NET_WM_NAME (UTF-8), malloc'ed, or NULL */
static char *window_name(Display *dpy, Window w)
{
    Atom net = XInternAtom(dpy, "_NET_WM_NAME", True), utf8 = XInternAtom(dpy, "UTF8_STRING", True), type;
    int fmt;
    unsigned long n, after;
    unsigned char *data = NULL;
    char *s = NULL;
    if (net != None && utf8 != None
        && XGetWindowProperty(dpy, w, net, 0, 1024, False, utf8, &type, &fmt, &n, &after, &data) == Success
        && data && fmt == 8 && n > 0)
        s = strndup((char *)data, n);
    if (data) XFree(data);
    if (s) return s;
    char *name = NULL;
    if (XFetchName(dpy, w, &name) && name) { s = strdup(name); XFree(name); }
    return s;
}

typedef struct { Window best; long best_area; int pid; const char *name; int sw, sh; } search_t;

static void search_tree(Display *dpy, Window w, search_t *s, int depth)
{
    Window root, parent, *kids = NULL;
    unsigned int nk = 0, i;
    if (depth > 0) {
        XWindowAttributes wa;
        if (XGetWindowAttributes(dpy, w, &wa) && wa.map_state == IsViewable && !wa.override_redirect
            && wa.width >= 2 && wa.height >= 2) {
            int match = 0;
            if (s->pid > 0) {
                long wp = window_pid(dpy, w);
                match = wp > 0 && is_descendant((int)wp, s->pid);
            } else if (s->name) {
                char *nm = window_name(dpy, w);
                match = nm && strstr(nm, s->name);
                free(nm);
            }
            int rx = 0, ry = 0;
            Window child;
            XTranslateCoordinates(dpy, w, DefaultRootWindow(dpy), 0, 0, &rx, &ry, &child);
            int onscreen = rx + wa.width > 0 && ry + wa.height > 0 && rx < s->sw && ry < s->sh;
            long area = (long)wa.width * wa.height;
            if (match && onscreen && area > s->best_area) { s->best = w; s->best_area = area; }
        }
    }
    if (depth > 8 || !XQueryTree(dpy, w, &root, &parent, &kids, &nk)) return;
    for (i = 0; i < nk; i++) search_tree(dpy, kids[i], s, depth + 1);
    if (kids) XFree(kids);
}

static Window find_window(Display *dpy, int pid, const char *name, double wait_s)
{
    double t0 = now_ms();
    for (;;) {
        search_t s = { None, 0, pid, name, DisplayWidth(dpy, DefaultScreen(dpy)), DisplayHeight(dpy, DefaultScreen(dpy)) };
        search_tree(dpy, DefaultRootWindow(dpy), &s, 0);
        if (s.best != None) return s.best;
        if (now_ms() - t0 > wait_s * 1e3) return None;
        usleep(50000);
    }
}

/* ---------- events ---------- */

typedef struct {
    double t;          /* CLOCK_MONOTONIC ms when read */
    uint32_t seq;      /* sequence of our last request the server had processed */
    uint32_t server_ts;
    int x, y, w, h;
} damage_t;

typedef struct {
    double t_sched, t_send;
    uint32_t seq;
    int x, y;
} input_t;

static Display *dpy;
static xcb_connection_t *xc;
static int xfd;
static int damage_base;
static Damage damage;
static Window win;
static int nonempty_mode;
static damage_t *dmg;
static size_t ndmg, capdmg;
static int window_gone, need_flush;
static int cfg_w, cfg_h, cfg_seen;

/* the DamageNotify wire event (32 bytes) */
typedef struct {
    uint8_t response_type, level;
    uint16_t sequence;
    uint32_t drawable, damage, timestamp;
    int16_t ax, ay;
    uint16_t aw, ah;
    int16_t gx, gy;
    uint16_t gw, gh;
} wire_damage_notify;

static void handle_event(xcb_generic_event_t *e, double t)
{
    int type = e->response_type & 0x7f;
    if (type == damage_base + XDamageNotify) {
        wire_damage_notify *d = (wire_damage_notify *)e;
        if (d->damage != (uint32_t)damage) return;
        if (ndmg == capdmg) {
            capdmg = capdmg ? capdmg * 2 : 4096;
            dmg = realloc(dmg, capdmg * sizeof *dmg);
            if (!dmg) { perror("xframes: realloc"); exit(2); }
        }
        damage_t *r = &dmg[ndmg++];
        r->t = t;
        r->seq = e->full_sequence;
        r->server_ts = d->timestamp;
        r->x = d->ax; r->y = d->ay; r->w = d->aw; r->h = d->ah;
        if (nonempty_mode) { XDamageSubtract(dpy, damage, None, None); need_flush = 1; }
    } else if (type == DestroyNotify) {
        if (((xcb_destroy_notify_event_t *)e)->window == (uint32_t)win) window_gone = 1;
    } else if (type == UnmapNotify) {
        if (((xcb_unmap_notify_event_t *)e)->window == (uint32_t)win) window_gone = 1;
    } else if (type == ConfigureNotify) {
        xcb_configure_notify_event_t *c = (xcb_configure_notify_event_t *)e;
        if (c->window == (uint32_t)win) { cfg_w = c->width; cfg_h = c->height; cfg_seen = 1; }
    } else if (type == 0) {
        x_errors++;
    }
}

/* read what the socket has and handle every event; returns the number handled */
static int read_events(void)
{
    xcb_generic_event_t *e;
    int n = 0;
    double t = now_ms();
    while ((e = xcb_poll_for_event(xc))) { handle_event(e, t); free(e); n++; }
    if (xcb_connection_has_error(xc)) { fprintf(stderr, "xframes: lost the X connection\n"); exit(4); }
    if (need_flush) { XFlush(dpy); need_flush = 0; }
    return n;
}

/* handle events until t_until (CLOCK_MONOTONIC ms) */
static void pump_until(double t_until)
{
    for (;;) {
        xcb_generic_event_t *e;
        while ((e = xcb_poll_for_queued_event(xc))) { handle_event(e, now_ms()); free(e); }
        if (need_flush) { XFlush(dpy); need_flush = 0; }
        double d = t_until - now_ms();
        if (d <= 0) return;
        struct timespec ts = { (time_t)(d / 1e3), (long)(fmod(d, 1e3) * 1e6) };
        struct pollfd p = { .fd = xfd, .events = POLLIN };
        int r = ppoll(&p, 1, &ts, NULL);
        if (r > 0) {
            if (p.revents & (POLLHUP | POLLERR | POLLNVAL)) { fprintf(stderr, "xframes: lost the X connection\n"); exit(4); }
            read_events();
        } else if (r < 0 && errno != EINTR) {
            perror("xframes: ppoll");
            exit(2);
        }
    }
}

/* pump until no damage for quiet_ms (or max_ms); returns the time it stopped */
static double pump_until_quiet(double quiet_ms, double max_ms)
{
    double t0 = now_ms();
    for (;;) {
        double last = ndmg ? dmg[ndmg - 1].t : t0;
        if (last < t0) last = t0;
        double until = last + quiet_ms;
        if (until > t0 + max_ms) until = t0 + max_ms;
        pump_until(until);
        double now = now_ms();
        double last2 = ndmg ? dmg[ndmg - 1].t : t0;
        if (last2 <= last || now >= t0 + max_ms) return now;
    }
}

static int seq_ge(uint32_t a, uint32_t b) { return (int32_t)(a - b) >= 0; }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* linear interpolation between closest ranks (numpy's default) */
static double quantile(const double *sorted, int n, double q)
{
    if (n <= 0) return NAN;
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    if (i >= n - 1) return sorted[n - 1];
    return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

static void print_ms(const char *key, double v)
{
    if (isnan(v)) printf("%s=NA\n", key); else printf("%s=%.3f\n", key, v);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: xframes (--window ID | --pid PID | --name TEXT) [--wait S] [--cpu-pid PID] [--also-pid PID]\n"
            "               [--resize WxH] [--rect X,Y,W,H] [--action drag|move|click|dblclick|wheel] [--button B]\n"
            "               [--rate HZ] [--n N | --duration S] [--lead-in K] [--lead-out K] [--step-px P]\n"
            "               [--level raw|nonempty] [--max-latency-ms M] [--frame-gap-ms G] [--quiet-ms Q]\n"
            "               [--drain-max-ms D] [--idle-ms I] [--inputs-out FILE] [--frames-out FILE]\n"
            "       xframes --find (--pid PID | --name TEXT) [--wait S]\n"
            "(see the comment at the top of tools/xframes.c)\n");
    exit(2);
}

enum { A_DRAG, A_MOVE, A_CLICK, A_DBLCLICK, A_WHEEL };

int main(int argc, char **argv)
{
    Window want = None;
    int pid = 0, cpu_pid = -1, also_pid = 0, button = 1, action = A_DRAG, n = 300, lead_in = 10, lead_out = 10;
    int find_only = 0, resize_w = 0, resize_h = 0, i;
    const char *name = NULL, *inputs_out = NULL, *frames_out = NULL;
    double wait_s = 10, rate = 60, duration = 0, step_px = 4, max_lat = 250, gap_ms = 2, quiet_ms = 200;
    double drain_max_ms = 3000, idle_ms = 300;
    int rx = 0, ry = 0, rw = -1, rh = -1;

    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(s) (!strcmp(a, s) && v && ++i)
        if (!strcmp(a, "--find")) find_only = 1;
        else if (OPT("--window")) want = strtoul(v, NULL, 0);
        else if (OPT("--pid")) pid = atoi(v);
        else if (OPT("--name")) name = v;
        else if (OPT("--wait")) wait_s = atof(v);
        else if (OPT("--cpu-pid")) cpu_pid = atoi(v);
        else if (OPT("--also-pid")) also_pid = atoi(v);
        else if (OPT("--resize")) { if (sscanf(v, "%dx%d", &resize_w, &resize_h) != 2) usage(); }
        else if (OPT("--rect")) { if (sscanf(v, "%d,%d,%d,%d", &rx, &ry, &rw, &rh) != 4) usage(); }
        else if (OPT("--action")) {
            if (!strcmp(v, "drag")) action = A_DRAG;
            else if (!strcmp(v, "move")) action = A_MOVE;
            else if (!strcmp(v, "click")) action = A_CLICK;
            else if (!strcmp(v, "dblclick")) action = A_DBLCLICK;
            else if (!strcmp(v, "wheel")) action = A_WHEEL;
            else usage();
        }
        else if (OPT("--button")) button = atoi(v);
        else if (OPT("--rate")) rate = atof(v);
        else if (OPT("--n")) n = atoi(v);
        else if (OPT("--duration")) duration = atof(v);
        else if (OPT("--lead-in")) lead_in = atoi(v);
        else if (OPT("--lead-out")) lead_out = atoi(v);
        else if (OPT("--step-px")) step_px = atof(v);
        else if (OPT("--level")) {
            if (!strcmp(v, "raw")) nonempty_mode = 0;
            else if (!strcmp(v, "nonempty")) nonempty_mode = 1;
            else usage();
        }
        else if (OPT("--max-latency-ms")) max_lat = atof(v);
        else if (OPT("--frame-gap-ms")) gap_ms = atof(v);
        else if (OPT("--quiet-ms")) quiet_ms = atof(v);
        else if (OPT("--drain-max-ms")) drain_max_ms = atof(v);
        else if (OPT("--idle-ms")) idle_ms = atof(v);
        else if (OPT("--inputs-out")) inputs_out = v;
        else if (OPT("--frames-out")) frames_out = v;
        else { fprintf(stderr, "xframes: bad argument %s\n", a); usage(); }
#undef OPT
    }
    if (want == None && pid <= 0 && !name) usage();
    if (rate <= 0 || step_px <= 0 || lead_in < 0 || lead_out < 0) usage();
    if (duration > 0) n = (int)lround(duration * rate);
    if (n < 1) usage();

    signal(SIGPIPE, SIG_IGN);
    dpy = XOpenDisplay(NULL);
    if (!dpy) { fprintf(stderr, "xframes: cannot open display\n"); return 2; }
    XSetEventQueueOwner(dpy, XCBOwnsEventQueue);   /* only right after XOpenDisplay */
    xc = XGetXCBConnection(dpy);
    xfd = ConnectionNumber(dpy);
    XSetErrorHandler(on_x_error);
    int scr = DefaultScreen(dpy);
    Window root = RootWindow(dpy, scr);

    if (want != None) {
        XWindowAttributes wa;
        double t0 = now_ms();
        while (!(XGetWindowAttributes(dpy, want, &wa) && wa.map_state == IsViewable)) {
            if (now_ms() - t0 > wait_s * 1e3) { fprintf(stderr, "xframes: window 0x%lx not viewable\n", want); return 3; }
            usleep(50000);
        }
        win = want;
    } else {
        win = find_window(dpy, pid, name, wait_s);
        if (win == None) {
            if (pid > 0) fprintf(stderr, "xframes: no viewable window with _NET_WM_PID in the process tree of %d\n", pid);
            else fprintf(stderr, "xframes: no viewable window whose name contains \"%s\"\n", name);
            return 3;
        }
    }
    long wm_pid = window_pid(dpy, win);
    char *title = window_name(dpy, win);
    if (cpu_pid < 0) cpu_pid = pid > 0 ? pid : (int)wm_pid;
    if (find_only) {
        XWindowAttributes wa;
        XGetWindowAttributes(dpy, win, &wa);
        int ox, oy;
        Window ch;
        XTranslateCoordinates(dpy, win, root, 0, 0, &ox, &oy, &ch);
        printf("window=0x%lx\nwm_pid=%ld\ntitle=%s\ngeom=%dx%d+%d+%d\n", win, wm_pid, title ? title : "", wa.width, wa.height, ox, oy);
        return 0;
    }

    int dmg_err;
    if (!XDamageQueryExtension(dpy, &damage_base, &dmg_err)) { fprintf(stderr, "xframes: no DAMAGE extension\n"); return 2; }
    int xt_ev, xt_err, xt_maj, xt_min;
    if (!XTestQueryExtension(dpy, &xt_ev, &xt_err, &xt_maj, &xt_min)) { fprintf(stderr, "xframes: no XTEST extension\n"); return 2; }
    XSelectInput(dpy, win, StructureNotifyMask);
    damage = XDamageCreate(dpy, win, nonempty_mode ? XDamageReportNonEmpty : XDamageReportRawRectangles);
    XSync(dpy, False);

    if (resize_w > 0 && resize_h > 0) {
        XResizeWindow(dpy, win, resize_w, resize_h);
        XFlush(dpy);
        double t0 = now_ms();
        while (!(cfg_seen && cfg_w == resize_w && cfg_h == resize_h) && now_ms() - t0 < 3000) pump_until(now_ms() + 20);
        pump_until_quiet(300, 5000);
        if (!(cfg_seen && cfg_w == resize_w && cfg_h == resize_h))
            fprintf(stderr, "xframes: warning: window not resized to %dx%d (got %dx%d)\n", resize_w, resize_h, cfg_w, cfg_h);
    }

    XWindowAttributes wa;
    if (!XGetWindowAttributes(dpy, win, &wa)) { fprintf(stderr, "xframes: window went away\n"); return 4; }
    int ox, oy;
    Window ch;
    XTranslateCoordinates(dpy, win, root, 0, 0, &ox, &oy, &ch);
    if (rw < 0) { rx = 0; ry = 0; rw = wa.width; rh = wa.height; }
    if (rw < 1 || rh < 1) usage();
    double cx = ox + rx + rw / 2.0, cy = oy + ry + rh / 2.0;
    double r = 0.35 * (rw < rh ? rw : rh);
    if (r < 8) r = 8;
    double dtheta = step_px / r;
    double period = 1e3 / rate;

    /* position k on the path (k = 0 is the start) */
#define PATH_X(k) (cx + (r * (1.0 - 0.15 * sin(0.37 * (k) * dtheta))) * cos((k) * dtheta))
#define PATH_Y(k) (cy + (r * (1.0 - 0.15 * sin(0.37 * (k) * dtheta))) * sin((k) * dtheta))
    int sx = (int)lround(PATH_X(0)), sy = (int)lround(PATH_Y(0));
    int px = (int)lround(cx), py = (int)lround(cy);
    if (action == A_DRAG || action == A_MOVE) { px = sx; py = sy; }

    XTestGrabControl(dpy, True);
    XTestFakeMotionEvent(dpy, scr, px, py, CurrentTime);
    XSync(dpy, False);
    pump_until(now_ms() + 150);                 /* hover effects of the first motion settle */
    size_t idle_start = ndmg;
    pump_until(now_ms() + idle_ms);
    size_t idle_damage = ndmg - idle_start;

    int total = lead_in + n;
    input_t *in = calloc((size_t)total, sizeof *in);
    if (!in) return 2;
    if (action == A_DRAG) {
        XTestFakeButtonEvent(dpy, button, True, CurrentTime);
        XFlush(dpy);
    }
    double t0 = now_ms() + period;
    int lx = px, ly = py;
    size_t first_measured_dmg = 0;
    cpu_t c0 = { 0, 0 }, a0 = { 0, 0 };
    double late_max = 0;
    int late = 0;
    for (i = 0; i < total; i++) {
        double ts = t0 + i * period;
        if (i == lead_in) {
            pump_until(ts - 0.5);
            c0 = cpu_of(cpu_pid);
            if (also_pid > 0) a0 = cpu_of(also_pid);
            first_measured_dmg = ndmg;
        }
        pump_until(ts);
        if (window_gone) break;
        input_t *u = &in[i];
        u->t_sched = ts;
        u->seq = (uint32_t)NextRequest(dpy);
        switch (action) {
        case A_DRAG:
        case A_MOVE: {
            int k = i + 1;
            int x = (int)lround(PATH_X(k)), y = (int)lround(PATH_Y(k));
            if (x == lx && y == ly) x++;          /* never a no-op motion */
            XTestFakeMotionEvent(dpy, scr, x, y, CurrentTime);
            lx = x; ly = y;
            break;
        }
        case A_CLICK:
        case A_DBLCLICK: {
            int clicks = action == A_DBLCLICK ? 2 : 1, c;
            for (c = 0; c < clicks; c++) {
                XTestFakeButtonEvent(dpy, button, True, CurrentTime);
                XTestFakeButtonEvent(dpy, button, False, CurrentTime);
            }
            break;
        }
        case A_WHEEL: {
            int b = (i & 1) ? 5 : 4;
            XTestFakeButtonEvent(dpy, b, True, CurrentTime);
            XTestFakeButtonEvent(dpy, b, False, CurrentTime);
            break;
        }
        }
        XFlush(dpy);
        u->t_send = now_ms();
        u->x = lx; u->y = ly;
        if (i >= lead_in && u->t_send - ts > 1.0) { late++; if (u->t_send - ts > late_max) late_max = u->t_send - ts; }
    }
    int sent = i;
    int measured = sent - lead_in;
    double t_last = sent > 0 ? in[sent - 1].t_send : now_ms();
    /* the last input's frame: wait at least max-latency, then until quiet */
    if (!window_gone) pump_until(t_last + max_lat);
    double t_end = window_gone ? now_ms() : pump_until_quiet(quiet_ms, drain_max_ms);
    cpu_t c1 = cpu_of(cpu_pid), a1 = { 0, 0 };
    if (also_pid > 0) a1 = cpu_of(also_pid);
    size_t end_dmg = ndmg;

    /* back to the start and release (not measured) */
    size_t release_start = ndmg;
    if (!window_gone && (action == A_DRAG || action == A_MOVE)) {
        double tb = now_ms();
        for (i = 1; i <= lead_out; i++) {
            pump_until(tb + i * period);
            int x = (int)lround(lx + (sx - lx) * (double)i / lead_out), y = (int)lround(ly + (sy - ly) * (double)i / lead_out);
            XTestFakeMotionEvent(dpy, scr, x, y, CurrentTime);
            XFlush(dpy);
        }
        pump_until(now_ms() + 100);
    }
    if (!window_gone && action == A_DRAG) {
        XTestFakeButtonEvent(dpy, button, False, CurrentTime);
        XFlush(dpy);
    }
    if (!window_gone) pump_until(now_ms() + 150);
    size_t release_damage = ndmg - release_start;
    if (!window_gone) {
        XDamageDestroy(dpy, damage);
        XSync(dpy, False);
    }

    /* ---- analysis ---- */
    /* frames: runs of damage less than gap_ms apart, within the measured interval */
    size_t j;
    int *frame_of = calloc(ndmg + 1, sizeof *frame_of);
    int nframes = 0;
    double px_total = 0;
    for (j = first_measured_dmg; j < end_dmg; j++) {
        if (j == first_measured_dmg || dmg[j].t - dmg[j - 1].t >= gap_ms) nframes++;
        frame_of[j] = nframes - 1;
        px_total += (double)dmg[j].w * dmg[j].h;
    }
    double *lat = malloc(sizeof(double) * (measured > 0 ? measured : 1));
    int nlat = 0, own = 0, none = 0, distinct = 0, last_frame = -1;
    FILE *fi = inputs_out ? fopen(inputs_out, "w") : NULL;
    if (fi) fprintf(fi, "input\tt_send_ms\tsched_lag_ms\tseq\tx\ty\tlatency_ms\town_frame\n");
    size_t k = first_measured_dmg;
    for (i = lead_in; i < sent; i++) {
        input_t *u = &in[i];
        while (k < end_dmg && !seq_ge(dmg[k].seq, u->seq)) k++;
        double L = NAN;
        int has_own = 0;
        if (k < end_dmg && dmg[k].t - u->t_send <= max_lat) {
            L = dmg[k].t - u->t_send;
            lat[nlat++] = L;
            if (i + 1 < sent) has_own = !seq_ge(dmg[k].seq, in[i + 1].seq);
            else has_own = L <= period;
            if (frame_of[k] != last_frame) { distinct++; last_frame = frame_of[k]; }
        } else {
            none++;
        }
        own += has_own;
        if (fi) {
            fprintf(fi, "%d\t%.3f\t%.3f\t%u\t%d\t%d\t", i - lead_in, u->t_send - in[lead_in].t_send, u->t_send - u->t_sched, u->seq, u->x, u->y);
            if (isnan(L)) fprintf(fi, "NA\t0\n"); else fprintf(fi, "%.3f\t%d\n", L, has_own);
        }
    }
    if (fi) fclose(fi);
    if (frames_out) {
        FILE *ff = fopen(frames_out, "w");
        if (ff) {
            fprintf(ff, "frame\tt_ms\tdamage_events\tpx\tserver_ts\tfirst_seq\n");
            for (j = first_measured_dmg; j < end_dmg;) {
                size_t e = j + 1;
                double area = (double)dmg[j].w * dmg[j].h;
                while (e < end_dmg && frame_of[e] == frame_of[j]) { area += (double)dmg[e].w * dmg[e].h; e++; }
                fprintf(ff, "%d\t%.3f\t%zu\t%.0f\t%u\t%u\n", frame_of[j], dmg[j].t - (measured > 0 ? in[lead_in].t_send : 0),
                        e - j, area, dmg[j].server_ts, dmg[j].seq);
                j = e;
            }
            fclose(ff);
        }
    }
    qsort(lat, nlat, sizeof *lat, cmp_double);
    double mean = 0;
    for (i = 0; i < nlat; i++) mean += lat[i];
    mean = nlat ? mean / nlat : NAN;
    double cpu_sched = (c1.ns - c0.ns) / 1e9, cpu_ticks = (c1.ticks - c0.ticks) / (double)sysconf(_SC_CLK_TCK);
    double span = measured > 0 ? t_end - in[lead_in].t_send : 0;

    printf("result=%s\n", window_gone ? "window-gone" : "ok");
    printf("window=0x%lx\n", win);
    printf("title=%s\n", title ? title : "");
    printf("wm_pid=%ld\ncpu_pid=%d\n", wm_pid, cpu_pid);
    printf("window_geom=%dx%d+%d+%d\n", wa.width, wa.height, ox, oy);
    printf("rect=%d,%d,%d,%d\n", rx, ry, rw, rh);
    printf("action=%s\n", action == A_DRAG ? "drag" : action == A_MOVE ? "move" : action == A_CLICK ? "click"
                          : action == A_DBLCLICK ? "dblclick" : "wheel");
    printf("level=%s\n", nonempty_mode ? "nonempty" : "raw");
    printf("rate_hz=%g\n", rate);
    printf("inputs=%d\nlead_in=%d\n", measured, lead_in);
    printf("idle_damage_events=%zu\n", idle_damage);
    printf("send_ms=%.1f\n", measured > 0 ? t_last - in[lead_in].t_send : 0);
    printf("late_sends=%d\nlate_max_ms=%.3f\n", late, late_max);
    printf("span_ms=%.1f\n", span);
    printf("damage_events=%zu\n", end_dmg - first_measured_dmg);
    printf("frames=%d\n", nframes);
    printf("frames_per_input=%.3f\n", measured > 0 ? (double)nframes / measured : 0);
    printf("inputs_with_frame=%d\n", nlat);
    printf("inputs_with_own_frame=%d\n", own);
    printf("inputs_without_frame=%d\n", none);
    printf("distinct_first_frames=%d\n", distinct);
    print_ms("lat_p50_ms", quantile(lat, nlat, 0.50));
    print_ms("lat_p95_ms", quantile(lat, nlat, 0.95));
    print_ms("lat_p99_ms", quantile(lat, nlat, 0.99));
    print_ms("lat_mean_ms", mean);
    print_ms("lat_min_ms", nlat ? lat[0] : NAN);
    print_ms("lat_max_ms", nlat ? lat[nlat - 1] : NAN);
    printf("px_per_frame=%.0f\n", nframes ? px_total / nframes : 0);
    printf("cpu_ticks_s=%.3f\n", cpu_ticks);
    printf("cpu_sched_s=%.4f\n", cpu_sched);
    printf("cpu_pct_of_core=%.1f\n", span > 0 ? 100 * cpu_sched * 1e3 / span : 0);
    printf("cpu_us_per_frame=%s", nframes ? "" : "NA\n");
    if (nframes) printf("%.1f\n", cpu_sched * 1e6 / nframes);
    printf("cpu_us_per_input=%.1f\n", measured > 0 ? cpu_sched * 1e6 / measured : 0);
    if (also_pid > 0) printf("also_pid_cpu_sched_s=%.4f\n", (a1.ns - a0.ns) / 1e9);
    printf("release_damage_events=%zu\n", release_damage);
    printf("x_errors=%d\n", x_errors);
    if (cpu_pid > 0 && !alive(cpu_pid)) printf("cpu_pid_alive=no\n");
    XCloseDisplay(dpy);
    return window_gone ? 4 : 0;
}
