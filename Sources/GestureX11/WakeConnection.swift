import CXCB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A second, listen-only X connection whose one job is to wake the loop while a dead drag is
/// batched (see `X11Shell`'s timing rules): it hears every press and release (keys, buttons,
/// touch begin and end, as XInput 2 raw events on the root window) and the window's Expose and
/// StructureNotify events, and nothing else — no motion.
///
/// While a dead drag is batched the shell leaves the main connection unread (its motion cannot
/// change the picture) and polls this one instead. Anything that could matter — a second
/// finger, a key, a release, an expose or a resize — arrives here too and ends the batch at once,
/// so batching costs no latency on any input that could draw; only motion that provably cannot
/// draw waits, up to `ShellOptions/inputBatchInterval`.
///
/// Why a second connection: XInput 2 raw events and window events can be selected by several
/// clients, but a connection that is read cannot be left unread. Its events are never
/// interpreted, only drained; every request and reply of the shell still goes through the one
/// `XConnection`. A server without XInput 2 (or `--core-input`) gets no wake connection, and
/// the batch is then cut to one 60 Hz frame.
@MainActor
final class WakeConnection {
    private let raw: OpaquePointer
    /// The socket, for `poll()`.
    let fileDescriptor: Int32

    /// XInput 2 raw event types that wake the loop (XI2proto.h): key, button and touch presses
    /// and releases; raw motion and touch updates are left out.
    static let rawEvents: [UInt16] = [13, 14, 15, 16, 22, 24]

    /// Opens `display` and selects the wake-up events for `window`; nil when the server lacks
    /// XInput 2.2 or anything fails (the shell then batches for one frame at most).
    init?(display: String?, window: xcb_window_t) {
        var screenNumber: Int32 = 0
        let c = XConnection.connect(display, screen: &screenNumber)
        guard let c, xcb_connection_has_error(c) == 0 else {
            if let c { xcb_disconnect(c) }
            return nil
        }
        // XI2 requests need the client's version first.
        guard let version = xcb_input_xi_query_version_reply(c, xcb_input_xi_query_version(c, 2, 2), nil) else {
            xcb_disconnect(c)
            return nil
        }
        let ok = version.pointee.major_version > 2 || version.pointee.minor_version >= 2
        free(version)
        guard ok, let root = XConnection.screens(of: c).first?.root else {
            xcb_disconnect(c)
            return nil
        }
        var mask: [UInt32] = [0]
        for e in Self.rawEvents { mask[0] |= UInt32(1) << UInt32(e) }
        // XIAllDevices: raw events come from the slave devices.
        let status = gestures_xi_select(c, root, 0, mask, 1, 1)
        let windowMask = [XCB_EVENT_MASK_EXPOSURE.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue]
        let cookie = xcb_change_window_attributes_checked(c, window, XCB_CW_EVENT_MASK.rawValue, windowMask)
        let error = xcb_request_check(c, cookie)
        guard status == 0, error == nil else {
            free(error)
            xcb_disconnect(c)
            return nil
        }
        raw = c
        fileDescriptor = xcb_get_file_descriptor(c)
    }

    /// Reads and drops everything that arrived. A broken wake connection is only closed state:
    /// the main connection notices a lost server.
    func drain() {
        while let e = xcb_poll_for_event(raw) { free(e) }
    }

    func close() {
        xcb_disconnect(raw)
    }
}
