import CXCB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes a line to standard error (unbuffered, so it is out before an exit).
func writeStderr(_ line: String) {
    var s = line
    if !s.hasSuffix("\n") { s += "\n" }
    s.withCString { p in _ = write(2, p, strlen(p)) }
}

/// The one owner of the X connection: an XCB connection and nothing else — no Xlib, so there is
/// no second event queue that a library (cairo-xlib's MIT-SHM fallback did) could wait in for
/// an event that the other queue took. Every request the shell makes, every reply it waits for
/// and every event it reads goes through here.
///
/// Failure contract (docs/DESIGN.md §4.4): a connection that breaks — noticed by a read, a flush or a
/// reply — prints one line ("gestures: lost the X connection") and exits with status 1 at once;
/// a protocol error of a request whose reply nobody waits for arrives as an event and is
/// reported in one line (the first 20; later ones are dropped).
@MainActor
final class XConnection {
    /// The `xcb_connection_t *`.
    let raw: OpaquePointer
    let root: xcb_window_t
    let rootVisual: xcb_visualid_t
    let rootDepth: UInt8
    /// The screen's size in pixels (at connection time).
    let screenWidth: Int
    let screenHeight: Int
    /// The socket, for `poll()`.
    let fileDescriptor: Int32
    /// The largest request the server takes, in bytes.
    let maximumRequestBytes: Int
    /// Whether the server's images are little-endian (cairo's RGB24 is native-endian).
    let imageByteOrderMatches: Bool
    private var reportedErrors = 0
    private var atoms: [String: xcb_atom_t] = [:]
    /// QueryExtension requests sent and not yet answered (``askExtension(_:)``), and the answers.
    private var extensionQuestions: [String: xcb_query_extension_cookie_t] = [:]
    private var extensionAnswers: [String: Bool] = [:]

    /// How long the server may take to answer the connection set-up (seconds). A local server
    /// answers in milliseconds; a loaded one or one over SSH in well under a second.
    static let connectTimeout = 5

    /// Opens `name` (nil: `$DISPLAY`) with XCB within ``connectTimeout``: a server that accepts
    /// the connection and never answers the set-up (stopped with SIGSTOP, wedged, a stale socket
    /// that something else listens on) ends the process with one line and status 1 — the same
    /// contract as a lost connection; xcb_connect itself would wait forever.
    static func connect(_ name: String?, screen: inout Int32) -> OpaquePointer? {
        let shown = name ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
        let message =
            "gestures: the X server \(shown.isEmpty ? "" : "at \(shown) ")did not answer the connection set-up "
            + "within \(connectTimeout) s\n"
        return message.withCString { text in
            gestures_connect_within(name, &screen, Int32(connectTimeout * 1000), text)
        }
    }

    /// Connects to `name` (nil: `$DISPLAY`).
    init(display name: String?) throws(ShellError) {
        var screenNumber: Int32 = 0
        let connection = Self.connect(name, screen: &screenNumber)
        guard let connection, xcb_connection_has_error(connection) == 0 else {
            if let connection { xcb_disconnect(connection) }
            let shown = name ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
            throw .cannotOpenDisplay(shown)
        }
        raw = connection
        let setup = xcb_get_setup(connection)!
        let screens = Self.screens(of: connection)
        guard screenNumber >= 0, Int(screenNumber) < screens.count else {
            xcb_disconnect(connection)
            throw .cannotOpenDisplay(name ?? "(screen \(screenNumber) does not exist)")
        }
        let screen = screens[Int(screenNumber)]
        root = screen.root
        rootVisual = screen.rootVisual
        rootDepth = screen.rootDepth
        screenWidth = screen.width
        screenHeight = screen.height
        fileDescriptor = xcb_get_file_descriptor(connection)
        maximumRequestBytes = Int(xcb_get_maximum_request_length(connection)) * 4
        let littleEndian = UInt32(1).littleEndian == 1
        imageByteOrderMatches =
            (setup.pointee.image_byte_order == UInt8(XCB_IMAGE_ORDER_LSB_FIRST.rawValue)) == littleEndian
    }

    /// The screens of a connection's set-up, read within its length (``XReplyDecoder``).
    nonisolated static func screens(of connection: OpaquePointer) -> [XReplyDecoder.Screen] {
        guard let setup = xcb_get_setup(connection) else { return [] }
        let size = 8 + Int(setup.pointee.length) * 4
        return XReplyDecoder.setupScreens(UnsafeRawBufferPointer(start: UnsafeRawPointer(setup), count: size))
    }

    /// Runs `body` on a reply's bytes (32 + `length` × 4: all XCB allocated), then frees it.
    nonisolated static func withReply<T>(_ reply: UnsafeMutableRawPointer, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        defer { free(reply) }
        return body(UnsafeRawBufferPointer(start: reply, count: XReplyDecoder.size(ofReplyHeader: reply)))
    }

    /// Closes the connection (the server frees every resource of ours).
    func close() {
        xcb_disconnect(raw)
    }

    // MARK: Failure

    /// Exits with status 1 and one line if the connection has broken.
    func exitIfBroken() {
        if xcb_connection_has_error(raw) != 0 { Self.lost() }
    }

    /// One line for a lost X connection, then exit status 1.
    static func lost() -> Never {
        writeStderr("gestures: lost the X connection")
        exit(1)
    }

