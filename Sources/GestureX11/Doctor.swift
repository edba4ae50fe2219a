import CXCB
import GestureShellCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `gestures doctor` finds on an X display: the server, window manager, monitors, scale,
/// input devices and extensions the app relies on, as `key: value` lines, then one `advice:`
/// line for each missing piece. The keys and their order are stable (docs/doctor.md); `monitor`,
/// `device` and `advice` may repeat.
@MainActor
public enum Doctor {
    /// One `key: value` line.
    public struct Line: Equatable, Sendable {
        public var key: String
        public var value: String
        public var text: String { "\(key): \(value)" }
    }

    /// An XInput device as the app sees it.
    public struct Device: Equatable, Sendable {
        /// `touchscreen`, `touchpad`, `absolute-pointer`, `pointer`.
        public var kind: String
        public var name: String
        public var id: Int
    }

    /// Runs every query on `display` (nil: `$DISPLAY`); throws when it cannot be opened.
    @MainActor
    public static func examine(display: String?, scaleOption: Double? = nil) throws(ShellError) -> [Line] {
        let x = try XConnection(display: display)
        defer { x.close() }
        var lines: [Line] = []
        func add(_ key: String, _ value: String) { lines.append(Line(key: key, value: value)) }
        var advice: [String] = []

        let extensions = listExtensions(x)
        let shown = display ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
        add("display", shown)
        let setup = xcb_get_setup(x.raw)!
        let vendor = String(
            decoding: UnsafeRawBufferPointer(
                start: xcb_setup_vendor(setup), count: Int(xcb_setup_vendor_length(setup))), as: UTF8.self)
        let server = serverKind(extensions: extensions, vendor: vendor, outputs: X11Shell.queryMonitors(x) ?? [])
        add("server", "\(server) \(version(release: setup.pointee.release_number))")
        add("vendor", vendor)

        let wm = windowManagerName(x)
        add("window-manager", wm ?? "none")
        if wm == nil {
            advice.append(
                "no window manager: the app places its own window; --kiosk and --fullscreen still cover the screen")
        }

        let monitors = X11Shell.queryMonitors(x) ?? []
        for m in monitors {
            add("monitor", "\(m.name) \(m.geometry) \(m.widthMM)x\(m.heightMM)mm" + (m.primary ? " primary" : ""))
        }
        if monitors.isEmpty {
            add("monitor", "screen \(x.screenWidth)x\(x.screenHeight)+0+0 (no RandR 1.5 or Xinerama)")
        }

        let (resourceManagerAtom, stringAtom): (xcb_atom_t, xcb_atom_t) = (23, 31)
        let rm = x.property(x.root, resourceManagerAtom, type: stringAtom, maxBytes: 1 << 16)
        let dpi = rm.flatMap { xftDPI(fromXResources: String(decoding: $0, as: UTF8.self)) }
        add("xft-dpi", dpi.map { ScaleChoice.format($0) } ?? "none")
        let choice = X11Shell.chooseScale(x, option: scaleOption, monitor: nil)
        add("scale", "\(ScaleChoice.format(choice.scale)) (\(choice.reason))")
        if dpi == nil && scaleOption == nil {
            let xwayland = server == "Xwayland"
            advice.append(
                "Xft.dpi is not set: the scale comes from \(choice.reason); set it with `echo Xft.dpi: 192 | xrdb -merge` or pass --scale"
                    + (xwayland
                        ? " (under Xwayland the X screen is usually in logical pixels and the compositor upscales X windows: keep 1 there)"
                        : ""))
        }

        let xi = xinputVersion(x)
        add("xinput", xi.map { "\($0.0).\($0.1)" } ?? "none")
        let devices = xi == nil ? [] : listDevices(x)
        for d in devices { add("device", "\(d.kind) \"\(d.name)\" id=\(d.id)") }
        let touch = devices.contains { $0.kind == "touchscreen" }
        add("touch", touch ? "yes" : xi.map { $0 >= (2, 2) } == true ? "no touchscreen" : "no (needs XInput 2.2)")
        let gesturesSupported = xi.map { $0 >= (2, 4) } == true
        add("touchpad-gestures", gesturesSupported ? "yes (XInput 2.4)" : "no (needs XInput 2.4)")
        for d in devices where d.kind == "absolute-pointer" && !touch {
            advice.append(
                "\"\(d.name)\" reaches X as an absolute pointer, not a touchscreen: tap, swipe and pan work, pinch and rotate do not; give it to X as a touch device (Xorg: the libinput driver on its multitouch event node; a Wayland compositor such as labwc must pass it as wl_touch, not map it to a pointer)"
            )
        }
        if !touch && !devices.contains(where: { $0.kind == "absolute-pointer" }) {
            advice.append("no touchscreen: pinch and rotate with Ctrl+drag, a touchpad pinch or Ctrl+wheel")
        }
        if !gesturesSupported && devices.contains(where: { $0.kind == "touchpad" }) {
            advice.append("touchpad pinches need XInput 2.4 (Xorg 21.1 or Xwayland 21.1 or later)")
        }

        func has(_ name: String) -> String { extensions.contains(name) ? "yes" : "no" }
        add("mit-shm", has("MIT-SHM"))
        if !extensions.contains("MIT-SHM") { advice.append("no MIT-SHM: frames go through the X socket (slower)") }
        add("present", has("Present"))
        if !extensions.contains("Present") { advice.append("no Present: frames are paced by a timer, not vblank") }
        add("screensaver-extension", has("MIT-SCREEN-SAVER"))
        add("dpms", has("DPMS"))
        let inhibit = inhibitService()
        add("inhibit-service", inhibit)
        if !extensions.contains("MIT-SCREEN-SAVER") {
            advice.append(
                "no MIT-SCREEN-SAVER: the app cannot keep the screen on"
                    + (server == "Xwayland"
                        ? "; the compositor blanks it: turn its idle timeout off for a kiosk (sway: no swayidle; GNOME: Settings > Power > Screen Blank: Never)"
                        : "; turn blanking off in the server or session"))
        }

        for a in advice { add("advice", a) }
        return lines
    }

