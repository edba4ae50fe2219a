import CXCB
import GestureKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Monitors: which rectangle of the X screen a fullscreen (or kiosk) window covers, and
/// following it at run time. (UIKit: a `UIWindow`'s `screen`.)
///
/// - The monitors are RandR 1.5's (`RRGetMonitors`, active ones, in the server's order — the
///   primary first — which is also the Xinerama order EWMH's `_NET_WM_FULLSCREEN_MONITORS`
///   counts in). Xinerama is the fallback: a server without RandR 1.5, or one running classic
///   Xinerama over several X screens (where RandR describes only the first screen — `Xvfb
///   +xinerama -screen 0 … -screen 1 …` reports one RandR monitor and two Xinerama screens),
///   gets Xinerama's screens, named `xinerama-N`, the first one primary. A server with neither
///   has one monitor, the whole screen, named `screen`.
/// - Without `--monitor` the window covers the whole screen (the behaviour before monitors
///   were chosen).
/// - Without a window manager the shell places the window itself (position and size); with one,
///   it creates the window on the monitor with a user-specified position, asks for fullscreen
///   and for `_NET_WM_FULLSCREEN_MONITORS` of that monitor (WMs that do not know that message
///   fullscreen the window on the monitor it was placed on).
/// - RandR screen-change and notify events and the root window's ConfigureNotify (`xrandr
///   --fb`, `--setmonitor`, rotation, hotplug) re-read the monitors and place the window again.
///   A chosen monitor that disappears leaves the window on the whole screen (one stderr line)
///   until it is back; a monitor partly off the screen is clipped to it.
extension X11Shell {
    /// What the window covers: the chosen monitor (index in the server's list) or the screen.
    struct Placement: Equatable {
        var rect: Monitor
        var index: Int?
    }

    /// The server's monitors (RandR 1.5), or one covering the whole root without RandR 1.5.
    public static func monitors(display: String?) throws(ShellError) -> [Monitor] {
        let x = try XConnection(display: display)
        defer { x.close() }
        let (w, h) = rootSize(x)
        return queryMonitors(x) ?? [Monitor(name: "screen", x: 0, y: 0, width: w, height: h, primary: true)]
    }

    /// RandR 1.5's monitors, or Xinerama's screens when there are more of those (classic
    /// Xinerama) or no RandR 1.5; nil when the server has neither.
    static func queryMonitors(_ x: XConnection) -> [Monitor]? {
        let randr = queryRandRMonitors(x)
        let xinerama = queryXineramaScreens(x)
        if let xinerama, xinerama.count > (randr?.count ?? 0) { return xinerama }
        return randr ?? xinerama
    }

    /// The Xinerama screens while Xinerama is active, nil otherwise.
    static func queryXineramaScreens(_ x: XConnection) -> [Monitor]? {
        guard let ext = gestures_xinerama_extension(x.raw), ext.pointee.present != 0 else { return nil }
        guard let active = xcb_xinerama_is_active_reply(x.raw, xcb_xinerama_is_active(x.raw), nil) else {
            x.exitIfBroken()
            return nil
        }
        let on = active.pointee.state != 0
        free(active)
        guard on, let reply = xcb_xinerama_query_screens_reply(x.raw, xcb_xinerama_query_screens(x.raw), nil) else {
            x.exitIfBroken()
            return nil
        }
        let screens = XConnection.withReply(reply) { XReplyDecoder.xineramaScreens($0) }
        guard !screens.isEmpty else { return nil }
        return screens.enumerated().map { i, s in
            Monitor(name: "xinerama-\(i)", x: s.x, y: s.y, width: s.width, height: s.height, primary: s.primary)
        }
    }

    static func rootSize(_ x: XConnection) -> (Int, Int) {
        let cookie = xcb_get_geometry(x.raw, x.root)
        guard let reply = xcb_get_geometry_reply(x.raw, cookie, nil) else {
            x.exitIfBroken()
            return (x.screenWidth, x.screenHeight)
        }
        defer { free(reply) }
        return (Int(reply.pointee.width), Int(reply.pointee.height))
    }

    /// RandR 1.5 monitors, nil when the server has no RandR 1.5.
    static func queryRandRMonitors(_ x: XConnection) -> [Monitor]? {
        guard let ext = gestures_randr_extension(x.raw), ext.pointee.present != 0 else { return nil }
        guard let version = xcb_randr_query_version_reply(x.raw, xcb_randr_query_version(x.raw, 1, 5), nil) else {
            x.exitIfBroken()
            return nil
        }
        let (major, minor) = (version.pointee.major_version, version.pointee.minor_version)
        free(version)
        guard major > 1 || (major == 1 && minor >= 5) else { return nil }
        guard let reply = xcb_randr_get_monitors_reply(x.raw, xcb_randr_get_monitors(x.raw, x.root, 1), nil) else {
            x.exitIfBroken()
            return nil
        }
        let raw = XConnection.withReply(reply) { XReplyDecoder.monitors($0) }
        let cookies = raw.map { xcb_get_atom_name(x.raw, $0.name) }
        return zip(raw, cookies).map { m, cookie in
            var name = "monitor-\(m.name)"
            if let r = xcb_get_atom_name_reply(x.raw, cookie, nil),
                let bytes = XConnection.withReply(r, { XReplyDecoder.atomName($0) })
            {
                name = String(decoding: bytes, as: UTF8.self)
            }
            return Monitor(
                name: name, x: m.x, y: m.y, width: m.width, height: m.height, primary: m.primary, widthMM: m.widthMM,
                heightMM: m.heightMM)
        }
    }

