import CXCB
import GestureKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The window: creation, ICCCM/EWMH properties, the kiosk cursor, fullscreen, input selection.
extension X11Shell {
    static let atomNames = [
        "WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "_NET_WM_PID",
        "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN", "_NET_SUPPORTING_WM_CHECK", "WM_CLASS",
        "_NET_WM_ICON", "_NET_CLOSE_WINDOW", "_NET_WM_FULLSCREEN_MONITORS", "_NET_SUPPORTED",
    ]

    /// Predefined atoms (X11/Xatom.h).
    enum PredefinedAtom {
        static let atom: xcb_atom_t = 4
        static let cardinal: xcb_atom_t = 6
        static let string: xcb_atom_t = 31
        static let wmClientMachine: xcb_atom_t = 36
        static let wmHints: xcb_atom_t = 35
        static let wmName: xcb_atom_t = 39
        static let wmNormalHints: xcb_atom_t = 40
        static let wmSizeHints: xcb_atom_t = 41
        static let window: xcb_atom_t = 33
    }

    func detectWindowManager() -> Bool {
        x.property(x.root, x.atom("_NET_SUPPORTING_WM_CHECK"), type: PredefinedAtom.window, maxBytes: 4) != nil
    }

    func createWindow() {
        var w: Int
        var h: Int
        if let p = windowState.placement?.rect {
            (w, h) = (p.width, p.height)
        } else {
            let s = options.size ?? ShellOptions.defaultSize
            w = min(max(1, Int((s.width * scale).rounded())), x.screenWidth)
            h = min(max(1, Int((s.height * scale).rounded())), x.screenHeight)
        }
        var events: UInt32 =
            XCB_EVENT_MASK_EXPOSURE.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue
            | XCB_EVENT_MASK_FOCUS_CHANGE.rawValue
        if options.kiosk {
            events |= XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue | XCB_EVENT_MASK_VISIBILITY_CHANGE.rawValue
        }
        if !options.useXInput2 || !xinputAvailable() {
            events |=
                XCB_EVENT_MASK_BUTTON_PRESS.rawValue | XCB_EVENT_MASK_BUTTON_RELEASE.rawValue
                | XCB_EVENT_MASK_POINTER_MOTION.rawValue | XCB_EVENT_MASK_KEY_PRESS.rawValue
                | XCB_EVENT_MASK_KEY_RELEASE.rawValue | XCB_EVENT_MASK_LEAVE_WINDOW.rawValue
        }
        // Value list in the order of the mask bits: back pixmap None, bit gravity NorthWest,
        // event mask.
        let mask = XCB_CW_BACK_PIXMAP.rawValue | XCB_CW_BIT_GRAVITY.rawValue | XCB_CW_EVENT_MASK.rawValue
        var values: [UInt32] = [0, UInt32(XCB_GRAVITY_NORTH_WEST.rawValue), events]
        xcb_create_window(
            x.raw, x.rootDepth, xid, x.root, Int16(clamping: windowState.placement?.rect.x ?? 0),
            Int16(clamping: windowState.placement?.rect.y ?? 0), UInt16(clamping: w), UInt16(clamping: h), 0,
            UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), x.rootVisual, mask, &values)
        window = UInt(xid)
        windowState.pixelSize = drawnSize(width: w, height: h)
        size = pointSize(width: w, height: h)
        setProperties(width: w, height: h)
        if options.kiosk { hideCursor() }
    }

    /// Whether the server has XInput 2 (and which version: ``xinputVersion``).
    func xinputAvailable() -> Bool {
        if input.xiOpcode != 0 { return true }
        guard let ext = gestures_xinput_extension(x.raw), ext.pointee.present != 0 else { return false }
        let cookie = xcb_input_xi_query_version(x.raw, 2, 4)
        guard let reply = xcb_input_xi_query_version_reply(x.raw, cookie, nil) else {
            x.exitIfBroken()
            return false
        }
        defer { free(reply) }
        guard reply.pointee.major_version >= 2 else { return false }
        xinputVersion = Double(reply.pointee.major_version) + Double(reply.pointee.minor_version) / 10
        input.xiOpcode = ext.pointee.major_opcode
        return true
    }

    private func setProperties(width: Int, height: Int) {
        let title = Array(options.title.utf8)
        x.setProperty(xid, PredefinedAtom.wmName, type: PredefinedAtom.string, bytes: title)
        x.setProperty(xid, x.atom("_NET_WM_NAME"), type: x.atom("UTF8_STRING"), bytes: title)
        x.setProperty(
            xid, x.atom("WM_CLASS"), type: PredefinedAtom.string, bytes: Array("gestures\0Gestures\0".utf8))
        x.setProperty(xid, x.atom("WM_PROTOCOLS"), type: PredefinedAtom.atom, words: [x.atom("WM_DELETE_WINDOW")])
        x.setProperty(xid, x.atom("_NET_WM_PID"), type: PredefinedAtom.cardinal, words: [UInt32(getpid())])
        var host = [CChar](repeating: 0, count: 256)
        if gethostname(&host, host.count - 1) == 0 {
            let bytes = host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            x.setProperty(xid, PredefinedAtom.wmClientMachine, type: PredefinedAtom.string, bytes: bytes)
        }
        // WM_HINTS: flags InputHint|StateHint, input True, initial state NormalState.
        x.setProperty(xid, PredefinedAtom.wmHints, type: PredefinedAtom.wmHints, words: [3, 1, 1, 0, 0, 0, 0, 0, 0])
        // WM_NORMAL_HINTS: flags PSize|PMinSize, then x, y, width, height, min width, min height…
        var hints = [UInt32](repeating: 0, count: 18)
        hints[0] = 8 | 16
        if let p = windowState.placement?.rect {
            // USPosition|USSize on the chosen monitor (X11Shell+Monitors.swift).
            (hints[0], hints[1], hints[2]) = (
                8 | 16 | 1 | 2, UInt32(bitPattern: Int32(p.x)), UInt32(bitPattern: Int32(p.y))
            )
        }
        hints[3] = UInt32(width)
        hints[4] = UInt32(height)
        hints[5] = UInt32((160 * scale).rounded())
        hints[6] = UInt32((120 * scale).rounded())
        x.setProperty(xid, PredefinedAtom.wmNormalHints, type: PredefinedAtom.wmSizeHints, words: hints)
        if options.fullscreen || options.kiosk {
            x.setProperty(
                xid, x.atom("_NET_WM_STATE"), type: PredefinedAtom.atom, words: [x.atom("_NET_WM_STATE_FULLSCREEN")])
            windowState.fullscreenNow = true
        }
        kioskGuardProperties()
    }

    /// Kiosk: an empty 1×1 cursor.
    private func hideCursor() {
        let pixmap = x.newID()
        xcb_create_pixmap(x.raw, 1, pixmap, xid, 1, 1)
        let gc = x.newID()
        var zero: [UInt32] = [0]
        xcb_create_gc(x.raw, gc, pixmap, XCB_GC_FOREGROUND.rawValue, &zero)
        var r = xcb_rectangle_t(x: 0, y: 0, width: 1, height: 1)
        xcb_poly_fill_rectangle(x.raw, pixmap, gc, 1, &r)
        let cursor = x.newID()
        xcb_create_cursor(x.raw, cursor, pixmap, pixmap, 0, 0, 0, 0, 0, 0, 0, 0)
        var value: [UInt32] = [cursor]
        xcb_change_window_attributes(x.raw, xid, XCB_CW_CURSOR.rawValue, &value)
        xcb_free_cursor(x.raw, cursor)
        xcb_free_gc(x.raw, gc)
        xcb_free_pixmap(x.raw, pixmap)
    }

    /// XI2 event numbers (XI2.h).
    enum XI {
        static let keyPress: UInt16 = 2
        static let keyRelease: UInt16 = 3
        static let buttonPress: UInt16 = 4
        static let buttonRelease: UInt16 = 5
        static let motion: UInt16 = 6
        static let leave: UInt16 = 8
        static let hierarchyChanged: UInt16 = 11
        static let touchBegin: UInt16 = 18
        static let touchUpdate: UInt16 = 19
        static let touchEnd: UInt16 = 20
        static let pinchBegin: UInt16 = 27
        static let pinchUpdate: UInt16 = 28
        static let pinchEnd: UInt16 = 29
        static let swipeBegin: UInt16 = 30
        static let swipeUpdate: UInt16 = 31
        static let swipeEnd: UInt16 = 32
        static let allDevices: UInt16 = 0
        static let allMasterDevices: UInt16 = 1
    }

    func setUpInput() {
        guard options.useXInput2, xinputAvailable() else {
            // One warning line whenever the shell falls back to core events (docs/DESIGN.md §5), also when
            // the fallback was asked for (--core-input).
            writeStderr(
                "gestures: warning: "
                    + (options.useXInput2 ? "the X server has no XInput 2" : "XInput 2 is off (--core-input)")
                    + "; using core mouse and key events (no touch, one pointer)")
            xinputVersion = 0
            return
        }
        let minor = Int((xinputVersion * 10).rounded()) % 10
        var events: [UInt16] = [XI.buttonPress, XI.buttonRelease, XI.motion, XI.keyPress, XI.keyRelease, XI.leave]
        let touch = [XI.touchBegin, XI.touchUpdate, XI.touchEnd]
        let gestures = [XI.pinchBegin, XI.pinchUpdate, XI.pinchEnd, XI.swipeBegin, XI.swipeUpdate, XI.swipeEnd]
        if minor >= 4 { events += gestures }
        if minor >= 2 {
            // Only one client may select touch events on a window (BadAccess otherwise).
            let status = select(events + touch, on: xid, device: XI.allMasterDevices, checked: true)
            if status < 0 { XConnection.lost() }
            input.touchSelected = status == 0
            if !input.touchSelected {
                select(events, on: xid, device: XI.allMasterDevices)
                writeStderr("gestures: warning: another client takes the touch events; touch is off")
            }
        } else {
            select(events, on: xid, device: XI.allMasterDevices)
        }
        select([XI.hierarchyChanged], on: x.root, device: XI.allDevices)
        queryScrollAxes()
    }

    /// Selects XI2 `events`; with `checked`, waits for the server and returns its error code
    /// (0: selected).
    @discardableResult
    private func select(_ events: [UInt16], on target: xcb_window_t, device: UInt16, checked: Bool = false) -> Int32 {
        var mask = [UInt32](repeating: 0, count: 2)
        for e in events { mask[Int(e) >> 5] |= UInt32(1) << UInt32(e & 31) }
        return gestures_xi_select(x.raw, target, device, mask, UInt16(mask.count), checked ? 1 : 0)
    }

    /// The refresh rate of the screen's first active CRTC (RandR): the rate of the mode it
    /// shows, when the server reports one (Xvfb reports none).
    func refreshRate() -> Double? {
        guard let ext = gestures_randr_extension(x.raw), ext.pointee.present != 0 else { return nil }
        let cookie = xcb_randr_get_screen_resources_current(x.raw, x.root)
        guard let reply = xcb_randr_get_screen_resources_current_reply(x.raw, cookie, nil) else {
            x.exitIfBroken()
            return nil
        }
        // Read within the reply's length (XReplyDecoder).
        guard let resources = XConnection.withReply(reply, { XReplyDecoder.screenResources($0) }),
            !resources.modes.isEmpty, !resources.crtcs.isEmpty
        else { return nil }
        // Every CRTC asked at once: one round trip at startup, not one per CRTC.
        let cookies = resources.crtcs.map { xcb_randr_get_crtc_info(x.raw, $0, resources.configTimestamp) }
        let active = cookies.map { cookie -> xcb_randr_mode_t in
            // The mode is in the reply's fixed 32 bytes.
            guard let info = xcb_randr_get_crtc_info_reply(x.raw, cookie, nil) else { return 0 }
            defer { free(info) }
            return info.pointee.mode
        }
        for mode in active where mode != 0 {
            guard let m = resources.modes.first(where: { $0.id == mode }) else { continue }
            let dots = Double(m.htotal) * Double(m.vtotal)
            guard m.dotClock > 0, dots > 0 else { continue }
            let rate = Double(m.dotClock) / dots
            if rate.isFinite && rate >= 20 && rate <= 1000 { return rate }
        }
        return nil
    }

    func toggleFullscreen() {
        if windowState.hasWindowManager {
            // _NET_WM_STATE_TOGGLE (2) of the fullscreen state, source indication 1 (application).
            var data: [UInt32] = [2, x.atom("_NET_WM_STATE_FULLSCREEN"), 0, 1, 0]
            gestures_send_client_message(
                x.raw, x.root, xid, x.atom("_NET_WM_STATE"), &data,
                XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue)
        } else if let g = windowState.savedGeometry {
            moveResize(x: g.x, y: g.y, width: g.w, height: g.h)
            windowState.savedGeometry = nil
        } else {
            windowState.savedGeometry = (
                0, 0, UInt32(windowState.pixelSize.width), UInt32(windowState.pixelSize.height)
            )
            // The chosen monitor (--monitor), else the whole screen (X11Shell+Monitors.swift).
            if let p = try? currentPlacement(strict: false) {
                windowState.placement = p
                moveResize(
                    x: Int32(p.rect.x), y: Int32(p.rect.y), width: UInt32(p.rect.width), height: UInt32(p.rect.height))
            }
        }
        windowState.fullscreenNow.toggle()
    }

    /// The largest picture the shell draws, per side: twice the screen's size (what can be seen
    /// of a window on the screen, with room for a window moved partly off it), and never more
    /// than 16384 pixels (X coordinates are 16-bit signed; Cairo's image surfaces end at 32767).
    /// Another client may resize the window to anything up to 65535×65535 (`xdotool windowsize`);
    /// the shell then lays its scene out and draws at this size from the window's top-left corner
    /// and leaves the rest of the window undrawn (its background is None: the server shows what
    /// was there). A full redraw stays bounded (4× the screen's pixels) and so does the time the
    /// loop spends on it.
    var drawLimit: (width: Int, height: Int) {
        (min(16384, max(1, 2 * x.screenWidth)), min(16384, max(1, 2 * x.screenHeight)))
    }

    /// A window size in pixels as the shell draws it: at least 1×1, at most ``drawLimit``.
    func drawnSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let limit = drawLimit
        return (min(max(1, width), limit.width), min(max(1, height), limit.height))
    }

    func moveResize(x px: Int32, y py: Int32, width: UInt32, height: UInt32) {
        var values: [UInt32] = [UInt32(bitPattern: px), UInt32(bitPattern: py), width, height]
        let mask =
            XCB_CONFIG_WINDOW_X.rawValue | XCB_CONFIG_WINDOW_Y.rawValue | XCB_CONFIG_WINDOW_WIDTH.rawValue
            | XCB_CONFIG_WINDOW_HEIGHT.rawValue
        xcb_configure_window(x.raw, xid, UInt16(mask), &values)
    }
}