    /// `Xwayland`, `Xvfb`, `Xorg`, or the vendor string.
    static func serverKind(extensions: Set<String>, vendor: String, outputs: [Monitor]) -> String {
        if extensions.contains("XWAYLAND") || outputs.contains(where: { $0.name.hasPrefix("XWAYLAND") }) {
            return "Xwayland"
        }
        guard vendor.contains("X.Org") else { return vendor }
        // Xvfb has no video-mode or DGA extension and its one RandR output is named "screen".
        if !extensions.contains("XFree86-VidModeExtension") && !extensions.contains("XFree86-DGA") {
            return "Xvfb"
        }
        return "Xorg"
    }

    /// The X.Org release number as the server's own version: 12201009 → 22.1.9 (Xorg 21.1 and
    /// Xwayland 22 keep 1 as their major), 11804000 → 1.18.4.
    static func version(release r: UInt32) -> String {
        let (major, minor, patch, snap) = (r / 10_000_000, r / 100_000 % 100, r / 1000 % 100, r % 1000)
        if major == 1 && minor >= 20 { return "\(minor).\(patch).\(snap)" }
        return "\(major).\(minor).\(patch)" + (snap > 0 ? ".\(snap)" : "")
    }

    static func listExtensions(_ x: XConnection) -> Set<String> {
        guard let reply = xcb_list_extensions_reply(x.raw, xcb_list_extensions(x.raw), nil) else { return [] }
        defer { free(reply) }
        var names: Set<String> = []
        var it = xcb_list_extensions_names_iterator(reply)
        while it.rem > 0, let s = it.data {
            let n = Int(xcb_str_name_length(s))
            names.insert(String(decoding: UnsafeRawBufferPointer(start: xcb_str_name(s), count: n), as: UTF8.self))
            xcb_str_next(&it)
        }
        return names
    }

