/* Seeds for the XI2 decoder fuzzer: XInput 2 events laid out as XCB hands them over (the wire
 * event with XCB's full_sequence at byte 32), one file each.
 *
 *   cc seeds.c $(pkg-config --cflags --libs xcb xcb-xinput x11 x11-xcb xi xtst) -o seeds
 *   ./seeds DIR            events built with xcb-xinput's structs (touch, pinch, swipe and the rest)
 *   ./seeds --capture DIR  real events from the X server on $DISPLAY (Xvfb will do), made with
 *                          XTest and XIChangeHierarchy: motion, buttons, keys, enter/leave, and
 *                          hierarchy changes with a master added and removed.
 *
 * The extension opcode is rewritten to 131, the opcode the harness decodes for. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <X11/Xlib.h>
#include <X11/Xlib-xcb.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>
#include <xcb/xcb.h>
#include <xcb/xinput.h>

#define OPCODE 131

static void write_event(const char *dir, const char *name, void *event, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(event, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* Fills the GenericEvent header of a struct-built event of `size` bytes (XCB's layout). */
static void header(void *event, uint16_t evtype, size_t size)
{
    xcb_ge_generic_event_t *ge = event;
    ge->response_type = XCB_GE_GENERIC;
    ge->extension = OPCODE;
    ge->sequence = 0x2a;
    ge->length = (uint32_t)((size - 36) / 4);
    ge->event_type = evtype;
}

#define FP(v) ((int32_t)((v) * 65536))

static void built(const char *dir)
{
    static const struct { uint16_t type; const char *name; } device[] = {
        {XI_TouchBegin, "touch-begin"}, {XI_TouchUpdate, "touch-update"}, {XI_TouchEnd, "touch-end"},
        {XI_KeyPress, "key-press"}, {XI_ButtonPress, "button-press"}, {XI_Motion, "motion"},
    };
    for (size_t i = 0; i < sizeof device / sizeof device[0]; i++) {
        /* The fixed part, a one-word button mask, a one-word valuator mask (axes 0 and 1), two FP32.32. */
        struct { xcb_input_touch_begin_event_t e; uint32_t buttons, valuators, values[4]; } ev = {0};
        ev.e.deviceid = 2;
        ev.e.sourceid = 11;
        ev.e.time = 123456;
        ev.e.detail = device[i].type == XI_KeyPress ? 38 : device[i].type == XI_ButtonPress ? 1 : 5;
        ev.e.root = ev.e.event = 0x200001;
        ev.e.root_x = FP(400.5);
        ev.e.root_y = FP(300.25);
        ev.e.event_x = FP(100.5);
        ev.e.event_y = FP(80.25);
        ev.e.buttons_len = 1;
        ev.e.valuators_len = 1;
        ev.e.flags = device[i].type == XI_TouchBegin ? XITouchEmulatingPointer : 0;
        ev.e.mods.effective = ev.e.mods.base = ControlMask;
        ev.buttons = 2;
        ev.valuators = 3;
        ev.values[0] = 400;
        ev.values[2] = 300;
        header(&ev, device[i].type, sizeof ev);
        write_event(dir, device[i].name, &ev, sizeof ev);
    }

    xcb_input_enter_event_t leave = {0};
    leave.deviceid = 2;
    leave.sourceid = 2;
    leave.time = 123457;
    leave.event_x = FP(-1);
    header(&leave, XI_Leave, sizeof leave);
    write_event(dir, "leave", &leave, sizeof leave);

    static const uint16_t pinches[] = {XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd};
    for (int i = 0; i < 3; i++) {
        xcb_input_gesture_pinch_begin_event_t p = {0};
        p.deviceid = 2;
        p.sourceid = 12;
        p.time = 200000 + i;
        p.detail = 2;
        p.event_x = FP(512);
        p.event_y = FP(384);
        p.delta_x = p.delta_unaccel_x = FP(0.5);
        p.scale = FP(1 + 0.25 * i);
        p.delta_angle = FP(-3.5);
        p.flags = i == 2 ? XIGesturePinchEventCancelled : 0;
        header(&p, pinches[i], sizeof p);
        char name[32];
        snprintf(name, sizeof name, "pinch-%d", i);
        write_event(dir, name, &p, sizeof p);
    }
    static const uint16_t swipes[] = {XI_GestureSwipeBegin, XI_GestureSwipeUpdate, XI_GestureSwipeEnd};
    for (int i = 0; i < 3; i++) {
        xcb_input_gesture_swipe_begin_event_t s = {0};
        s.deviceid = 2;
        s.sourceid = 12;
        s.time = 300000 + i;
        s.detail = 3;
        s.event_x = FP(512);
        s.event_y = FP(384);
        s.delta_x = s.delta_unaccel_x = FP(12.5);
        s.delta_y = s.delta_unaccel_y = FP(-2);
        header(&s, swipes[i], sizeof s);
        char name[32];
        snprintf(name, sizeof name, "swipe-%d", i);
        write_event(dir, name, &s, sizeof s);
    }

    struct { xcb_input_hierarchy_event_t e; xcb_input_hierarchy_info_t info[2]; } h = {0};
    h.e.deviceid = XIAllDevices;
    h.e.time = 400000;
    h.e.flags = XIMasterRemoved | XISlaveDetached;
    h.e.num_infos = 2;
    h.info[0].deviceid = 14;
    h.info[0].type = XIMasterPointer;
    h.info[0].flags = XIMasterRemoved;
    h.info[1].deviceid = 15;
    h.info[1].attachment = 2;
    h.info[1].type = XISlavePointer;
    h.info[1].enabled = 1;
    h.info[1].flags = XISlaveDetached;
    header(&h, XI_HierarchyChanged, sizeof h);
    write_event(dir, "hierarchy", &h, sizeof h);
}

