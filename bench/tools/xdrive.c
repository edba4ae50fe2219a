/*
 * xdrive -- fast XTEST input driver + per-process CPU accounting, and XInput
 * probes, for the peer benchmark.
 *
 *   xdrive info
 *       XIQueryVersion, XTEST version, every input device with its classes;
 *       prints touch_devices=N (devices with an XITouchClass).
 *
 *   xdrive drag --pid PID --rect X,Y,W,H [--n 2000] [--rate HZ] [--button 1]
 *               [--sync-every 1] [--quiet-ms 100] [--quiet-frac 0.05]
 *               [--drain-max-ms 20000]
 *       Moves the core pointer to the centre of the rectangle, presses the
 *       button, sends N XTestFakeMotionEvent along a circle (each position
 *       distinct), XSyncs every --sync-every events (rate 0 = as fast as
 *       possible, else paced to HZ), releases the button, then samples the
 *       target's CPU every 2 ms until it is quiet: the first instant T after
 *       the release such that in [T, T+quiet-ms] the process used less than
 *       quiet-frac of one core.  Prints:
 *         send_ms   wall time to push all N motions through the server
 *         drain_ms  T minus end of sending (time the app needed to catch up)
 *         cpu_ticks_s  utime+stime delta (/proc/PID/stat, 10 ms resolution)
 *         cpu_sched_s  sum over threads of /proc/PID/task/T/schedstat (ns)
 *         us_per_event_ticks / us_per_event_sched   the above / N
 *       CPU of PID's descendants (if any) is included.
 *
 *       --also-pid PID2 additionally reports PID2's CPU over the same interval
 *       (also_pid_cpu_sched_s; the harness passes the Xvfb server).
 *
 *   xdrive cpu PID
 *       utime+stime ticks and schedstat ns of PID and its descendants.
 *
 *   xdrive mpx-test
 *       Creates a second master pointer with XIChangeHierarchy, finds its
 *       "XTEST pointer" slave, opens it with XOpenDevice and drives it with
 *       XTestFakeDeviceMotionEvent / XTestFakeDeviceButtonEvent while the core
 *       pointer is driven with XTestFakeMotionEvent; checks positions with
 *       XIQueryPointer and the XI2 events a test window receives.
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XInput.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>
#include <dirent.h>
#include <math.h>
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

static void sleep_until_ms(double t)
{
    double d = t - now_ms();
    if (d <= 0) return;
    struct timespec ts = { (time_t)(d / 1e3), (long)(fmod(d, 1e3) * 1e6) };
    nanosleep(&ts, NULL);
}

/* ---------- /proc accounting (pid + descendants): proc.h ---------- */

typedef struct { long long ticks, ns; } cpu_t;

static cpu_t cpu_of(int pid)
{
    int pids[256];
    int n = proc_tree(pid, pids, 256), i;
    cpu_t c = { 0, 0 };
    for (i = 0; i < n; i++) { c.ticks += stat_ticks(pids[i]); c.ns += sched_ns(pids[i]); }
    return c;
}

/* ---------- info ---------- */

static const char *use_name(int u)
{
    switch (u) {
    case XIMasterPointer: return "master-pointer";
    case XIMasterKeyboard: return "master-keyboard";
    case XISlavePointer: return "slave-pointer";
    case XISlaveKeyboard: return "slave-keyboard";
    case XIFloatingSlave: return "floating-slave";
    }
    return "?";
}