    /// `_NET_WM_NAME` of the window `_NET_SUPPORTING_WM_CHECK` names (or its `WM_NAME`, or `unnamed`).
    static func windowManagerName(_ x: XConnection) -> String? {
        guard
            let bytes = x.property(
                x.root, x.atom("_NET_SUPPORTING_WM_CHECK"), type: X11Shell.PredefinedAtom.window, maxBytes: 4),
            bytes.count == 4
        else { return nil }
        let w = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        let name =
            x.property(w, x.atom("_NET_WM_NAME"), type: x.atom("UTF8_STRING"), maxBytes: 256)
            ?? x.property(w, X11Shell.PredefinedAtom.wmName, type: X11Shell.PredefinedAtom.string, maxBytes: 256)
        return name.map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } ?? "unnamed"
    }

    static func xinputVersion(_ x: XConnection) -> (Int, Int)? {
        guard let ext = gestures_xinput_extension(x.raw), ext.pointee.present != 0,
            let reply = xcb_input_xi_query_version_reply(x.raw, xcb_input_xi_query_version(x.raw, 2, 4), nil)
        else { return nil }
        defer { free(reply) }
        return (Int(reply.pointee.major_version), Int(reply.pointee.minor_version))
    }

    /// The physical input devices (slave and floating pointers; XTest's virtual ones left out),
    /// by kind: a touch class in direct mode is a touchscreen, in dependent mode a touchpad; a
    /// device whose first two valuators are absolute is an absolute pointer (a touchscreen that
    /// reaches X as a pointer, or a tablet); the rest are pointers (a touchpad driven as a
    /// pointer, named "…Touchpad…", is a touchpad).
    static func listDevices(_ x: XConnection) -> [Device] {
        guard let reply = xcb_input_xi_query_device_reply(x.raw, xcb_input_xi_query_device(x.raw, 0), nil) else {
            return []
        }
        defer { free(reply) }
        var devices: [Device] = []
        var it = xcb_input_xi_query_device_infos_iterator(reply)
        while it.rem > 0, let info = it.data {
            defer { xcb_input_xi_device_info_next(&it) }
            let type = info.pointee.type
            guard
                type == UInt16(XCB_INPUT_DEVICE_TYPE_SLAVE_POINTER.rawValue)
                    || type == UInt16(XCB_INPUT_DEVICE_TYPE_FLOATING_SLAVE.rawValue)
            else { continue }
            let name = String(
                decoding: UnsafeRawBufferPointer(
                    start: xcb_input_xi_device_info_name(info), count: Int(xcb_input_xi_device_info_name_length(info))),
                as: UTF8.self)
            guard !name.contains("XTEST") else { continue }
            var touchMode: UInt8 = 0
            var absolute = 0
            var classes = xcb_input_xi_device_info_classes_iterator(info)
            while classes.rem > 0, let c = classes.data {
                let raw = UnsafeRawPointer(c)
                if c.pointee.type == UInt16(XCB_INPUT_DEVICE_CLASS_TYPE_TOUCH.rawValue), c.pointee.len >= 2 {
                    touchMode = raw.load(fromByteOffset: 6, as: UInt8.self)
                } else if c.pointee.type == UInt16(XCB_INPUT_DEVICE_CLASS_TYPE_VALUATOR.rawValue), c.pointee.len >= 11 {
                    let number = raw.loadUnaligned(fromByteOffset: 6, as: UInt16.self)
                    let mode = raw.load(fromByteOffset: 40, as: UInt8.self)
                    if number < 2 && mode == 1 { absolute += 1 }
                }
                xcb_input_device_class_next(&classes)
            }
            let kind =
                touchMode == 1
                ? "touchscreen"
                : touchMode == 2 || name.lowercased().contains("touchpad")
                    ? "touchpad" : absolute == 2 ? "absolute-pointer" : "pointer"
            devices.append(Device(kind: kind, name: name, id: Int(info.pointee.deviceid)))
        }
        return devices
    }

    /// Which screen-saver inhibit services the session bus has: `org.freedesktop.ScreenSaver`,
    /// `org.gnome.SessionManager` (comma-separated), `none`, or `no session bus`. Asked with
    /// `dbus-send` (D-Bus's own client; no D-Bus library is linked), only when a session bus
    /// address is known, so nothing is autolaunched.
    static func inhibitService() -> String {
        let address = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        guard address != nil || (runtime.map { access($0 + "/bus", F_OK) == 0 } ?? false) else {
            return "no session bus"
        }
        let command =
            "dbus-send --session --print-reply --reply-timeout=2000 --dest=org.freedesktop.DBus / org.freedesktop.DBus.ListNames 2>/dev/null"
        guard let pipe = popen(command, "r") else { return "unknown (dbus-send did not run)" }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        let output = String(decoding: bytes, as: UTF8.self)
        let status = pclose(pipe)
        guard status == 0 else { return "unknown (dbus-send failed; is dbus installed?)" }
        let found = ["org.freedesktop.ScreenSaver", "org.gnome.SessionManager"].filter {
            output.contains("\"\($0)\"")
        }
        return found.isEmpty ? "none" : found.joined(separator: ", ")
    }
}