    /// Reports an X protocol error (an event of type 0) in one line and carries on.
    func report(_ error: UnsafeRawPointer) {
        let e = error.loadUnaligned(as: xcb_generic_error_t.self)
        guard reportedErrors < 20 else { return }
        reportedErrors += 1
        writeStderr(
            "gestures: X error: \(Self.errorName(e.error_code)) (request \(e.major_code).\(e.minor_code), "
                + "resource 0x\(String(e.resource_id, radix: 16)))")
    }

    private static func errorName(_ code: UInt8) -> String {
        let names = [
            "BadRequest", "BadValue", "BadWindow", "BadPixmap", "BadAtom", "BadCursor", "BadFont", "BadMatch",
            "BadDrawable", "BadAccess", "BadAlloc", "BadColor", "BadGC", "BadIDChoice", "BadName", "BadLength",
            "BadImplementation",
        ]
        let i = Int(code) - 1
        return i >= 0 && i < names.count ? names[i] : "error \(code)"
    }

    // MARK: Requests

    /// Sends what is buffered; a broken connection exits (see the type's doc).
    func flush() {
        if xcb_flush(raw) <= 0 { Self.lost() }
    }

    /// A new X resource id.
    func newID() -> UInt32 { xcb_generate_id(raw) }

    /// Sends QueryExtension for `name` now and returns at once: ``hasExtension(_:)`` takes the
    /// reply. Sent before a request whose reply start-up waits for anyway (the atoms), the
    /// answer comes in the same round trip instead of one of its own.
    func askExtension(_ name: String) {
        guard extensionAnswers[name] == nil, extensionQuestions[name] == nil else { return }
        extensionQuestions[name] = name.withCString { xcb_query_extension(raw, UInt16(strlen($0)), $0) }
    }

    /// Whether the server has the extension `name`: the answer to ``askExtension(_:)`` (waits for
    /// its reply only when it has not come yet), else asked now (one round trip: start-up only).
    func hasExtension(_ name: String) -> Bool {
        if let known = extensionAnswers[name] { return known }
        askExtension(name)
        guard let cookie = extensionQuestions.removeValue(forKey: name) else { return false }
        var present = false
        if let reply = xcb_query_extension_reply(raw, cookie, nil) {
            present = reply.pointee.present != 0
            free(reply)
        }
        extensionAnswers[name] = present
        return present
    }

    /// Sends QueryExtension for RENDER now, for XCB's table of extensions (which the RENDER
    /// requests take their opcode from): ``RenderBackdrop`` then finds the reply in hand.
    func askRenderExtension() {
        gestures_prefetch_render_extension(raw)
    }

    /// Interns `names` in one round trip (all requests first, then the replies).
    func intern(_ names: [String]) {
        let cookies = names.map { name in
            name.withCString { xcb_intern_atom(raw, 0, UInt16(strlen($0)), $0) }
        }
        for (name, cookie) in zip(names, cookies) {
            guard let reply = xcb_intern_atom_reply(raw, cookie, nil) else { Self.lost() }
            atoms[name] = Self.withReply(reply) { XReplyDecoder.internAtom($0) } ?? 0
        }
    }

    /// An atom interned with ``intern(_:)`` (or interned now, one round trip).
    func atom(_ name: String) -> xcb_atom_t {
        if let a = atoms[name] { return a }
        intern([name])
        return atoms[name] ?? 0
    }

    /// Replaces a property with 8-bit data.
    func setProperty(_ window: xcb_window_t, _ property: xcb_atom_t, type: xcb_atom_t, bytes: [UInt8]) {
        bytes.withUnsafeBytes { p in
            _ = xcb_change_property(
                raw, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 8, UInt32(bytes.count),
                p.baseAddress)
        }
    }

    /// Replaces a property with 32-bit data.
    func setProperty(_ window: xcb_window_t, _ property: xcb_atom_t, type: xcb_atom_t, words: [UInt32]) {
        words.withUnsafeBytes { p in
            _ = xcb_change_property(
                raw, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 32, UInt32(words.count),
                p.baseAddress)
        }
    }

    /// Reads a property (at most `maxBytes`), waiting for the reply; nil when it is not set.
    func property(_ window: xcb_window_t, _ property: xcb_atom_t, type: xcb_atom_t, maxBytes: Int) -> [UInt8]? {
        let cookie = xcb_get_property(raw, 0, window, property, type, 0, UInt32((maxBytes + 3) / 4))
        guard let reply = xcb_get_property_reply(raw, cookie, nil) else {
            exitIfBroken()
            return nil
        }
        guard let p = Self.withReply(reply, { XReplyDecoder.property($0) }), p.type != 0, !p.value.isEmpty else {
            return nil
        }
        return Array(p.value.prefix(maxBytes))
    }

    /// Waits until the server has handled every request sent so far (one round trip).
    func sync() {
        let cookie = xcb_get_input_focus(raw)
        guard let reply = xcb_get_input_focus_reply(raw, cookie, nil) else { Self.lost() }
        free(reply)
    }

    // MARK: Events

    /// The next event: read from the socket when `read` (one read at most), else only from what
    /// XCB already holds. The caller frees it. A read on a broken connection exits.
    func nextEvent(read: Bool) -> UnsafeMutablePointer<xcb_generic_event_t>? {
        if read {
            let e = xcb_poll_for_event(raw)
            if e == nil { exitIfBroken() }
            return e
        }
        return xcb_poll_for_queued_event(raw)
    }
}
