// Over 400 lines: the tests' one Xlib client (XTest, XI2 selection, MPX, DAMAGE, properties);
// each helper is a few lines over the same display pointer and error handler.
import CX11
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The last X protocol error seen on any test connection (the handler must not exit, unlike
/// Xlib's default one).
nonisolated(unsafe) private var lastXErrorCode: UInt8 = 0
nonisolated(unsafe) private var errorHandlerInstalled = false

private func installErrorHandler() {
    guard !errorHandlerInstalled else { return }
    errorHandlerInstalled = true
    // A server that dies under a write must not kill the test process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    _ = XSetErrorHandler { _, event in
        lastXErrorCode = event?.pointee.error_code ?? 0
        return 0
    }
}

/// An XI2 event read back by a test client (the probe window).
package struct XIEventRecord: CustomStringConvertible {
    package var type: Int32
    package var deviceID: Int32
    package var sourceID: Int32
    package var detail: Int32
    package var x: Double
    package var y: Double
    package var rootX: Double
    package var rootY: Double
    package var scale: Double = 0
    package var angleDelta: Double = 0
    package var flags: Int32 = 0

    package var description: String {
        "XI type \(type) dev \(deviceID)/\(sourceID) detail \(detail) at (\(x), \(y)) "
            + "root (\(rootX), \(rootY)) scale \(scale) angle \(angleDelta) flags \(flags)"
    }
}

/// A window's pixels, 0xRRGGBB, from `XGetImage`.
package struct Screenshot {
    package var width: Int
    package var height: Int
    package var pixels: [UInt32]

    package func pixel(_ x: Int, _ y: Int) -> UInt32 { pixels[y * width + x] }

    /// Writes a binary PPM (for looking at a failure).
    package func writePPM(to path: String) {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.reserveCapacity(data.count + pixels.count * 3)
        for p in pixels {
            data.append(UInt8((p >> 16) & 0xff))
            data.append(UInt8((p >> 8) & 0xff))
            data.append(UInt8(p & 0xff))
        }
        try? data.write(to: URL(fileURLWithPath: path))
    }
}

/// Distance between two 0xRRGGBB colours (largest channel difference).
package func colorDistance(_ a: UInt32, _ b: UInt32) -> Int {
    var largest = 0
    for shift: UInt32 in [16, 8, 0] {
        let ca = Int((a >> shift) & 0xff)
        let cb = Int((b >> shift) & 0xff)
        largest = max(largest, abs(ca - cb))
    }
    return largest
}

