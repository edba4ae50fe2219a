import CXCB
import GestureKit
import GestureShellCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Whether the window manager put a kiosk (or `--fullscreen --monitor`) window on the monitor
/// it asked for, and saying so once when it did not.
///
/// Under most X window managers the window goes where it asks (a user-specified position on the
/// monitor, then `_NET_WM_FULLSCREEN_MONITORS` or fullscreen there: X11Shell+Monitors.swift).
/// A Wayland compositor decides for its Xwayland clients: sway 1.7 (wlroots' window manager)
/// maps a new X window on the focused output, or where an `assign` / `for_window` rule of its
/// own config sends it, and ignores the position an X client asks for (it only centres a
/// floating one on its workspace); a fullscreen request covers the output the window is on.
/// No X request changes that — there is no `_NET_WM_FULLSCREEN_MONITORS` in wlroots' window
/// manager, `_NET_WM_MOVERESIZE` starts a move with the seat's own pointer, and the
/// compositor's focus is beyond X.
///
/// Weston 10 keeps an X window where its shell puts it too (a fullscreen one on the output its
/// frame was on).
///
/// So the shell checks: ``checkDelay`` after the first map it asks the server where the window
/// is (its size, and its origin in root coordinates — a reparenting window manager sends no
/// position the shell could keep). Anywhere but exactly over the monitor (another output;
/// cage's `-m extend` stretches it over all of them) it asks once more — out of
/// fullscreen, moved onto the monitor, fullscreen again, which a window manager that places by
/// position follows — and if the window is still elsewhere ``checkDelay`` later it tells the
/// kiosk once (``ShellKioskEvent/placedElsewhere(wanted:window:on:)``), which names the
/// compositor setting that does it, and the monitor the window is on (of the monitors the
/// shell last read, at start or at the last screen change).
///
/// Nothing here waits on the server: the two requests (GetGeometry, TranslateCoordinates) are
/// sent from the loop and their replies read by it when they have come (``poll(_:)``), as the
/// screen saver's timeout is (``ScreenSaverReset``). A stalled server so holds neither the
/// loop nor the watchdog's pings; the check then waits for the server's answer, looking again
/// every ``pollInterval`` (a reply XCB read while waiting for another would not wake the loop).
struct PlacementCheck {
    /// When to look next (nil: not now): the check, or while replies are awaited the next look
    /// for them.
    var due: Double?
    var retried = false
    var reported = false
    /// The GetGeometry and TranslateCoordinates requests whose replies are awaited.
    var pending: (geometry: UInt32, origin: UInt32)?
    /// The window's size, once GetGeometry's reply has come (its origin is still awaited).
    var size: (width: Int, height: Int)?
    /// The monitors as last read (at start, at the last screen change): the one the window is
    /// on is named from them.
    var monitors: [Monitor] = []

    /// How long after the map (and after the second request) the window manager has to place
    /// the window, seconds.
    static let checkDelay = 1.0
    /// How often the loop looks for the replies while they are awaited, seconds.
    static let pollInterval = 0.1

    /// A reply's value if it has come: `.some(nil)` for an error or a reply too short; nil while
    /// it is awaited. Never waits.
    @MainActor
    static func poll<T>(
        _ x: XConnection, _ sequence: UInt32, _ read: (XReplyBytes) -> T?
    ) -> T?? {
        var reply: UnsafeMutableRawPointer?
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard xcb_poll_for_reply(x.raw, sequence, &reply, &error) != 0 else { return nil }
        free(error)
        guard let reply else { return .some(nil) }
        return .some(XConnection.withReply(reply) { read(XReplyBytes($0)) })
    }

    /// GetGeometry's reply: width and height, CARD16s at offsets 16 and 18.
    nonisolated static func size(ofGeometry r: XReplyBytes) -> (Int, Int)? {
        guard let w = r.u16(16), let h = r.u16(18) else { return nil }
        return (Int(w), Int(h))
    }