    /// The HiDPI scale and why (`ScaleChoice`, GestureShellCore): `--scale`, `Xft.dpi` (the root window's
    /// RESOURCE_MANAGER), `GDK_SCALE` / `QT_SCALE_FACTOR`, then the physical size of the monitor
    /// the window goes on (`--monitor`'s, else the primary, else the first).
    static func chooseScale(_ x: XConnection, option: Double?, monitor choice: MonitorChoice?) -> ScaleChoice {
        // RESOURCE_MANAGER and STRING (predefined atoms): Xft.dpi, as Xlib's XResourceManagerString.
        let (resourceManagerAtom, stringAtom): (xcb_atom_t, xcb_atom_t) = (23, 31)
        var dpi: Double?
        if option == nil, let rm = x.property(x.root, resourceManagerAtom, type: stringAtom, maxBytes: 1 << 16) {
            dpi = xftDPI(fromXResources: String(decoding: rm, as: UTF8.self))
        }
        var environment: [String: String] = [:]
        for key in ["GDK_SCALE", "QT_SCALE_FACTOR"] {
            if let v = getenv(key) { environment[key] = String(cString: v) }
        }
        return ScaleChoice.choose(option: option, xftDPI: dpi, environment: environment) {
            guard let monitors = queryMonitors(x), !monitors.isEmpty else { return nil }
            return (choice ?? .primary).pick(from: monitors)?.monitor ?? monitors.first
        }
    }

    /// Where a fullscreen window goes now; throws for a `--monitor` that names none (at start).
    func currentPlacement(strict: Bool) throws(ShellError) -> Placement {
        let (w, h) = Self.rootSize(x)
        let whole = Monitor(name: "screen", x: 0, y: 0, width: w, height: h, primary: true)
        guard let choice = options.monitor else { return Placement(rect: whole, index: nil) }
        let monitors = Self.queryMonitors(x) ?? [whole]
        kiosk.placementCheck.monitors = monitors
        if let (i, m) = choice.pick(from: monitors), let clipped = m.clipped(toWidth: w, height: h) {
            return Placement(rect: clipped, index: i)
        }
        if strict { throw .badInput(choice.notFound(in: monitors)) }
        return Placement(rect: whole, index: nil)
    }

    /// Asks for RandR and root-window notifications (a fullscreen window follows the screen).
    func watchScreenChanges() {
        var mask: UInt32 = XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue
        // Kiosk: client messages to the root about our window (_NET_CLOSE_WINDOW) are seen too.
        if options.kiosk { mask |= XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue }
        xcb_change_window_attributes(x.raw, x.root, XCB_CW_EVENT_MASK.rawValue, &mask)
        guard let ext = gestures_randr_extension(x.raw), ext.pointee.present != 0 else { return }
        kiosk.randrEventBase = ext.pointee.first_event
        let notify =
            XCB_RANDR_NOTIFY_MASK_SCREEN_CHANGE.rawValue | XCB_RANDR_NOTIFY_MASK_CRTC_CHANGE.rawValue
            | XCB_RANDR_NOTIFY_MASK_OUTPUT_CHANGE.rawValue
        xcb_randr_select_input(x.raw, x.root, UInt16(notify))
    }

    /// Monitors or the screen changed: place the window again if its rectangle moved.
    func screenChanged() {
        guard windowState.fullscreenNow, let before = windowState.placement else { return }
        guard let now = try? currentPlacement(strict: false), now != before else { return }
        if let choice = options.monitor, now.index == nil, before.index != nil {
            writeStderr("gestures: monitor \(choice) is gone; covering the whole screen until it is back")
            onKioskEvent?(.monitorMissing(choice.description))
        }
        windowState.placement = now
        applyPlacement()
    }

    /// Puts the window on ``placement`` (after the map, and after every change).
    func applyPlacement() {
        guard let p = windowState.placement else { return }
        let r = p.rect
        if windowState.hasWindowManager {
            if let index = p.index {
                // Source indication 1 (application); top, bottom, left, right monitor indices.
                var data: [UInt32] = [UInt32(index), UInt32(index), UInt32(index), UInt32(index), 1]
                gestures_send_client_message(
                    x.raw, x.root, xid, x.atom("_NET_WM_FULLSCREEN_MONITORS"), &data,
                    XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue)
            }
            if windowState.lifecycle.hasBeenMapped && p.index != nil && !wmSupports("_NET_WM_FULLSCREEN_MONITORS") {
                // Out of fullscreen, onto the monitor, and back: the WM fullscreens it there.
                setWMFullscreen(false)
                moveResize(x: Int32(r.x), y: Int32(r.y), width: UInt32(r.width), height: UInt32(r.height))
                setWMFullscreen(true)
            }
        } else {
            moveResize(x: Int32(r.x), y: Int32(r.y), width: UInt32(r.width), height: UInt32(r.height))
        }
        onKioskEvent?(.placed(r, index: p.index))
    }

    /// Adds (`on`) or removes the EWMH fullscreen state through the window manager.
    func setWMFullscreen(_ on: Bool) {
        var data: [UInt32] = [on ? 1 : 0, x.atom("_NET_WM_STATE_FULLSCREEN"), 0, 1, 0]
        gestures_send_client_message(
            x.raw, x.root, xid, x.atom("_NET_WM_STATE"), &data,
            XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue)
    }

    /// Whether the window manager lists `atom` in `_NET_SUPPORTED`.
    func wmSupports(_ name: String) -> Bool {
        let wanted = x.atom(name)
        guard let bytes = x.property(x.root, x.atom("_NET_SUPPORTED"), type: PredefinedAtom.atom, maxBytes: 16384)
        else { return false }
        return bytes.withUnsafeBytes { b in
            stride(from: 0, to: b.count - 3, by: 4).contains {
                b.loadUnaligned(fromByteOffset: $0, as: UInt32.self) == wanted
            }
        }
    }
}