/// A test client connection: XTest input, MPX pointers, window lookup, resizing, screenshots
/// and an XI2 probe window. Not thread-safe; one test uses it at a time.
package final class XConnection {
    package let display: OpaquePointer
    package let name: String
    package private(set) var xiOpcode: Int32 = 0

    package init(_ name: String) throws {
        installErrorHandler()
        guard let display = XOpenDisplay(name) else {
            throw XTestError("cannot open display \(name)")
        }
        self.display = display
        self.name = name
        var event: Int32 = 0
        var error: Int32 = 0
        if XQueryExtension(display, "XInputExtension", &xiOpcode, &event, &error) == 0 {
            xiOpcode = -1
        }
    }

    private var isOpen = true

    /// Closes the connection. Close every test connection before its server goes away: Xlib
    /// exits the process on an I/O error.
    package func close() {
        if isOpen {
            isOpen = false
            XCloseDisplay(display)
        }
    }

    deinit { close() }

    package var root: Window { XDefaultRootWindow(display) }
    package var screenWidth: Int { Int(XDisplayWidth(display, XDefaultScreen(display))) }
    package var screenHeight: Int { Int(XDisplayHeight(display, XDefaultScreen(display))) }

    /// Round trip: everything sent so far has been processed by the server.
    package func sync() { XSync(display, 0) }

    /// The XInput version the server offers (asks for 2.4).
    package func xiVersion() -> (Int32, Int32)? {
        var major: Int32 = 2
        var minor: Int32 = 4
        guard xiOpcode >= 0, XIQueryVersion(display, &major, &minor) == Success else { return nil }
        return (major, minor)
    }

    // MARK: - XTest

    /// Moves this connection's client pointer (the core pointer unless `setClientPointer` was
    /// called) to screen pixel (`x`, `y`).
    package func move(to x: Double, _ y: Double) {
        XTestFakeMotionEvent(display, -1, Int32(x.rounded()), Int32(y.rounded()), 0)
        XFlush(display)
    }

    package func button(_ button: UInt32 = 1, pressed: Bool) {
        XTestFakeButtonEvent(display, button, pressed ? 1 : 0, 0)
        XFlush(display)
    }

    package func key(_ keysym: Int32, pressed: Bool) {
        let code = XKeysymToKeycode(display, KeySym(keysym))
        XTestFakeKeyEvent(display, UInt32(code), pressed ? 1 : 0, 0)
        XFlush(display)
    }

    /// Presses `modifiers` (keysyms), then `key`, then releases all of them in reverse order.
    package func chord(_ modifiers: [Int32], _ key: Int32) {
        for m in modifiers { self.key(m, pressed: true) }
        self.key(key, pressed: true)
        self.key(key, pressed: false)
        for m in modifiers.reversed() { self.key(m, pressed: false) }
        sync()
    }

    // MARK: - MPX

    package struct Device {
        package var id: Int32
        package var name: String
        package var use: Int32
        package var attachment: Int32
    }

    package func devices() -> [Device] {
        var count: Int32 = 0
        guard let info = XIQueryDevice(display, XIAllDevices, &count) else { return [] }
        defer { XIFreeDeviceInfo(info) }
        return (0..<Int(count)).map { i in
            let d = info[i]
            return Device(
                id: d.deviceid, name: String(cString: d.name), use: d.use,
                attachment: d.attachment)
        }
    }

    /// Creates a master pointer/keyboard pair named `name` (`xinput create-master NAME`) and
    /// returns the master pointer's device id.
    package func createMasterPointer(_ name: String) throws -> Int32 {
        var change = XIAnyHierarchyChangeInfo()
        let cName = strdup(name)
        defer { free(cName) }
        change.add = XIAddMasterInfo(type: XIAddMaster, name: cName, send_core: 1, enable: 1)
        lastXErrorCode = 0
        XIChangeHierarchy(display, &change, 1)
        sync()
        guard lastXErrorCode == 0,
            let master = devices().first(where: {
                $0.name == "\(name) pointer" && $0.use == XIMasterPointer
            })
        else {
            throw XTestError("XIChangeHierarchy(add master \(name)) failed (\(lastXErrorCode))")
        }
        return master.id
    }

    /// Makes `master` this connection's client pointer: XTest motion and buttons sent on this
    /// connection then drive that master's XTEST slave (docs/DESIGN.md §6).
    package func setClientPointer(_ master: Int32) {
        XISetClientPointer(display, 0, master)
        sync()
    }

    // MARK: - Windows

    /// A 32-bit property's values (Xlib hands them over as C longs), at most `longs` of them.
    package func property(_ window: Window, _ name: String, longs: Int = 1024) -> [UInt] {
        let atom = XInternAtom(display, name, 1)
        guard atom != 0 else { return [] }
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            display, window, atom, 0, longs, 0, Atom(AnyPropertyType), &actualType, &format,
            &count, &after, &data)
        guard status == Success, let data else { return [] }
        defer { XFree(data) }
        guard format == 32 else { return [] }
        return data.withMemoryRebound(to: UInt.self, capacity: Int(count)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(count)))
        }
    }

    package func title(of window: Window) -> String? {
        var name: UnsafeMutablePointer<CChar>?
        guard XFetchName(display, window, &name) != 0, let name else { return nil }
        defer { XFree(name) }
        return String(cString: name)
    }

    package func topLevelWindows() -> [Window] {
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0,
            let children
        else { return [] }
        defer { XFree(children) }
        return Array(UnsafeBufferPointer(start: children, count: Int(count)))
    }

    package struct Geometry: Equatable {
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int
        package var viewable: Bool
    }

    /// Position (root coordinates), size and map state of a window.
    package func geometry(of window: Window) -> Geometry? {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return nil }
        var x: Int32 = 0
        var y: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, window, root, 0, 0, &x, &y, &child)
        return Geometry(
            x: Int(x), y: Int(y), width: Int(attributes.width), height: Int(attributes.height),
            viewable: attributes.map_state == IsViewable)
    }

    /// The mapped top-level window whose `_NET_WM_PID` is `pid` or, lacking that property,
    /// whose WM_NAME is `title`.
    package func findWindow(pid: pid_t?, title: String?, timeout: Double) -> Window? {
        poll(timeout: timeout, interval: 0.005) { () -> Window? in
            for window in topLevelWindows() {
                guard geometry(of: window)?.viewable == true else { continue }
                let pids = property(window, "_NET_WM_PID")
                if let pid, let first = pids.first, first == UInt(pid) { return window }
                if pids.isEmpty, let title, self.title(of: window) == title { return window }
            }
            return nil
        }
    }

    /// WM_CLASS (instance, class) of a window.
    package func windowClass(of window: Window) -> (String, String)? {
        var hint = XClassHint()
        guard XGetClassHint(display, window, &hint) != 0 else { return nil }
        defer {
            if let n = hint.res_name { XFree(n) }
            if let c = hint.res_class { XFree(c) }
        }
        guard let name = hint.res_name, let cls = hint.res_class else { return nil }
        return (String(cString: name), String(cString: cls))
    }

    /// Asks the window to close, as a window manager's close button does (WM_DELETE_WINDOW).
    package func sendDeleteWindow(_ window: Window) {
        let delete = XInternAtom(display, "WM_DELETE_WINDOW", 0)
        sendClientMessage(window, "WM_PROTOCOLS", (Int(bitPattern: delete), 0, 0, 0, 0), to: window, mask: 0)
    }

    /// A 32-bit client message of `type` about `window`, sent to `destination` with `mask`.
    package func sendClientMessage(
        _ window: Window, _ type: String, _ data: (Int, Int, Int, Int, Int), to destination: Window, mask: Int
    ) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = XInternAtom(display, type, 0)
        event.xclient.format = 32
        event.xclient.data.l = data
        XSendEvent(display, destination, 0, mask, &event)
        sync()
    }

    package func resize(_ window: Window, width: Int, height: Int) {
        XResizeWindow(display, window, UInt32(width), UInt32(height))
        sync()
    }

    package func focus(_ window: Window) {
        XSetInputFocus(display, window, Int32(RevertToPointerRoot), 0)
        sync()
    }

    /// The window's current contents.
    /// At most `limit` pixels a side from the window's top-left corner (a window larger than
    /// the screen: only what is on the screen can be read).
    package func screenshot(_ window: Window, limit: (width: Int, height: Int)? = nil) throws -> Screenshot {
        guard var g = geometry(of: window), g.width > 0, g.height > 0 else {
            throw XTestError("window \(window) has no geometry")
        }
        if let limit {
            g.width = min(g.width, limit.width)
            g.height = min(g.height, limit.height)
        }
        lastXErrorCode = 0
        guard
            let image = XGetImage(
                display, window, 0, 0, UInt32(g.width), UInt32(g.height), UInt(bitPattern: -1),
                ZPixmap)
        else { throw XTestError("XGetImage failed (\(lastXErrorCode))") }
        defer { _ = image.pointee.f.destroy_image(image) }
        let img = image.pointee
        var pixels = [UInt32](repeating: 0, count: g.width * g.height)
        if img.bits_per_pixel == 32, img.byte_order == LSBFirst, let data = img.data {
            let stride = Int(img.bytes_per_line)
            data.withMemoryRebound(to: UInt8.self, capacity: stride * g.height) { bytes in
                for y in 0..<g.height {
                    let row = bytes + y * stride
                    row.withMemoryRebound(to: UInt32.self, capacity: g.width) { words in
                        for x in 0..<g.width { pixels[y * g.width + x] = words[x] & 0xff_ffff }
                    }
                }
            }
        } else {
            for y in 0..<g.height {
                for x in 0..<g.width {
                    let p = img.f.get_pixel(image, Int32(x), Int32(y))
                    pixels[y * g.width + x] = UInt32(truncatingIfNeeded: p) & 0xff_ffff
                }
            }
        }
        return Screenshot(width: g.width, height: g.height, pixels: pixels)
    }

    // MARK: - XI2 probe window

    /// An override-redirect window selecting XI2 `events` from all master devices.
    package func createProbeWindow(x: Int, y: Int, width: Int, height: Int, events: [Int32]) -> Window {
        let screen = XDefaultScreen(display)
        let window = XCreateSimpleWindow(
            display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, 0,
            XWhitePixel(display, screen))
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        XChangeWindowAttributes(display, window, UInt(CWOverrideRedirect), &attributes)
        var mask = [UInt8](repeating: 0, count: 8)
        for e in events { mask[Int(e) >> 3] |= UInt8(1 << (Int(e) & 7)) }
        mask.withUnsafeMutableBufferPointer { buffer in
            var eventMask = XIEventMask(
                deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count),
                mask: buffer.baseAddress)
            _ = XISelectEvents(display, window, &eventMask, 1)
        }
        XMapRaised(display, window)
        sync()
        return window
    }

    /// XI2 events received within `timeout` seconds, stopping early once `until` holds for the
    /// events so far.
    package func readXIEvents(timeout: Double, until: ([XIEventRecord]) -> Bool) -> [XIEventRecord] {
        var records: [XIEventRecord] = []
        let deadline = monotonicNow() + timeout
        while !until(records) {
            if XPending(display) == 0 {
                let remaining = deadline - monotonicNow()
                if remaining <= 0 { break }
                var pfd = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
                _ = Glibc.poll(&pfd, 1, Int32(max(1, remaining * 1000)))
                continue
            }
            var event = XEvent()
            XNextEvent(display, &event)
            guard event.type == GenericEvent, event.xcookie.extension == xiOpcode,
                XGetEventData(display, &event.xcookie) != 0
            else { continue }
            defer { XFreeEventData(display, &event.xcookie) }
            let type = event.xcookie.evtype
            let data = event.xcookie.data!
            if type >= XI_GesturePinchBegin && type <= XI_GesturePinchEnd {
                let e = data.assumingMemoryBound(to: XIGesturePinchEvent.self).pointee
                records.append(
                    XIEventRecord(
                        type: type, deviceID: e.deviceid, sourceID: e.sourceid, detail: e.detail,
                        x: e.event_x, y: e.event_y, rootX: e.root_x, rootY: e.root_y,
                        scale: e.scale, angleDelta: e.delta_angle, flags: e.flags))
            } else if type >= XI_GestureSwipeBegin && type <= XI_GestureSwipeEnd {
                let e = data.assumingMemoryBound(to: XIGestureSwipeEvent.self).pointee
                records.append(
                    XIEventRecord(
                        type: type, deviceID: e.deviceid, sourceID: e.sourceid, detail: e.detail,
                        x: e.event_x, y: e.event_y, rootX: e.root_x, rootY: e.root_y,
                        flags: e.flags))
            } else if type >= XI_KeyPress && type <= XI_Motion
                || type >= XI_TouchBegin && type <= XI_TouchEnd
            {
                let e = data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
                records.append(
                    XIEventRecord(
                        type: type, deviceID: e.deviceid, sourceID: e.sourceid, detail: e.detail,
                        x: e.event_x, y: e.event_y, rootX: e.root_x, rootY: e.root_y,
                        flags: e.flags))
            }
        }
        return records
    }
}