    /// TranslateCoordinates' reply: dst_x and dst_y, INT16s at offsets 12 and 14.
    nonisolated static func origin(ofTranslation r: XReplyBytes) -> (Int, Int)? {
        guard let x = r.i16(12), let y = r.i16(14) else { return nil }
        return (Int(x), Int(y))
    }

    /// Drops the reply of `sequence` whenever it comes.
    @MainActor
    static func discard(_ x: XConnection, _ sequence: UInt32) {
        xcb_discard_reply(x.raw, sequence)
    }
}

extension X11Shell {
    /// The first map: look where the window went ``PlacementCheck/checkDelay`` from now.
    func schedulePlacementCheck() {
        guard windowState.hasWindowManager, windowState.placement?.index != nil, options.kiosk || options.fullscreen
        else { return }
        kiosk.placementCheck.due = clock.now() + PlacementCheck.checkDelay
    }

    /// Runs the check when it is due: asks where the window is, or takes the answer.
    func runPlacementCheck(now: Double) {
        guard let due = kiosk.placementCheck.due, now >= due else { return }
        kiosk.placementCheck.due = nil
        if kiosk.placementCheck.pending != nil {
            takePlacementReplies(now: now)
            return
        }
        guard windowState.fullscreenNow, let p = windowState.placement, p.index != nil else { return }
        // Both requests now; the replies come in order (the loop flushes before it sleeps).
        let geometry = xcb_get_geometry(x.raw, xid).sequence
        let origin = xcb_translate_coordinates(x.raw, xid, x.root, 0, 0).sequence
        kiosk.placementCheck.pending = (geometry, origin)
        kiosk.placementCheck.size = nil
        kiosk.placementCheck.due = now + PlacementCheck.pollInterval
    }

    /// Reads the replies that have come; with both, compares the window with its monitor.
    private func takePlacementReplies(now: Double) {
        guard let pending = kiosk.placementCheck.pending else { return }
        if kiosk.placementCheck.size == nil {
            let size = PlacementCheck.poll(x, pending.geometry, PlacementCheck.size(ofGeometry:))
            guard let size else {
                kiosk.placementCheck.due = now + PlacementCheck.pollInterval
                return
            }
            guard let (w, h) = size else {
                // An error (the window is gone) or a short reply: no check this time.
                PlacementCheck.discard(x, pending.origin)
                kiosk.placementCheck.pending = nil
                return
            }
            kiosk.placementCheck.size = (w, h)
        }
        let origin = PlacementCheck.poll(x, pending.origin, PlacementCheck.origin(ofTranslation:))
        guard let origin else {
            kiosk.placementCheck.due = now + PlacementCheck.pollInterval
            return
        }
        kiosk.placementCheck.pending = nil
        guard let (ox, oy) = origin, let size = kiosk.placementCheck.size else { return }
        placementChecked((ox, oy, size.width, size.height), now: now)
    }

    /// The window's rectangle in root coordinates is `w`: ask again, or tell the kiosk.
    private func placementChecked(_ w: (x: Int, y: Int, width: Int, height: Int), now: Double) {
        guard windowState.fullscreenNow, let p = windowState.placement, p.index != nil else { return }
        let r = p.rect
        if w.x == r.x && w.y == r.y && w.width == r.width && w.height == r.height { return }
        let (cx, cy) = (w.x + w.width / 2, w.y + w.height / 2)
        func contains(_ m: Monitor) -> Bool { cx >= m.x && cx < m.x + m.width && cy >= m.y && cy < m.y + m.height }
        if !kiosk.placementCheck.retried {
            kiosk.placementCheck.retried = true
            setWMFullscreen(false)
            moveResize(x: Int32(r.x), y: Int32(r.y), width: UInt32(r.width), height: UInt32(r.height))
            setWMFullscreen(true)
            kiosk.placementCheck.due = now + PlacementCheck.checkDelay
            return
        }
        guard !kiosk.placementCheck.reported else { return }
        kiosk.placementCheck.reported = true
        let on = kiosk.placementCheck.monitors.first(where: contains)?.name
        onKioskEvent?(.placedElsewhere(wanted: r, window: "\(w.width)x\(w.height)+\(w.x)+\(w.y)", on: on))
    }
}