static int capture(const char *dir)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "seeds: cannot open display\n");
        return 1;
    }
    int opcode, ev, err, major = 2, minor = 2;
    if (!XQueryExtension(dpy, "XInputExtension", &opcode, &ev, &err) || XIQueryVersion(dpy, &major, &minor) != Success) {
        fprintf(stderr, "seeds: no XInput 2\n");
        return 1;
    }
    xcb_connection_t *c = XGetXCBConnection(dpy);
    XSetEventQueueOwner(dpy, XCBOwnsEventQueue);
    Window root = DefaultRootWindow(dpy);
    Window win = XCreateSimpleWindow(dpy, root, 0, 0, 400, 300, 0, 0, 0);
    unsigned char bits[XIMaskLen(XI_LASTEVENT)] = {0};
    XIEventMask mask = {XIAllMasterDevices, sizeof bits, bits};
    XISetMask(bits, XI_Motion);
    XISetMask(bits, XI_ButtonPress);
    XISetMask(bits, XI_ButtonRelease);
    XISetMask(bits, XI_KeyPress);
    XISetMask(bits, XI_KeyRelease);
    XISetMask(bits, XI_Enter);
    XISetMask(bits, XI_Leave);
    XISelectEvents(dpy, win, &mask, 1);
    unsigned char rootBits[XIMaskLen(XI_LASTEVENT)] = {0};
    XIEventMask rootMask = {XIAllDevices, sizeof rootBits, rootBits};
    XISetMask(rootBits, XI_HierarchyChanged);
    XISelectEvents(dpy, root, &rootMask, 1);
    XMapRaised(dpy, win);
    XSync(dpy, False);
    usleep(200000);
    XSetInputFocus(dpy, win, RevertToPointerRoot, CurrentTime);
    XTestFakeMotionEvent(dpy, -1, 500, 500, 0); /* outside, then in: Enter */
    XTestFakeMotionEvent(dpy, -1, 100, 80, 0);
    XTestFakeMotionEvent(dpy, -1, 120, 90, 0);
    XTestFakeButtonEvent(dpy, 1, True, 0);
    XTestFakeMotionEvent(dpy, -1, 140, 100, 0);
    XTestFakeButtonEvent(dpy, 1, False, 0);
    XTestFakeKeyEvent(dpy, XKeysymToKeycode(dpy, 'a'), True, 0);
    XTestFakeKeyEvent(dpy, XKeysymToKeycode(dpy, 'a'), False, 0);
    XTestFakeMotionEvent(dpy, -1, 600, 500, 0); /* Leave */
    XIAddMasterInfo add = {XIAddMaster, "seeds", True, True};
    XIChangeHierarchy(dpy, (XIAnyHierarchyChangeInfo *)&add, 1);
    XSync(dpy, False);
    int masters;
    XIDeviceInfo *info = XIQueryDevice(dpy, XIAllMasterDevices, &masters);
    for (int i = 0; i < masters; i++) {
        if (info[i].use == XIMasterPointer && strcmp(info[i].name, "seeds pointer") == 0) {
            XIRemoveMasterInfo rm = {XIRemoveMaster, info[i].deviceid, XIFloating, 0, 0};
            XIChangeHierarchy(dpy, (XIAnyHierarchyChangeInfo *)&rm, 1);
        }
    }
    XIFreeDeviceInfo(info);
    XSync(dpy, False);
    usleep(200000);
    int n = 0;
    xcb_generic_event_t *e;
    while ((e = xcb_poll_for_event(c))) {
        xcb_ge_generic_event_t *ge = (xcb_ge_generic_event_t *)e;
        if ((e->response_type & 0x7f) == XCB_GE_GENERIC && ge->extension == opcode) {
            ge->extension = OPCODE;
            char name[32];
            snprintf(name, sizeof name, "real-%02d-type%d", n++, ge->event_type);
            write_event(dir, name, e, 36 + 4 * (size_t)ge->length);
        }
        free(e);
    }
    XCloseDisplay(dpy);
    printf("seeds: captured %d events\n", n);
    return n > 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--capture") == 0) return capture(argv[2]);
    if (argc != 2) {
        fprintf(stderr, "usage: seeds [--capture] DIR\n");
        return 2;
    }
    built(argv[1]);
    return 0;
}