static int cmd_info(Display *dpy)
{
    int op, ev, err, maj = 2, min = 4;
    if (!XQueryExtension(dpy, "XInputExtension", &op, &ev, &err)) { printf("xinput=absent\n"); return 1; }
    Status s = XIQueryVersion(dpy, &maj, &min);
    printf("XIQueryVersion(request 2.4): status=%s server_reports=%d.%d\n", s == Success ? "Success" : "BadRequest", maj, min);
    int xev, xerr, xmaj, xmin;
    if (XTestQueryExtension(dpy, &xev, &xerr, &xmaj, &xmin)) printf("XTEST=%d.%d\n", xmaj, xmin);
    else printf("XTEST=absent\n");
    int ndev, i, j, touch = 0;
    XIDeviceInfo *info = XIQueryDevice(dpy, XIAllDevices, &ndev);
    for (i = 0; i < ndev; i++) {
        XIDeviceInfo *d = &info[i];
        printf("device id=%d name=\"%s\" use=%s attachment=%d classes=", d->deviceid, d->name, use_name(d->use), d->attachment);
        int has_touch = 0;
        for (j = 0; j < d->num_classes; j++) {
            XIAnyClassInfo *c = d->classes[j];
            switch (c->type) {
            case XIKeyClass: printf("key "); break;
            case XIButtonClass: printf("button(%d) ", ((XIButtonClassInfo *)c)->num_buttons); break;
            case XIValuatorClass: printf("valuator "); break;
            case XIScrollClass: printf("scroll "); break;
            case XITouchClass: {
                XITouchClassInfo *t = (XITouchClassInfo *)c;
                printf("TOUCH(mode=%s,num_touches=%d) ", t->mode == XIDirectTouch ? "direct" : "dependent", t->num_touches);
                has_touch = 1;
                break;
            }
            default: printf("type%d ", c->type);
            }
        }
        printf("\n");
        touch += has_touch;
    }
    XIFreeDeviceInfo(info);
    printf("touch_devices=%d\n", touch);
    return 0;
}

/* ---------- drag ---------- */

static int cmd_drag(Display *dpy, int argc, char **argv)
{
    int pid = 0, n = 2000, button = 1, sync_every = 1, i, also_pid = 0;
    double rate = 0, quiet_ms = 100, quiet_frac = 0.05, drain_max_ms = 20000;
    int rx = -1, ry = -1, rw = 0, rh = 0;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--pid") && i + 1 < argc) pid = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--also-pid") && i + 1 < argc) also_pid = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rect") && i + 1 < argc) sscanf(argv[++i], "%d,%d,%d,%d", &rx, &ry, &rw, &rh);
        else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rate") && i + 1 < argc) rate = atof(argv[++i]);
        else if (!strcmp(argv[i], "--button") && i + 1 < argc) button = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sync-every") && i + 1 < argc) sync_every = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quiet-ms") && i + 1 < argc) quiet_ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--quiet-frac") && i + 1 < argc) quiet_frac = atof(argv[++i]);
        else if (!strcmp(argv[i], "--drain-max-ms") && i + 1 < argc) drain_max_ms = atof(argv[++i]);
        else { fprintf(stderr, "xdrive drag: bad argument %s\n", argv[i]); return 2; }
    }
    if (pid <= 0 || rw <= 0 || rh <= 0) { fprintf(stderr, "xdrive drag: need --pid and --rect X,Y,W,H\n"); return 2; }
    if (sync_every < 1) sync_every = 1;
    int scr = DefaultScreen(dpy);
    int cx = rx + rw / 2, cy = ry + rh / 2;
    double r = 0.35 * (rw < rh ? rw : rh);
    if (r < 20) r = 20;
    const int per_turn = 240; /* ~0.026 rad/step -> >= 1 px per step for r >= 40 */

    XTestGrabControl(dpy, True);
    XTestFakeMotionEvent(dpy, scr, cx + (int)r, cy, 0);
    XSync(dpy, False);
    usleep(50000);
    cpu_t c0 = cpu_of(pid), a0 = { 0, 0 };
    if (also_pid > 0) a0 = cpu_of(also_pid);
    double t0 = now_ms();
    XTestFakeButtonEvent(dpy, button, True, 0);
    int lx = cx + (int)r, ly = cy;
    for (i = 1; i <= n; i++) {
        double a = 2 * M_PI * i / per_turn;
        double rr = r * (1.0 - 0.15 * sin(a * 0.37));
        int x = cx + (int)lround(rr * cos(a)), y = cy + (int)lround(rr * sin(a));
        if (x == lx && y == ly) x++;          /* never send a no-op motion */
        XTestFakeMotionEvent(dpy, scr, x, y, 0);
        lx = x; ly = y;
        if (i % sync_every == 0) XSync(dpy, False);
        if (rate > 0) sleep_until_ms(t0 + i * 1e3 / rate);
    }
    XSync(dpy, False);
    double t_sent = now_ms();
    XTestFakeButtonEvent(dpy, button, False, 0);
    XSync(dpy, False);

    /* sample CPU every 2 ms until quiet */
    enum { MAXS = 200000 };
    static double ts[MAXS];
    static long long ns[MAXS], tk[MAXS];
    int k = 0, found = -1, j = 0, m = 0;
    double qns = quiet_frac * quiet_ms * 1e6;
    for (;;) {
        cpu_t c = cpu_of(pid);
        ts[k] = now_ms(); ns[k] = c.ns; tk[k] = c.ticks; k++;
        /* candidate start j (monotone): window [ts[j], ts[m]] with ts[m]-ts[j] >= quiet_ms */
        while (j < k) {
            if (m < j) m = j;
            while (m < k && ts[m] - ts[j] < quiet_ms) m++;
            if (m >= k) break;                       /* window not complete yet */
            if (ns[m] - ns[j] < qns) { found = j; break; }
            j++;
        }
        if (found >= 0) break;
        if (ts[k - 1] - t_sent > drain_max_ms || k >= MAXS) break;
        usleep(2000);
    }
    int end = found >= 0 ? found : k - 1;
    cpu_t a1 = { 0, 0 };
    if (also_pid > 0) a1 = cpu_of(also_pid);   /* measured at the end of the quiet window */
    double drain = ts[end] - t_sent;
    double cpu_sched = (ns[end] - c0.ns) / 1e9;
    double cpu_ticks = (tk[end] - c0.ticks) / (double)sysconf(_SC_CLK_TCK);
    printf("events=%d\n", n);
    printf("rate_hz=%g\n", rate);
    printf("send_ms=%.1f\n", t_sent - t0);
    printf("drain_ms=%.1f\n", drain);
    printf("drained=%s\n", found >= 0 ? "yes" : "no(timeout)");
    printf("cpu_ticks_s=%.3f\n", cpu_ticks);
    printf("cpu_sched_s=%.4f\n", cpu_sched);
    printf("us_per_event_ticks=%.2f\n", cpu_ticks * 1e6 / n);
    printf("us_per_event_sched=%.2f\n", cpu_sched * 1e6 / n);
    if (also_pid > 0) printf("also_pid_cpu_sched_s=%.4f\n", (a1.ns - a0.ns) / 1e9);
    return 0;
}

