import CXCB
import GestureKit

/// The monitors read again at run time without waiting on the server.
///
/// A RandR notify or the root's ConfigureNotify (a mode change, a monitor going off and on)
/// sends the requests — the root's geometry, RandR 1.5's monitors, Xinerama's screens — and the
/// loop reads the replies when they have come (``PendingReplies``); monitor names are atoms,
/// read the same way the first time one is seen and kept after. When the last reply is in, the
/// window is placed as at start (`X11Shell+Monitors.swift`). Changes while a read is under way
/// make one more read after it. What the server offers (RandR 1.5, Xinerama) and whether the
/// window manager knows `_NET_WM_FULLSCREEN_MONITORS` are asked once at start, which may wait.
@MainActor
final class MonitorReader {
    /// Whether the server has RandR 1.5 (`RRGetMonitors`).
    var randr15 = false
    /// Whether the server has the Xinerama extension.
    var xinerama = false
    /// Whether the window manager lists `_NET_WM_FULLSCREEN_MONITORS` in `_NET_SUPPORTED`
    /// (read at start: a window manager that starts later is not asked).
    var wmFullscreenMonitors = false
    /// Monitor names by atom.
    var names: [UInt32: String] = [:]
    /// A read is under way; another change came meanwhile.
    var reading = false
    var again = false
}

extension X11Shell {
    /// What the server and the window manager offer, asked once at start (this may wait).
    func prepareMonitorReads() {
        if let ext = gestures_randr_extension(x.raw), ext.pointee.present != 0,
            let v = xcb_randr_query_version_reply(x.raw, xcb_randr_query_version(x.raw, 1, 5), nil)
        {
            monitorReader.randr15 = v.pointee.major_version > 1 || v.pointee.minor_version >= 5
            free(v)
        }
        if let ext = gestures_xinerama_extension(x.raw), ext.pointee.present != 0 { monitorReader.xinerama = true }
        monitorReader.wmFullscreenMonitors = windowState.hasWindowManager && wmSupports("_NET_WM_FULLSCREEN_MONITORS")
    }

    /// Monitors or the screen changed: read them again (without waiting) and place the window
    /// again if its rectangle moved.
    func screenChanged() {
        guard windowState.fullscreenNow, windowState.placement != nil else { return }
        guard !monitorReader.reading else {
            monitorReader.again = true
            return
        }
        monitorReader.reading = true
        var root: (Int, Int)?
        var randr: [XReplyDecoder.Monitor]?
        var xineramaOn = false
        var screens: [XReplyDecoder.Monitor] = []
        replies.expect(xcb_get_geometry(x.raw, x.root).sequence) { r in
            root = r.flatMap { PlacementCheck.size(ofGeometry: XReplyBytes($0)) }
        }
        if monitorReader.randr15 {
            replies.expect(xcb_randr_get_monitors(x.raw, x.root, 1).sequence) { r in
                randr = r.map { XReplyDecoder.monitors($0) }
            }
        }
        if monitorReader.xinerama {
            replies.expect(xcb_xinerama_is_active(x.raw).sequence) { r in
                xineramaOn = r.flatMap { XReplyBytes($0).u32(8) }.map { $0 != 0 } ?? false
            }
            replies.expect(xcb_xinerama_query_screens(x.raw).sequence) { r in
                screens = r.map { XReplyDecoder.xineramaScreens($0) } ?? []
            }
        }
        // The last reply's handler runs after the others (replies come in order).
        replies.expect(xcb_get_input_focus(x.raw).sequence) { [unowned self] _ in
            monitorsRead(root: root, randr: randr, xinerama: xineramaOn ? screens : [])
        }
    }

    /// The replies are in: monitor names not seen before are read, then the window is placed.
    private func monitorsRead(root: (Int, Int)?, randr: [XReplyDecoder.Monitor]?, xinerama: [XReplyDecoder.Monitor]) {
        let unknown = Set((randr ?? []).map(\.name)).filter { monitorReader.names[$0] == nil }
        guard unknown.isEmpty else {
            for atom in unknown {
                replies.expect(xcb_get_atom_name(x.raw, atom).sequence) { [unowned self] r in
                    let bytes = r.flatMap { XReplyDecoder.atomName($0) }
                    monitorReader.names[atom] = bytes.map { String(decoding: $0, as: UTF8.self) } ?? "monitor-\(atom)"
                }
            }
            replies.expect(xcb_get_input_focus(x.raw).sequence) { [unowned self] _ in
                monitorsRead(root: root, randr: randr, xinerama: xinerama)
            }
            return
        }
        let named = randr.map { list in
            list.map { m in
                Monitor(
                    name: monitorReader.names[m.name] ?? "monitor-\(m.name)", x: m.x, y: m.y, width: m.width,
                    height: m.height, primary: m.primary, widthMM: m.widthMM, heightMM: m.heightMM)
            }
        }
        let screens = xinerama.enumerated().map { i, s in
            Monitor(name: "xinerama-\(i)", x: s.x, y: s.y, width: s.width, height: s.height, primary: s.primary)
        }
        // As queryMonitors: Xinerama's screens when there are more of them (classic Xinerama).
        var monitors = named
        if !screens.isEmpty, screens.count > (named?.count ?? 0) { monitors = screens }
        if monitors == nil && !screens.isEmpty { monitors = screens }
        let (w, h) = root ?? (x.screenWidth, x.screenHeight)
        monitorReader.reading = false
        if windowState.fullscreenNow, let before = windowState.placement {
            let now = placement(among: monitors, width: w, height: h)
            if now != before { placeAgain(now, before: before) }
        }
        if monitorReader.again {
            monitorReader.again = false
            screenChanged()
        }
    }
}
