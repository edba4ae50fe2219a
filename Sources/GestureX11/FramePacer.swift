import CXCB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// When the next frame may be drawn: at most one per refresh interval.
///
/// - **Present** (the server has the Present extension and RandR shows a display with a refresh
///   rate): after each frame the pacer asks for a `PresentNotifyMSC` at the next vertical
///   blank (divisor 1, so "the next MSC after the current one"), and the next frame may be drawn
///   once its `PresentCompleteNotify` arrives. Frames follow the display's own clock, whatever
///   its rate (60, 120, 144 Hz, or a variable one), and input that arrives after a blank is
///   drawn at once. If no completion comes within ``completionTimeout`` (a window on no CRTC,
///   a server that drops the request) the frame is allowed anyway, so pacing can never stall
///   drawing.
/// - **Deadline** otherwise: a frame at least one interval after the last (the RandR rate, or
///   `ShellOptions/maximumFrameRate` when the server reports none).
///
/// Why not Present on Xvfb: Xvfb has the Present extension but no display; its MSC is a fake
/// 60 Hz timer, so pacing by it would cap a drag at 60 frames per second on a server where
/// nothing is scanned out (and the 120 Hz budgets of the benchmarks could not be met). Xvfb's
/// RandR reports no refresh rate, which is what selects the deadline. (UIKit: `CADisplayLink`;
/// GTK4: `GdkFrameClock` with `_NET_WM_FRAME_DRAWN`; Qt: `QWindow::requestUpdate`.)
@MainActor
final class FramePacer {
    enum Mode: Equatable {
        case present
        case deadline
    }

    let mode: Mode
    /// One refresh interval, seconds (the fallback spacing, and the deadline mode's rule).
    let interval: Double
    /// How long a requested completion may take before the frame is allowed anyway.
    var completionTimeout: Double { max(0.05, 3 * interval) }
    /// The Present extension's major opcode (its events are generic events with it), or 0.
    private(set) var presentOpcode: UInt8 = 0
    private let connection: XConnection?
    private let window: xcb_window_t
    private var serial: UInt32 = 0
    /// When the frame whose completion is awaited was drawn (nil: none awaited).
    private var awaitingSince: Double?
    private var lastFrameAt = -Double.infinity

    /// A pacer for `window`: Present when `usePresent` and the server has it, else a deadline
    /// of one `interval`.
    init(connection: XConnection, window: xcb_window_t, interval: Double, usePresent: Bool) {
        self.interval = interval
        self.window = window
        if usePresent, let opcode = Self.selectPresent(connection, window: window) {
            presentOpcode = opcode
            mode = .present
            self.connection = connection
        } else {
            mode = .deadline
            self.connection = nil
        }
    }

    /// Selects CompleteNotify on `window`; the extension's opcode, or nil without Present 1.0.
    private static func selectPresent(_ x: XConnection, window: xcb_window_t) -> UInt8? {
        guard let ext = gestures_present_extension(x.raw), ext.pointee.present != 0 else { return nil }
        let cookie = xcb_present_query_version(x.raw, 1, 0)
        guard let reply = xcb_present_query_version_reply(x.raw, cookie, nil) else {
            x.exitIfBroken()
            return nil
        }
        free(reply)
        xcb_present_select_input(x.raw, x.newID(), window, UInt32(XCB_PRESENT_EVENT_MASK_COMPLETE_NOTIFY.rawValue))
        return ext.pointee.major_opcode
    }

    /// Whether a frame may be drawn now.
    func mayDraw(now: Double) -> Bool {
        switch mode {
        case .deadline:
            return now >= lastFrameAt + interval
        case .present:
            guard let since = awaitingSince else { return true }
            if now >= since + completionTimeout {
                awaitingSince = nil
                return true
            }
            return false
        }
    }

    /// When a wanted frame may be drawn at the latest without news from the server (the loop's
    /// deadline); nil when it may be drawn now or only an event can allow it sooner.
    var nextDeadline: Double? {
        switch mode {
        case .deadline: return lastFrameAt + interval
        case .present: return awaitingSince.map { $0 + completionTimeout }
        }
    }

    /// A frame was presented at `now`: in Present mode, ask to hear of the next vertical blank.
    func framePresented(now: Double) {
        lastFrameAt = now
        guard mode == .present, let x = connection else { return }
        serial &+= 1
        // target 0, divisor 1, remainder 0: the next MSC after the current one (Present
        // protocol, PresentNotifyMSC).
        xcb_present_notify_msc(x.raw, window, serial, 0, 1, 0)
        awaitingSince = now
    }

    /// Handles a Present generic event of `length` bytes (XCB's buffer: the wire event with
    /// its full sequence inserted at byte 32). A CompleteNotify for the awaited serial allows
    /// the next frame; anything else, or a short event, is ignored.
    func handle(_ event: UnsafeRawPointer, length: Int) {
        guard length >= MemoryLayout<xcb_present_complete_notify_event_t>.size else { return }
        let e = event.loadUnaligned(as: xcb_present_complete_notify_event_t.self)
        guard e.event_type == UInt16(XCB_PRESENT_COMPLETE_NOTIFY), e.window == window else { return }
        guard e.kind == UInt8(XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC.rawValue), e.serial == serial else { return }
        awaitingSince = nil
    }
}
