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
/// is (its size, and its origin in root coordinates: two round trips, once or twice a run — a
/// reparenting window manager sends no position the shell could keep). Anywhere but exactly
/// over the monitor (another output;
/// cage's `-m extend` stretches it over all of them) it asks once more — out of
/// fullscreen, moved onto the monitor, fullscreen again, which a window manager that places by
/// position follows — and if the window is still elsewhere ``checkDelay`` later it tells the
/// kiosk once (``ShellKioskEvent/placedElsewhere(wanted:window:on:)``), which names the
/// compositor setting that does it.
struct PlacementCheck {
    /// When to look next (nil: not now).
    var due: Double?
    var retried = false
    var reported = false

    /// How long after the map (and after the second request) the window manager has to place
    /// the window, seconds.
    static let checkDelay = 1.0
}

extension X11Shell {
    /// The first map: look where the window went ``PlacementCheck/checkDelay`` from now.
    func schedulePlacementCheck() {
        guard windowState.hasWindowManager, windowState.placement?.index != nil, options.kiosk || options.fullscreen
        else { return }
        kiosk.placementCheck.due = clock.now() + PlacementCheck.checkDelay
    }

    /// The window's rectangle in root coordinates, asked of the server (nil: no answer).
    private func windowRectangle() -> (x: Int, y: Int, width: Int, height: Int)? {
        let geometry = xcb_get_geometry(x.raw, xid)
        let origin = xcb_translate_coordinates(x.raw, xid, x.root, 0, 0)
        let g = xcb_get_geometry_reply(x.raw, geometry, nil)
        let o = xcb_translate_coordinates_reply(x.raw, origin, nil)
        defer {
            free(g)
            free(o)
        }
        guard let g, let o else {
            x.exitIfBroken()
            return nil
        }
        return (Int(o.pointee.dst_x), Int(o.pointee.dst_y), Int(g.pointee.width), Int(g.pointee.height))
    }

    /// Runs the check when it is due.
    func runPlacementCheck(now: Double) {
        guard let due = kiosk.placementCheck.due, now >= due else { return }
        kiosk.placementCheck.due = nil
        guard windowState.fullscreenNow, let p = windowState.placement, p.index != nil, let w = windowRectangle() else {
            return
        }
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
        let on = (Self.queryMonitors(x) ?? []).first(where: contains)?.name
        onKioskEvent?(.placedElsewhere(wanted: r, window: "\(w.width)x\(w.height)+\(w.x)+\(w.y)", on: on))
    }
}