/* ---------- mpx-test ---------- */

static int find_device(Display *dpy, const char *name, int use, int *attachment)
{
    int ndev, i, id = -1;
    XIDeviceInfo *info = XIQueryDevice(dpy, XIAllDevices, &ndev);
    for (i = 0; i < ndev; i++)
        if (!strcmp(info[i].name, name) && (use < 0 || info[i].use == use)) {
            id = info[i].deviceid;
            if (attachment) *attachment = info[i].attachment;
        }
    XIFreeDeviceInfo(info);
    return id;
}

static void query_ptr(Display *dpy, int dev, Window w, double *x, double *y, int *b1)
{
    Window rr, cr;
    double wx, wy;
    XIButtonState bs;
    XIModifierState ms;
    XIGroupState gs;
    XIQueryPointer(dpy, dev, w, &rr, &cr, x, y, &wx, &wy, &bs, &ms, &gs);
    *b1 = bs.mask_len > 0 && XIMaskIsSet(bs.mask, 1);
    if (bs.mask) XFree(bs.mask);
}

static int cmd_mpx(Display *dpy)
{
    int op, ev, err, maj = 2, min = 2, scr = DefaultScreen(dpy);
    Window root = DefaultRootWindow(dpy);
    int verdict = 1;
    if (!XQueryExtension(dpy, "XInputExtension", &op, &ev, &err) || XIQueryVersion(dpy, &maj, &min) != Success) {
        printf("MPX: no XI2\n");
        return 1;
    }
    printf("step1 XIQueryVersion(request 2.2) -> %d.%d\n", maj, min);

    XIAddMasterInfo add = { .type = XIAddMaster, .name = "bench2", .send_core = True, .enable = True };
    Status s = XIChangeHierarchy(dpy, (XIAnyHierarchyChangeInfo *)&add, 1);
    XSync(dpy, False);
    int att = -1;
    int m2 = find_device(dpy, "bench2 pointer", XIMasterPointer, NULL);
    int m2kbd = find_device(dpy, "bench2 keyboard", XIMasterKeyboard, NULL);
    int s2 = find_device(dpy, "bench2 XTEST pointer", XISlavePointer, &att);
    int core = find_device(dpy, "Virtual core pointer", XIMasterPointer, NULL);
    printf("step2 XIChangeHierarchy(XIAddMaster \"bench2\") status=%d -> master pointer id=%d, master keyboard id=%d, "
           "slave \"bench2 XTEST pointer\" id=%d attached to %d; core pointer id=%d\n", s, m2, m2kbd, s2, att, core);
    if (m2 < 0 || s2 < 0) { printf("MPX_CREATE=no\n"); return 1; }
    printf("MPX_CREATE=yes\n");

    /* test window covering the screen, XI2 events from all master devices */
    int sw = DisplayWidth(dpy, scr), sh = DisplayHeight(dpy, scr);
    Window w = XCreateSimpleWindow(dpy, root, 0, 0, sw, sh, 0, 0, WhitePixel(dpy, scr));
    XSetWindowAttributes swa = { .override_redirect = True };
    XChangeWindowAttributes(dpy, w, CWOverrideRedirect, &swa);
    unsigned char mask[XIMaskLen(XI_LASTEVENT)] = { 0 };
    XISetMask(mask, XI_Motion); XISetMask(mask, XI_ButtonPress); XISetMask(mask, XI_ButtonRelease);
    XIEventMask em = { .deviceid = XIAllMasterDevices, .mask_len = sizeof mask, .mask = mask };
    XISelectEvents(dpy, w, &em, 1);
    XMapRaised(dpy, w);
    XSync(dpy, False);
    usleep(100000);

    XDevice *dev = XOpenDevice(dpy, s2);
    printf("step3 XOpenDevice(%d) -> %s\n", s2, dev ? "ok" : "FAILED");
    if (!dev) return 1;

    /* core pointer to (100,100); second master to (700,500) */
    XTestFakeMotionEvent(dpy, scr, 100, 100, 0);
    int axes[2] = { 700, 500 };
    XTestFakeDeviceMotionEvent(dpy, dev, False, 0, axes, 2, 0);
    XSync(dpy, False);
    double x1, y1, x2, y2;
    int b1c, b1m;
    query_ptr(dpy, core, root, &x1, &y1, &b1c);
    query_ptr(dpy, m2, root, &x2, &y2, &b1m);
    printf("step4 after XTestFakeMotionEvent(core,100,100) + XTestFakeDeviceMotionEvent(bench2 XTEST,700,500): "
           "XIQueryPointer core=(%.0f,%.0f) bench2=(%.0f,%.0f)\n", x1, y1, x2, y2);
    int pos_ok = x1 == 100 && y1 == 100 && x2 == 700 && y2 == 500;

    XTestFakeDeviceButtonEvent(dpy, dev, 1, True, NULL, 0, 0);
    XSync(dpy, False);
    query_ptr(dpy, core, root, &x1, &y1, &b1c);
    query_ptr(dpy, m2, root, &x2, &y2, &b1m);
    printf("step5 after XTestFakeDeviceButtonEvent(bench2 XTEST, button1, press): button1 down core=%d bench2=%d\n", b1c, b1m);
    int btn_ok = !b1c && b1m;

    /* interleaved drags: core along y=200, bench2 along y=600 (bench2 button held) */
    int i;
    for (i = 0; i < 50; i++) {
        XTestFakeMotionEvent(dpy, scr, 100 + 10 * i, 200, 0);
        int a2[2] = { 1100 - 10 * i, 600 };
        XTestFakeDeviceMotionEvent(dpy, dev, False, 0, a2, 2, 0);
    }
    XTestFakeDeviceButtonEvent(dpy, dev, 1, False, NULL, 0, 0);
    XSync(dpy, False);
    usleep(100000);

    int n_core = 0, n_m2 = 0, n_other = 0, bad = 0, press_m2 = 0, rel_m2 = 0, press_core = 0;
    int src_s2 = 0;
    while (XPending(dpy)) {
        XEvent e;
        XNextEvent(dpy, &e);
        XGenericEventCookie *c = &e.xcookie;
        if (c->type != GenericEvent || c->extension != op || !XGetEventData(dpy, c)) continue;
        XIDeviceEvent *de = c->data;
        if (de->evtype == XI_Motion) {
            if (de->deviceid == core) { n_core++; if (de->root_y != 200 && de->root_y != 100) bad++; }
            else if (de->deviceid == m2) { n_m2++; if (de->sourceid == s2) src_s2++; if (de->root_y != 600 && de->root_y != 500) bad++; }
            else n_other++;
        } else if (de->evtype == XI_ButtonPress) {
            if (de->deviceid == m2) press_m2++; else press_core++;
        } else if (de->evtype == XI_ButtonRelease && de->deviceid == m2) rel_m2++;
        XFreeEventData(dpy, c);
    }
    query_ptr(dpy, core, root, &x1, &y1, &b1c);
    query_ptr(dpy, m2, root, &x2, &y2, &b1m);
    printf("step6 interleaved 50+50 motions: XI_Motion events on test window: deviceid=%d(core) %d, deviceid=%d(bench2) %d "
           "(of which sourceid=%d: %d), other %d, wrong-track %d; XI_ButtonPress bench2=%d core=%d; XI_ButtonRelease bench2=%d; "
           "final core=(%.0f,%.0f) bench2=(%.0f,%.0f)\n",
           core, n_core, m2, n_m2, s2, src_s2, n_other, bad, press_m2, press_core, rel_m2, x1, y1, x2, y2);
    int ev_ok = n_core >= 50 && n_m2 >= 50 && bad == 0 && press_m2 == 1 && press_core == 0 && rel_m2 == 1
                && x1 == 590 && y1 == 200 && x2 == 610 && y2 == 600;
    verdict = pos_ok && btn_ok && ev_ok;
    printf("MPX_INDEPENDENT_XTEST=%s (positions %s, button %s, events %s)\n", verdict ? "yes" : "no",
           pos_ok ? "ok" : "FAIL", btn_ok ? "ok" : "FAIL", ev_ok ? "ok" : "FAIL");
    XCloseDevice(dpy, dev);
    XIRemoveMasterInfo rm = { .type = XIRemoveMaster, .deviceid = m2, .return_mode = XIAttachToMaster,
                              .return_pointer = core, .return_keyboard = find_device(dpy, "Virtual core keyboard", XIMasterKeyboard, NULL) };
    XIChangeHierarchy(dpy, (XIAnyHierarchyChangeInfo *)&rm, 1);
    XSync(dpy, False);
    printf("cleanup XIRemoveMaster -> bench2 pointer now %s\n", find_device(dpy, "bench2 pointer", -1, NULL) < 0 ? "gone" : "still present");
    XDestroyWindow(dpy, w);
    XSync(dpy, False);
    return verdict ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: xdrive info | drag --pid PID --rect X,Y,W,H [...] | mpx-test | cpu PID\n");
        return 2;
    }
    if (!strcmp(argv[1], "cpu") && argc == 3) {           /* no display needed */
        cpu_t c = cpu_of(atoi(argv[2]));
        printf("cpu_ticks=%lld\ncpu_ticks_s=%.3f\ncpu_sched_ns=%lld\n", c.ticks, c.ticks / (double)sysconf(_SC_CLK_TCK), c.ns);
        return 0;
    }
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) { fprintf(stderr, "xdrive: cannot open display\n"); return 2; }
    int ev, err, maj, min;
    if (!XTestQueryExtension(dpy, &ev, &err, &maj, &min)) { fprintf(stderr, "xdrive: no XTEST\n"); return 2; }
    int rc;
    if (!strcmp(argv[1], "info")) rc = cmd_info(dpy);
    else if (!strcmp(argv[1], "drag")) rc = cmd_drag(dpy, argc - 2, argv + 2);
    else if (!strcmp(argv[1], "mpx-test")) rc = cmd_mpx(dpy);
    else { fprintf(stderr, "xdrive: unknown command %s\n", argv[1]); rc = 2; }
    XCloseDisplay(dpy);
    return rc;
}
