import GestureShellCore

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the screen on through the session bus where the X server cannot (rootless Xwayland has
/// no MIT-SCREEN-SAVER): `org.freedesktop.ScreenSaver.Inhibit(app, reason) → cookie` (KDE, Xfce,
/// LXQt and others), else `org.gnome.SessionManager.Inhibit(app, xid, reason, 8 = idle)`;
/// `UnInhibit`/`Uninhibit(cookie)` at exit. The connection stays open while the kiosk runs
/// (those services also drop the inhibit of a client that leaves the bus).
///
/// libdbus-1 is loaded at run time (`dlopen("libdbus-1.so.3")`) and only its non-variadic
/// calls are used: the release binary links no shared library but glibc's (libdbus's archive
/// would bring libsystemd's), and a system without libdbus still runs the kiosk (then without
/// this path). It is used once at start and once at exit, never in the event loop: every call
/// has a deadline — the whole start (connect, authenticate, `Hello`, `Inhibit`) at most
/// ``startBudget`` seconds, the release at most 0.3 s.
final class IdleInhibitor {
    /// The most seconds the start may take.
    static let startBudget = 1.0

    /// The service that granted the inhibit (`org.freedesktop.ScreenSaver` or
    /// `org.gnome.SessionManager`).
    let service: String
    /// Seconds the start took (connect to `Inhibit` reply).
    let seconds: Double
    private let cookie: UInt32
    private var bus: DBus
    private let connection: OpaquePointer

    /// Asks for the inhibit; throws why none could be had, in words (no bus, no libdbus, no
    /// service, a timeout).
    init(app: String, reason: String, window: UInt32) throws(InhibitFailure) {
        let start = MonotonicClock.rawNanoseconds()
        func remainingMs() -> Int32 {
            let used = Double(MonotonicClock.rawNanoseconds() - start) / 1e9
            return Int32(max(1, (Self.startBudget - used) * 1000))
        }
        guard var bus = DBus.load() else { throw InhibitFailure("libdbus-1.so.3 is not installed") }
        guard let address = Self.sessionBusAddress() else {
            throw InhibitFailure("no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
        }
        var error = DBusErrorStorage()
        let opened = withUnsafeMutableBytes(of: &error.raw) { e -> OpaquePointer? in
            bus.errorInit(e.baseAddress!)
            return bus.openPrivate(address, e.baseAddress!)
        }
        guard let connection = opened else {
            throw InhibitFailure("cannot connect to the session bus: \(bus.errorText(&error))")
        }
        bus.setExitOnDisconnect(connection, 0)
        func close() {
            bus.close(connection)
            bus.unref(connection)
        }
        // Hello: the bus's registration (what dbus_bus_register sends, with our deadline).
        guard
            bus.call(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello", [],
                timeoutMs: remainingMs()) != nil
        else {
            let why = bus.lastError
            close()
            throw InhibitFailure("the session bus did not answer Hello: \(why)")
        }
        let attempts: [(String, String, String, String, [DBus.Argument])] = [
            (
                "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver", "Inhibit",
                [.string(app), .string(reason)]
            ),
            (
                "org.gnome.SessionManager", "/org/gnome/SessionManager", "org.gnome.SessionManager", "Inhibit",
                [.string(app), .uint32(window), .string(reason), .uint32(8)]
            ),
        ]
        var whys: [String] = []
        for (service, path, interface, method, arguments) in attempts {
            if let cookie = bus.call(
                connection, service, path, interface, method, arguments, timeoutMs: remainingMs())
            {
                self.bus = bus
                self.connection = connection
                self.service = service
                self.cookie = cookie
                seconds = Double(MonotonicClock.rawNanoseconds() - start) / 1e9
                return
            }
            // The first line of the error (a service's traceback is many).
            whys.append("\(service): \(bus.lastError.split(separator: "\n").first ?? "")")
        }
        close()
        throw InhibitFailure(whys.joined(separator: "; "))
    }

    /// Releases the inhibit (at most 0.3 s) and leaves the bus.
    func release() {
        let gnome = service == "org.gnome.SessionManager"
        _ = bus.call(
            connection, service, gnome ? "/org/gnome/SessionManager" : "/org/freedesktop/ScreenSaver", service,
            gnome ? "Uninhibit" : "UnInhibit", [.uint32(cookie)], timeoutMs: 300, expectsCookie: false)
        bus.close(connection)
        bus.unref(connection)
    }

    /// `$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when it exists (systemd's
    /// user bus).
    static func sessionBusAddress() -> String? {
        if let a = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !a.isEmpty { return a }
        if let dir = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !dir.isEmpty,
            access(dir + "/bus", F_OK) == 0
        {
            return "unix:path=\(dir)/bus"
        }
        return nil
    }
}

struct InhibitFailure: Error {
    let why: String
    init(_ why: String) { self.why = why }
}

/// `DBusError` (two pointers, a word of flags, a pointer), with room to spare.
struct DBusErrorStorage {
    var raw = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
}

/// The few libdbus-1 functions the inhibitor calls, looked up with `dlsym`.
struct DBus {
    typealias Raw = UnsafeMutableRawPointer
    let errorInit: @convention(c) (Raw) -> Void
    let errorFree: @convention(c) (Raw) -> Void
    let errorIsSet: @convention(c) (Raw) -> UInt32
    let openPrivateRaw: @convention(c) (UnsafePointer<CChar>, Raw) -> OpaquePointer?
    let setExitOnDisconnect: @convention(c) (OpaquePointer, UInt32) -> Void
    let close: @convention(c) (OpaquePointer) -> Void
    let unref: @convention(c) (OpaquePointer) -> Void
    let newMethodCall:
        @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>) ->
            OpaquePointer?
    let messageUnref: @convention(c) (OpaquePointer) -> Void
    let iterInitAppend: @convention(c) (OpaquePointer, Raw) -> Void
    let iterAppendBasic: @convention(c) (Raw, Int32, UnsafeRawPointer) -> UInt32
    let iterInit: @convention(c) (OpaquePointer, Raw) -> UInt32
    let iterArgType: @convention(c) (Raw) -> Int32
    let iterGetBasic: @convention(c) (Raw, Raw) -> Void
    let sendWithReplyAndBlock: @convention(c) (OpaquePointer, OpaquePointer, Int32, Raw) -> OpaquePointer?
    /// The last call's error, in words.
    private(set) var lastError = ""

    enum Argument {
        case string(String)
        case uint32(UInt32)
    }

    static func load() -> DBus? {
        guard let lib = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func f<T>(_ name: String, _: T.Type) -> T? {
            dlsym(lib, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let errorInit = f("dbus_error_init", (@convention(c) (Raw) -> Void).self),
            let errorFree = f("dbus_error_free", (@convention(c) (Raw) -> Void).self),
            let errorIsSet = f("dbus_error_is_set", (@convention(c) (Raw) -> UInt32).self),
            let openPrivate = f(
                "dbus_connection_open_private", (@convention(c) (UnsafePointer<CChar>, Raw) -> OpaquePointer?).self),
            let setExit = f(
                "dbus_connection_set_exit_on_disconnect", (@convention(c) (OpaquePointer, UInt32) -> Void).self),
            let close = f("dbus_connection_close", (@convention(c) (OpaquePointer) -> Void).self),
            let unref = f("dbus_connection_unref", (@convention(c) (OpaquePointer) -> Void).self),
            let newCall = f(
                "dbus_message_new_method_call",
                (@convention(c) (
                    UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafePointer<CChar>
                ) -> OpaquePointer?).self),
            let messageUnref = f("dbus_message_unref", (@convention(c) (OpaquePointer) -> Void).self),
            let iterInitAppend = f("dbus_message_iter_init_append", (@convention(c) (OpaquePointer, Raw) -> Void).self),
            let iterAppendBasic = f(
                "dbus_message_iter_append_basic", (@convention(c) (Raw, Int32, UnsafeRawPointer) -> UInt32).self),
            let iterInit = f("dbus_message_iter_init", (@convention(c) (OpaquePointer, Raw) -> UInt32).self),
            let iterArgType = f("dbus_message_iter_get_arg_type", (@convention(c) (Raw) -> Int32).self),
            let iterGetBasic = f("dbus_message_iter_get_basic", (@convention(c) (Raw, Raw) -> Void).self),
            let send = f(
                "dbus_connection_send_with_reply_and_block",
                (@convention(c) (OpaquePointer, OpaquePointer, Int32, Raw) -> OpaquePointer?).self)
        else { return nil }
        return DBus(
            errorInit: errorInit, errorFree: errorFree, errorIsSet: errorIsSet, openPrivateRaw: openPrivate,
            setExitOnDisconnect: setExit, close: close, unref: unref, newMethodCall: newCall,
            messageUnref: messageUnref, iterInitAppend: iterInitAppend, iterAppendBasic: iterAppendBasic,
            iterInit: iterInit, iterArgType: iterArgType, iterGetBasic: iterGetBasic, sendWithReplyAndBlock: send)
    }

    func openPrivate(_ address: String, _ error: Raw) -> OpaquePointer? {
        address.withCString { openPrivateRaw($0, error) }
    }

    /// The error's message (and frees it).
    func errorText(_ error: inout DBusErrorStorage) -> String {
        withUnsafeMutableBytes(of: &error.raw) { buf -> String in
            let raw = buf.baseAddress!
            guard errorIsSet(raw) != 0 else { return "unknown error" }
            let name = raw.load(as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
            let text = raw.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
            errorFree(raw)
            return name.isEmpty ? text : "\(name): \(text)"
        }
    }

    /// Calls `method` and waits at most `timeoutMs` for the reply: the reply's first argument
    /// as a UInt32 (0 for none or a string) when `expectsCookie`; nil on an error (``lastError``).
    @discardableResult
    mutating func call(
        _ connection: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ method: String,
        _ arguments: [Argument], timeoutMs: Int32, expectsCookie: Bool = true
    ) -> UInt32? {
        guard let message = newMethodCall(destination, path, interface, method) else {
            lastError = "out of memory"
            return nil
        }
        defer { messageUnref(message) }
        var iter = DBusIterStorage()
        let ok = withUnsafeMutableBytes(of: &iter.raw) { iterBuf -> Bool in
            iterInitAppend(message, iterBuf.baseAddress!)
            for a in arguments {
                switch a {
                case .string(let s):
                    let appended = s.withCString { c -> UInt32 in
                        var p: UnsafePointer<CChar>? = c
                        return withUnsafePointer(to: &p) { iterAppendBasic(iterBuf.baseAddress!, 0x73, $0) }  // 's'
                    }
                    if appended == 0 { return false }
                case .uint32(var v):
                    if iterAppendBasic(iterBuf.baseAddress!, 0x75, &v) == 0 { return false }  // 'u'
                }
            }
            return true
        }
        guard ok else {
            lastError = "out of memory"
            return nil
        }
        var error = DBusErrorStorage()
        let reply = withUnsafeMutableBytes(of: &error.raw) { e -> OpaquePointer? in
            errorInit(e.baseAddress!)
            return sendWithReplyAndBlock(connection, message, timeoutMs, e.baseAddress!)
        }
        guard let reply else {
            lastError = errorText(&error)
            return nil
        }
        defer { messageUnref(reply) }
        guard expectsCookie else { return 0 }
        var readIter = DBusIterStorage()
        return withUnsafeMutableBytes(of: &readIter.raw) { b -> UInt32 in
            guard iterInit(reply, b.baseAddress!) != 0, iterArgType(b.baseAddress!) == 0x75 else { return 0 }
            var v: UInt32 = 0
            iterGetBasic(b.baseAddress!, &v)
            return v
        }
    }
}

/// `DBusMessageIter` (72 bytes on 64-bit platforms), with room to spare.
struct DBusIterStorage {
    var raw: (DBusErrorStorage, DBusErrorStorage) = (DBusErrorStorage(), DBusErrorStorage())
}
