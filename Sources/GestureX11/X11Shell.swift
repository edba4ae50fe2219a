import CCairo
import CX11
import GestureKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// MARK: - Process-wide state the C callbacks reach (Xlib error handlers, signal handlers)

nonisolated(unsafe) private var signalPipeWrite: Int32 = -1
nonisolated(unsafe) private var reportedXErrors = 0

/// Writes a line to standard error (unbuffered, so it is out before an exit).
func writeStderr(_ line: String) {
    var s = line
    if !s.hasSuffix("\n") { s += "\n" }
    s.withCString { p in _ = write(2, p, strlen(p)) }
}

/// One line for a lost X connection, then exit status 1 (Xlib's own handler prints several).
private func lostXConnection() -> Never {
    writeStderr("gestures: lost the X connection")
    exit(1)
}

/// Reports an X protocol error in one line (the first 20; later ones are dropped) and
/// carries on — Xlib's default handler would exit.
private func reportXError(_ display: OpaquePointer?, code: UInt8, request: UInt8, minor: UInt16, resource: UInt) {
    if reportedXErrors >= 20 { return }
    reportedXErrors += 1
    var text = [CChar](repeating: 0, count: 160)
    XGetErrorText(display, Int32(code), &text, Int32(text.count))
    let errorText = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    writeStderr(
        "gestures: X error: \(errorText) (request \(request).\(minor), resource 0x\(String(resource, radix: 16)))")
}

/// Xlib's handlers, for what still passes through Xlib: its IO errors (a request or a reply on
/// a dead connection) and the errors of requests whose replies Xlib waits for. The errors of
/// other requests arrive in the XCB event queue (see ``X11Shell``).
private func installXErrorHandlers() {
    XSetIOErrorHandler { _ in lostXConnection() }
    XSetErrorHandler { display, event in
        guard let e = event?.pointee else { return 0 }
        reportXError(
            display, code: e.error_code, request: e.request_code, minor: UInt16(e.minor_code), resource: e.resourceid)
        return 0
    }
}

// X constants Swift does not import (cast macros) or that read better named here.
private enum XC {
    static let none: UInt = 0
    static let xaAtom: Atom = 4
    static let xaWindow: Atom = 33
    static let copyFromParent: Int32 = 0
    static let success: Int32 = 0
    static let currentTime: Time = 0
    static let netWMStateToggle = 2
    static let xaCardinal: Atom = 6
    static let xaString: Atom = 31
    static let xaWMClientMachine: Atom = 36
    static let xiPointerEmulated: UInt32 = 1 << 16
    static let xiKeyRepeat: UInt32 = 1 << 16
    static let xiGesturePinchCancelled: UInt32 = 1 << 0
    static let xiGestureSwipeCancelled: UInt32 = 1 << 0
    static let xiMasterRemoved: UInt32 = 1 << 1
    static let xiMaskWords = 2  // XIMaskLen(XI_LASTEVENT) bytes, in 32-bit words
    static let sendEventBit: UInt8 = 0x80
}

/// The X11 shell: opens the display and the window, turns XInput 2 events into GestureKit input
/// for a ``ShellScene``, runs the timers, and draws the scene with Cairo, double-buffered.
/// (UIKit: `UIApplication` + `UIWindow` + the event loop; everything runs on the main actor.)
///
/// Loop: `poll()` on the X connection (and a signal pipe) with the nearest deadline as timeout —
/// the scene's timers, a replay's next event, the kiosk's idle timers — infinite when nothing is
/// pending, so an idle shell uses no CPU. Each wake-up handles every pending event, feeds timers
/// that are due, and then draws at most one frame, only when the scene, the overlay or the
/// window size changed (an Expose with nothing changed just copies the back buffer). After a
/// wake-up that brought motion the connection is left alone for one batch interval (60 Hz):
/// `poll()` then watches only the signal pipe, and the events that came meanwhile are read in
/// one go — one `poll` and one `recvmsg` per batch.
///
/// Time: one monotonic clock (``MonotonicClock``, seconds since launch, quantized to µs). Input
/// timestamps come from the X server's millisecond time mapped onto that clock
/// (``ServerTimeMapper``), never earlier than what the scene was last fed. Changes that share a
/// server time form one ``TouchFrame``; the moves handled in one wake-up coalesce into one frame
/// with the latest location of each finger and the latest time (UIKit's coalesced touches).
///
/// Events: Xlib makes the requests (window, properties, Cairo's drawing), but XCB owns the event
/// queue (`XSetEventQueueOwner`): events are read with one `xcb_poll_for_event` per wake-up and
/// XInput 2 events are decoded in place from the wire structs — Xlib's queue, its lock and
/// libXi's per-event conversion (an allocation and copies per event) cost most of the CPU a
/// pointer motion took. Protocol errors of requests whose replies Xlib does not wait for
/// arrive in that queue and are reported like the ones Xlib's error handler sees. The state
/// read for every event or wake-up is `@exclusivity(unchecked)`: the shell runs on the main actor
/// alone, and the run-time access checks were 10 % of its instructions per motion.
///
/// Exit: ``run(scene:)`` returns 0 when the window is closed (WM_DELETE_WINDOW), a quit key is pressed,
/// SIGINT/SIGTERM arrives, or a replay ends with `exitWhenDone`. A lost X connection prints
/// one line ("gestures: lost the X connection") and exits the process with status 1 at once.
@MainActor
public final class X11Shell {
    /// The scene ``run(scene:)`` drives.
    @exclusivity(unchecked) public private(set) var scene: ShellScene!
    public let options: ShellOptions
    public let clock: MonotonicClock
    /// Pixels per point.
    public let scale: Double
    /// The X window id.
    public private(set) var window: Window = 0
    /// The window's size in points.
    public private(set) var size: Size = .zero
    /// The XInput version in use (2.4, 2.2, …) or 0 for core events only.
    public private(set) var xinputVersion = 0.0
    /// Every input event fed to the scene, after retiming (for `--record`). Key commands other
    /// than shake are not input events and are not reported.
    @exclusivity(unchecked) public var onInput: ((InputEvent) -> Void)?
    /// Called once the first frame is on screen.
    public var onReady: ((ShellReady) -> Void)?
    /// Called when a replay started with ``play(_:exitWhenDone:)`` is over (its last event and
    /// a second of tail); with `exitWhenDone` the shell then quits with status 0.
    public var onReplayFinished: (() -> Void)?
    /// The kiosk's tour (played after `idleTourDelay` seconds without input, until real input).
    public var tour: [InputEvent] = []
    /// When set, gives the tour for the window's current size in points (the bundled tour is made
    /// for 1024×768; the caller maps it to the window, e.g. a full screen of another size).
    public var tourEvents: ((Size) -> [InputEvent])?

    private let display: OpaquePointer
    /// The XCB connection under `display`; it owns the event queue.
    private let connection: OpaquePointer
    /// An event taken from XCB's queue to learn whether one is waiting; handled first next time.
    @exclusivity(unchecked) private var stashedEvent: UnsafeMutablePointer<xcb_generic_event_t>?
    private let screen: Int32
    private let root: Window
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    @exclusivity(unchecked) private var xiOpcode: Int32 = -1
    @exclusivity(unchecked) private var touchSelected = false
    private var atoms: [String: Atom] = [:]
    private var gc: GC?
    private var backPixmap: Pixmap = 0
    @exclusivity(unchecked) private var backSurface: OpaquePointer?
    private var backSize = (width: 0, height: 0)
    private var pixelSize = (width: 0, height: 0)
    @exclusivity(unchecked) private var pendingPixelSize: (width: Int, height: Int)?
    private var parentIsRoot = true
    private var hasWindowManager = false
    private var fullscreenNow = false
    private var savedGeometry: (x: Int32, y: Int32, w: UInt32, h: UInt32)?

    private let translator: InputTranslator
    @exclusivity(unchecked) private var timeMapper = ServerTimeMapper()
    private var shakeDetector = WindowShakeDetector()
    @exclusivity(unchecked) private var lastFed = 0.0
    @exclusivity(unchecked) private var lastTouchFrameTime: Double?
    @exclusivity(unchecked) private var pendingScreenshots: [String] = []
    @exclusivity(unchecked) private var scratch: [TouchChange] = []
    @exclusivity(unchecked) private var pending: [TouchChange] = []
    @exclusivity(unchecked) private var pendingTime = 0.0
    /// The last pointer motion of the batch, while its finger is down (``applyHeldMotion()``).
    @exclusivity(unchecked) private var heldMotion: HeldMotion?
    /// Whether every change in `pending` is a move.
    @exclusivity(unchecked) private var pendingOnlyMoves = true
    /// When the events being handled were read from the socket (shell seconds).
    @exclusivity(unchecked) private var received = 0.0

    @exclusivity(unchecked) private var outputPending = false
    @exclusivity(unchecked) private var motionSeen = false
    private var windowDestroyed = false
    @exclusivity(unchecked) private var exposed = false
    @exclusivity(unchecked) private var everExposed = false
    @exclusivity(unchecked) private var forceRedraw = true
    @exclusivity(unchecked) private var drawnOverlay: [Point] = []
    @exclusivity(unchecked) private var isReady = false
    @exclusivity(unchecked) private var running = false
    private var exitStatus: Int32 = 0

    @exclusivity(unchecked) private var replay: ReplayPlayer?
    private var exitAfterReplay = false
    private var replayReported = false
    @exclusivity(unchecked) private var tourPlayer: ReplayPlayer?
    private var lastInput = 0.0
    private var idleResetDone = true
    private var nextTourAt = Double.infinity

    /// Opens the display and creates the window (not yet mapped: ``run(scene:)`` maps it).
    /// ``size`` is then the window's size in points: make the scene for it.
    public init(options: ShellOptions) throws(ShellError) {
        clock = MonotonicClock()
        self.options = options
        installXErrorHandlers()
        let displayName =
            options.display ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
        let opened: OpaquePointer? =
            if let name = options.display { XOpenDisplay(name) } else { XOpenDisplay(nil) }
        guard let display = opened else { throw .cannotOpenDisplay(displayName) }
        // Only right after XOpenDisplay (XSetEventQueueOwner(3)).
        XSetEventQueueOwner(display, XCBOwnsEventQueue)
        self.display = display
        connection = XGetXCBConnection(display)
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
        visual = XDefaultVisual(display, screen)
        depth = XDefaultDepth(display, screen)
        if let s = options.scale, s.isFinite, s > 0 {
            scale = s
        } else if let rm = XResourceManagerString(display),
            let s = scaleFromXResources(String(cString: rm))
        {
            scale = s
        } else {
            scale = 1
        }
        translator = InputTranslator(simulateModifier: options.simulateModifier) { _ in .zero }
        translator.mirrorCenter = { [unowned self] p in self.scene?.mirrorCenter(for: p) ?? p }
        scratch.reserveCapacity(8)
        pending.reserveCapacity(16)
        internAtoms()
        hasWindowManager = detectWindowManager()
        try createWindow()
        setUpInput()
    }

    // MARK: Set-up

    private func internAtoms() {
        let names = [
            "WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "_NET_WM_PID",
            "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN", "_NET_SUPPORTING_WM_CHECK",
        ]
        var cNames: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) }
        defer { for p in cNames { free(p) } }
        var result = [Atom](repeating: 0, count: names.count)
        XInternAtoms(display, &cNames, Int32(names.count), 0, &result)
        for (n, a) in zip(names, result) { atoms[n] = a }
    }

    private func detectWindowManager() -> Bool {
        guard let check = atoms["_NET_SUPPORTING_WM_CHECK"] else { return false }
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            display, root, check, 0, 1, 0, XC.xaWindow, &type, &format,
            &count, &after, &data)
        defer { if let data { XFree(data) } }
        return status == 0 && count > 0
    }

    private func createWindow() throws(ShellError) {
        let screenW = Int(XDisplayWidth(display, screen))
        let screenH = Int(XDisplayHeight(display, screen))
        var w: Int
        var h: Int
        if options.fullscreen || options.kiosk {
            (w, h) = (screenW, screenH)
        } else {
            let s = options.size ?? ShellOptions.defaultSize
            w = min(max(1, Int((s.width * scale).rounded())), screenW)
            h = min(max(1, Int((s.height * scale).rounded())), screenH)
        }
        var attrs = XSetWindowAttributes()
        attrs.background_pixmap = XC.none
        attrs.bit_gravity = NorthWestGravity
        var events = ExposureMask | StructureNotifyMask | FocusChangeMask
        if !options.useXInput2 || !xinputAvailable() {
            events |= ButtonPressMask | ButtonReleaseMask | PointerMotionMask | KeyPressMask
            events |= KeyReleaseMask | LeaveWindowMask
        }
        attrs.event_mask = events
        window = XCreateWindow(
            display, root, 0, 0, UInt32(w), UInt32(h), 0, XC.copyFromParent,
            UInt32(InputOutput), nil, UInt(CWBackPixmap | CWBitGravity | CWEventMask), &attrs)
        guard window != 0 else { throw .cannotCreateWindow("XCreateWindow failed") }
        pixelSize = (w, h)
        size = pointSize(width: w, height: h)
        setProperties(width: w, height: h)
        if options.kiosk { hideCursor() }
        gc = XCreateGC(display, window, 0, nil)
        XSetGraphicsExposures(display, gc, 0)
    }

    private var xinputChecked: Bool?
    private func xinputAvailable() -> Bool {
        if let c = xinputChecked { return c }
        var event: Int32 = 0
        var error: Int32 = 0
        var available = XQueryExtension(display, "XInputExtension", &xiOpcode, &event, &error) != 0
        if available {
            var major: Int32 = 2
            var minor: Int32 = 4
            if XIQueryVersion(display, &major, &minor) == XC.success && major >= 2 {
                xinputVersion = Double(major) + Double(minor) / 10
            } else {
                available = false
            }
        }
        xinputChecked = available
        return available
    }

    private func setProperties(width: Int, height: Int) {
        XStoreName(display, window, options.title)
        let utf8 = Array(options.title.utf8)
        XChangeProperty(
            display, window, atoms["_NET_WM_NAME"]!, atoms["UTF8_STRING"]!, 8, PropModeReplace,
            utf8, Int32(utf8.count))
        if let hint = XAllocClassHint() {
            let name = strdup("gestures")
            let cls = strdup("Gestures")
            hint.pointee.res_name = name
            hint.pointee.res_class = cls
            XSetClassHint(display, window, hint)
            XFree(hint)
            free(name)
            free(cls)
        }
        var protocols = [atoms["WM_DELETE_WINDOW"]!]
        XSetWMProtocols(display, window, &protocols, 1)
        let pid = [Int(getpid())]
        pid.withUnsafeBytes { p in
            _ = XChangeProperty(
                display, window, atoms["_NET_WM_PID"]!, XC.xaCardinal, 32, PropModeReplace,
                p.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        var host = [CChar](repeating: 0, count: 256)
        if gethostname(&host, host.count - 1) == 0 {
            let bytes = host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            XChangeProperty(
                display, window, XC.xaWMClientMachine, XC.xaString, 8, PropModeReplace, bytes,
                Int32(bytes.count))
        }
        if let hints = XAllocWMHints() {
            hints.pointee.flags = InputHint | StateHint
            hints.pointee.input = 1
            hints.pointee.initial_state = NormalState
            XSetWMHints(display, window, hints)
            XFree(hints)
        }
        if let sizeHints = XAllocSizeHints() {
            sizeHints.pointee.flags = PSize | PMinSize
            sizeHints.pointee.width = Int32(width)
            sizeHints.pointee.height = Int32(height)
            sizeHints.pointee.min_width = Int32((160 * scale).rounded())
            sizeHints.pointee.min_height = Int32((120 * scale).rounded())
            XSetWMNormalHints(display, window, sizeHints)
            XFree(sizeHints)
        }
        if options.fullscreen || options.kiosk {
            let state = [atoms["_NET_WM_STATE_FULLSCREEN"]!]
            state.withUnsafeBytes { p in
                _ = XChangeProperty(
                    display, window, atoms["_NET_WM_STATE"]!, XC.xaAtom, 32, PropModeReplace,
                    p.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
            }
            fullscreenNow = true
        }
    }

    private func hideCursor() {
        var data: [CChar] = [0]
        let bitmap = XCreateBitmapFromData(display, window, &data, 1, 1)
        var foreground = XColor()
        var background = XColor()
        let cursor = XCreatePixmapCursor(display, bitmap, bitmap, &foreground, &background, 0, 0)
        XDefineCursor(display, window, cursor)
        XFreePixmap(display, bitmap)
    }

    private func setUpInput() {
        guard options.useXInput2, xinputAvailable() else {
            // One warning line whenever the shell falls back to core events (DESIGN §5), also when
            // the fallback was asked for (--core-input).
            writeStderr(
                "gestures: warning: "
                    + (options.useXInput2 ? "the X server has no XInput 2" : "XInput 2 is off (--core-input)")
                    + "; using core mouse and key events (no touch, one pointer)")
            xinputVersion = 0
            return
        }
        let minor = Int((xinputVersion * 10).rounded()) % 10
        var events: [Int32] = [
            XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_KeyPress, XI_KeyRelease, XI_Leave,
        ]
        let touch = [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd]
        let gestures = [
            XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd,
            XI_GestureSwipeBegin, XI_GestureSwipeUpdate, XI_GestureSwipeEnd,
        ]
        if minor >= 4 { events += gestures }
        if minor >= 2 {
            // Only one client may select touch events on a window (BadAccess otherwise).
            touchSelected = select(events + touch, on: window, device: XIAllMasterDevices, checked: true) == 0
            if !touchSelected {
                select(events, on: window, device: XIAllMasterDevices)
                writeStderr("gestures: warning: another client takes the touch events; touch is off")
            }
        } else {
            select(events, on: window, device: XIAllMasterDevices)
        }
        select([XI_HierarchyChanged], on: root, device: XIAllDevices)
    }

    /// Selects XI2 `events`; with `checked`, waits for the server and returns its error code
    /// (0: selected).
    @discardableResult
    private func select(_ events: [Int32], on target: Window, device: Int32, checked: Bool = false) -> Int32 {
        var mask = [UInt32](repeating: 0, count: XC.xiMaskWords)
        for e in events { mask[Int(e) >> 5] |= UInt32(1) << UInt32(e & 31) }
        return gestures_xi_select(
            connection, UInt32(target), UInt16(device), mask, UInt16(mask.count), checked ? 1 : 0)
    }

    // MARK: Public controls

    /// Plays `events` (times from the start of the playback) through the live window once its
    /// first frame is up (or now, if it is). With `exitWhenDone` the shell quits with status 0
    /// one second after the last event.
    public func play(_ events: [InputEvent], exitWhenDone: Bool) {
        let player = ReplayPlayer(events: events, idOffset: 1_000_000)
        replay = player
        exitAfterReplay = exitWhenDone
        replayReported = false
        if isReady { player.begin(at: max(clock.now(), lastFed)) }
    }

    /// Asks the loop to end; ``run(scene:)`` returns `status`.
    public func quit(status: Int32 = 0) {
        exitStatus = status
        running = false
    }

    /// Writes a PNG of the window (see ``writePNG(to:)``) once the next frame is drawn — or at
    /// the next turn of the loop when nothing needs drawing.
    public func requestScreenshot(_ path: String) {
        pendingScreenshots.append(path)
    }

    /// Draws the current frame if anything changed and writes the window's picture (the back
    /// buffer, in pixels) as a PNG. False when there is no frame yet or cairo fails.
    public func writePNG(to path: String) -> Bool {
        if everExposed { drawIfNeeded() }
        guard let surface = backSurface else { return false }
        cairo_surface_flush(surface)
        return cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS
    }

    // MARK: Loop

    /// Maps the window and runs `scene` until a quit; returns the exit status (0). A lost X
    /// connection exits the process with status 1 from inside Xlib.
    /// `beforeExit` runs on a clean exit, while the window and its last frame still exist (for a
    /// final log line or screenshot).
    public func run(scene: ShellScene, beforeExit: (() -> Void)? = nil) -> Int32 {
        self.scene = scene
        let signalFD = installSignalPipe()
        scene.resize(to: size, at: 0)
        XMapWindow(display, window)
        XFlush(display)
        running = true
        // The signal pipe first (a negative fd is skipped), then the connection: while input is
        // held, only the pipe is watched (see below).
        var fds = [
            pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0),
        ]
        var readable = true
        while running {
            motionSeen = false
            drainEvents(read: readable)
            // Input batching: after a wake-up that brought motion, the socket is left alone for
            // `inputBatchInterval` — motion that arrives meanwhile is handled in one go (UIKit
            // delivers coalesced touches once per frame). Event times are the server's, so
            // velocities are unaffected; the first event after a pause is handled at once.
            let holdUntil = motionSeen ? received + options.inputBatchInterval : 0
            guard running else { break }
            runTimers(now: received)
            guard running else { break }
            drawIfNeeded()
            // XFlush also reads the socket (libX11's _XFlush ends with _XEventsQueued): only when
            // requests were made.
            if outputPending {
                outputPending = false
                XFlush(display)
            }
            // Events XCB read meanwhile (while Xlib waited for a reply) are not seen by poll().
            if stashedEvent == nil { stashedEvent = xcb_poll_for_queued_event(connection) }
            if stashedEvent != nil {
                readable = false
                continue
            }
            let before = clock.now()
            var timeout = pollTimeout(now: before)
            let holding = holdUntil > before
            if holding {
                // The connection is not watched while held (being on its wait queue costs every
                // event the server writes meanwhile a wake-up check): a server that dies now is
                // noticed by the read that ends the hold, ≤ one batch interval later.
                let ms = Int32(((holdUntil - before) * 1000).rounded(.up))
                timeout = timeout < 0 ? ms : min(timeout, ms)
            }
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, holding ? 1 : 2, timeout)
            if n < 0 && errno != EINTR { break }
            // After a hold, read whatever came meanwhile without another poll() round.
            readable = holding || fds[1].revents & Int16(POLLIN) != 0
            if fds[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The server went away: let Xlib notice and call the IO error handler.
                XNoOp(display)
                XSync(display, 0)
            }
            if signalFD >= 0, fds[0].revents & Int16(POLLIN) != 0 {
                var buf = [UInt8](repeating: 0, count: 16)
                _ = read(signalFD, &buf, buf.count)
                quit(status: 0)
            }
        }
        beforeExit?()
        tearDown()
        return exitStatus
    }

    private func installSignalPipe() -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWrite = fds[1]
        let handler: @convention(c) (Int32) -> Void = { _ in
            var b: UInt8 = 1
            _ = write(signalPipeWrite, &b, 1)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A write to a dead server (or a closed log pipe) must fail with EPIPE, not kill the
        // process silently: Xlib then reports the lost connection in one line.
        signal(SIGPIPE, SIG_IGN)
        return fds[0]
    }

    private func tearDown() {
        free(stashedEvent)
        stashedEvent = nil
        if let s = backSurface { cairo_surface_destroy(s) }
        backSurface = nil
        if backPixmap != 0 { XFreePixmap(display, backPixmap) }
        backPixmap = 0
        if let gc { XFreeGC(display, gc) }
        if !windowDestroyed { XDestroyWindow(display, window) }
        XCloseDisplay(display)
    }

    private func pollTimeout(now: Double) -> Int32 {
        var deadline = Double.infinity
        if let d = scene.nextDeadline { deadline = min(deadline, d) }
        if let d = replay?.nextDeadline { deadline = min(deadline, d) }
        if let d = tourPlayer?.nextDeadline { deadline = min(deadline, d) }
        if options.kiosk && isReady {
            if !idleResetDone { deadline = min(deadline, lastInput + options.idleResetDelay) }
            if !tour.isEmpty && tourPlayer?.isPlaying != true { deadline = min(deadline, nextTourAt) }
        }
        guard deadline.isFinite else { return -1 }
        let ms = ((deadline - now) * 1000).rounded(.up)
        return ms <= 0 ? 0 : Int32(min(ms, 86_400_000))
    }

    private func runTimers(now: Double) {
        // A replay (--replay) and the kiosk tour: their due events, as if a person did them.
        if let player = replay, player.isPlaying {
            for e in player.due(at: now, notBefore: lastFed) { feed(e, real: false) }
            if player.isFinished && !replayReported {
                replayReported = true
                onReplayFinished?()
                if exitAfterReplay { quit(status: 0) }
            }
        }
        if let player = tourPlayer, player.isPlaying {
            for e in player.due(at: now, notBefore: lastFed) { feed(e, real: false) }
            if player.isFinished { nextTourAt = now + options.tourGap }
        }
        // The scene's timers, each at its own deadline.
        var guardCount = 0
        while let d = scene.nextDeadline, d <= now, guardCount < 1000 {
            let t = max(d, lastFed)
            scene.advance(to: t)
            lastFed = t
            guardCount += 1
        }
        // Kiosk: reset after a minute without input; the tour after a minute and a half.
        if options.kiosk && isReady {
            if translator.hasActiveFingers {
                lastInput = now
                nextTourAt = max(nextTourAt, now + options.idleTourDelay)
            }
            if !idleResetDone && now >= lastInput + options.idleResetDelay {
                idleResetDone = true
                scene.resetAfterIdle(at: max(now, lastFed))
            }
            if !tour.isEmpty && tourPlayer?.isPlaying != true && now >= nextTourAt {
                // A new player each time: the window may have changed size since the last tour.
                let player = ReplayPlayer(events: tourEvents?(size) ?? tour, idOffset: 2_000_000)
                tourPlayer = player
                scene.resetAfterIdle(at: max(now, lastFed))
                player.begin(at: max(now, lastFed))
                nextTourAt = .infinity
            }
        }
    }

    /// Feeds one input event to the scene (applying a pending resize first). A touch frame
    /// right after another one is given a later time (by 1 µs if need be): in a trace, touch
    /// lines that share a time form one frame, and a recording must read back as it was fed.
    private func feed(_ event: InputEvent, real: Bool) {
        applyPendingResize()
        if real { noteRealInput(at: event.timestamp) }
        deliver(event)
    }

    private func deliver(_ event: InputEvent) {
        var event = event
        if case .touches(var frame) = event {
            if let previous = lastTouchFrameTime, frame.timestamp <= previous {
                frame.timestamp = quantize(previous + 0.000_001)
                event = .touches(frame)
            }
            lastTouchFrameTime = frame.timestamp
        } else {
            lastTouchFrameTime = nil
        }
        lastFed = max(lastFed, event.timestamp)
        onInput?(event)
        scene.handle(event)
    }

    /// Real input (not a replay, not the tour): stops the tour and restarts the idle timers.
    private func noteRealInput(at t: Double) {
        guard options.kiosk else { return }
        if let player = tourPlayer, player.isPlaying {
            for e in player.stop(at: t) { deliver(e) }
            scene.resetAfterIdle(at: t)
        }
        lastInput = t
        idleResetDone = false
        nextTourAt = t + options.idleTourDelay
    }

    /// Kiosk only: activity that is not scene input (hover motion) still counts as someone there.
    private func noteActivity() {
        guard options.kiosk, isReady else { return }
        noteRealInput(at: max(clock.now(), lastFed))
    }

    private func applyPendingResize() {
        guard let p = pendingPixelSize else { return }
        pendingPixelSize = nil
        guard p.width != pixelSize.width || p.height != pixelSize.height else { return }
        pixelSize = p
        size = pointSize(width: p.width, height: p.height)
        let t = max(clock.now(), lastFed)
        lastFed = t
        scene.resize(to: size, at: t)
        forceRedraw = true
    }

    // MARK: Events

    /// The shell time of an event stamped `server`, read from the socket at `received`.
    private func eventTime(_ server: UInt32) -> Double {
        return quantize(max(timeMapper.map(server: UInt64(server), received: received), lastFed))
    }

    /// Handles every queued event. With `read`, reads the socket first, once (one `recvmsg`;
    /// a further read would only fail): events that arrive meanwhile are read at the next
    /// wake-up. The moves of one batch reach the scene as one touch frame (see
    /// ``addChanges(at:)``).
    private func drainEvents(read: Bool) {
        var next = stashedEvent ?? (read ? xcb_poll_for_event(connection) : xcb_poll_for_queued_event(connection))
        stashedEvent = nil
        if next == nil && read && xcb_connection_has_error(connection) != 0 { lostXConnection() }
        received = clock.now()
        while let event = next {
            handle(event)
            free(event)
            if !running { return }
            next = xcb_poll_for_queued_event(connection)
        }
        applyHeldMotion()
        flushFrame()
        applyPendingResize()
    }

    /// A pointer motion whose finger is down, not yet given to the translator.
    private struct HeldMotion {
        var device: Int32
        /// In pixels (converted when applied).
        var x: Double
        var y: Double
        var modifiers: UInt32
        var time: UInt32
    }

    /// Gives the held motion (if any) to the translator. The moves of a finger within a batch
    /// coalesce into one frame anyway (``addChanges(at:)``), so of a run of motions of one
    /// pointer only the last is translated: it is applied before any other event is handled
    /// and at the end of the batch. (Its server time also gives the time mapping the same
    /// offset as the whole run would: the batch shares one receive time.)
    private func applyHeldMotion() {
        guard let held = heldMotion else { return }
        heldMotion = nil
        apply(held)
    }

    private func apply(_ motion: HeldMotion) {
        translator.pointerMoved(
            device: motion.device, to: point(motion.x, motion.y), modifiers: motion.modifiers,
            into: &scratch)
        if scratch.isEmpty { noteActivity() } else { addChanges(at: eventTime(motion.time)) }
    }

    /// Adds the translator's changes to the frame being built for time `t`. Changes that share
    /// a time form one frame. Moves also coalesce across times: a frame of moves only takes
    /// later moves (a finger that moves again gets its new location, the frame the later
    /// time), so the moves of one batch of events (one wake-up) reach the scene as one frame —
    /// UIKit delivers coalesced touches once per display frame. A begin or an end keeps its own
    /// time, and a finger's begin or end never merges with another change of the same finger.
    /// (Plain loops, no closures: a closure formed here is main-actor isolated and checks its
    /// executor at run time on every call.)
    private func addChanges(at t: Double) {
        guard !scratch.isEmpty else { return }
        defer { scratch.removeAll(keepingCapacity: true) }
        if !pending.isEmpty && mustStartNewFrame(at: t) { flushFrame() }
        pendingTime = t
        for c in scratch {
            if let i = pendingIndex(of: c.id) {
                pending[i].location = c.location  // a coalesced move
            } else {
                pending.append(c)
                if c.phase != .moved { pendingOnlyMoves = false }
            }
        }
    }

    /// Whether the changes in `scratch` (for time `t`) cannot join the pending frame.
    private func mustStartNewFrame(at t: Double) -> Bool {
        var scratchOnlyMoves = true
        for c in scratch {
            if c.phase != .moved { scratchOnlyMoves = false }
            if let i = pendingIndex(of: c.id), pending[i].phase != .moved || c.phase != .moved {
                return true
            }
        }
        return pendingTime != t && !(pendingOnlyMoves && scratchOnlyMoves)
    }

    private func pendingIndex(of id: Int) -> Int? {
        var i = 0
        while i < pending.count {
            if pending[i].id == id { return i }
            i += 1
        }
        return nil
    }

    private func flushFrame() {
        guard !pending.isEmpty else { return }
        pendingOnlyMoves = true
        do {
            let frame = TouchFrame(timestamp: pendingTime, changes: pending)
            feed(.touches(frame), real: true)
        }
        // Emptied once the frame is gone: the buffer is unique again and is reused as it is.
        pending.removeAll(keepingCapacity: true)
    }

    private func point(_ x: Double, _ y: Double) -> Point {
        Point(x: quantize(x / scale), y: quantize(y / scale))
    }

    /// A window size in pixels, in points.
    private func pointSize(width: Int, height: Int) -> Size {
        Size(width: quantize(Double(width) / scale), height: quantize(Double(height) / scale))
    }

    /// An event of XCB's queue, of the wire struct `T` (its first bytes).
    private func wire<T>(_ event: UnsafeMutablePointer<xcb_generic_event_t>, as _: T.Type) -> T {
        UnsafeRawPointer(event).load(as: T.self)
    }

    private func isXI2Motion(_ event: UnsafeMutablePointer<xcb_generic_event_t>) -> Bool {
        guard Int32(event.pointee.response_type & ~XC.sendEventBit) == GenericEvent else { return false }
        let ge = wire(event, as: xcb_ge_generic_event_t.self)
        return Int32(ge.extension) == xiOpcode && Int32(ge.event_type) == XI_Motion
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        if heldMotion != nil && !isXI2Motion(event) { applyHeldMotion() }
        let type = Int32(event.pointee.response_type & ~XC.sendEventBit)
        switch type {
        case 0:
            let e = wire(event, as: xcb_generic_error_t.self)
            reportXError(
                display, code: e.error_code, request: e.major_code, minor: e.minor_code, resource: UInt(e.resource_id))
        case GenericEvent:
            let ge = wire(event, as: xcb_ge_generic_event_t.self)
            guard Int32(ge.extension) == xiOpcode else { return }
            handleXI2(evtype: Int32(ge.event_type), event: event)
        case Expose:
            if wire(event, as: xcb_expose_event_t.self).count == 0 {
                exposed = true
                everExposed = true
            }
        case ConfigureNotify:
            let c = wire(event, as: xcb_configure_notify_event_t.self)
            pendingPixelSize = (Int(c.width), Int(c.height))
            let sent = event.pointee.response_type & XC.sendEventBit != 0
            if sent || parentIsRoot { windowMoved(x: Int32(c.x), y: Int32(c.y)) }
        case ReparentNotify:
            parentIsRoot = Window(wire(event, as: xcb_reparent_notify_event_t.self).parent) == root
        case DestroyNotify:
            // Another client destroyed the window (xdotool windowclose, xkill of the window…).
            if Window(wire(event, as: xcb_destroy_notify_event_t.self).window) == window {
                windowDestroyed = true
                quit(status: 0)
            }
        case UnmapNotify:
            flushFrame()
            translator.cancelAll(into: &scratch)
            addChanges(at: quantize(max(clock.now(), lastFed)))
            flushFrame()
        case MapNotify:
            if !hasWindowManager {
                XSetInputFocus(display, window, Int32(RevertToPointerRoot), XC.currentTime)
                outputPending = true
            }
        case FocusOut:
            translator.modifierHeld = false
        case ClientMessage:
            let m = wire(event, as: xcb_client_message_event_t.self)
            if Atom(m.type) == atoms["WM_PROTOCOLS"], Atom(m.data.data32.0) == atoms["WM_DELETE_WINDOW"] {
                quit(status: 0)
            }
        case ButtonPress, ButtonRelease:
            let b = wire(event, as: xcb_button_press_event_t.self)
            let t = eventTime(b.time)
            let p = point(Double(b.event_x), Double(b.event_y))
            let mods = UInt32(b.state)
            if type == ButtonPress {
                translator.pointerPressed(device: 0, button: Int(b.detail), at: p, modifiers: mods, into: &scratch)
            } else {
                translator.pointerReleased(device: 0, button: Int(b.detail), at: p, modifiers: mods, into: &scratch)
            }
            if scratch.isEmpty { noteActivity() }
            addChanges(at: t)
        case MotionNotify:
            motionSeen = true
            let m = wire(event, as: xcb_motion_notify_event_t.self)
            translator.pointerMoved(
                device: 0, to: point(Double(m.event_x), Double(m.event_y)), modifiers: UInt32(m.state),
                into: &scratch)
            if scratch.isEmpty { noteActivity() } else { addChanges(at: eventTime(m.time)) }
        case KeyPress, KeyRelease:
            let k = wire(event, as: xcb_key_press_event_t.self)
            let state = UInt32(k.state)
            let group = (state >> 13) & 3
            let level: Int32 = state & ModifierBits.shift != 0 ? 1 : 0
            let sym = XkbKeycodeToKeysym(display, KeyCode(k.detail), Int32(group), level)
            key(
                sym: UInt(sym), pressed: type == KeyPress, modifiers: state, repeated: false,
                pointer: point(Double(k.event_x), Double(k.event_y)), time: k.time)
        case LeaveNotify:
            if !translator.hasActiveFingers { translator.hover = nil }
        default:
            break
        }
    }

    /// An XInput 2 event, decoded from its wire struct (XCB keeps the extra data in place).
    private func handleXI2(evtype: Int32, event: UnsafeMutablePointer<xcb_generic_event_t>) {
        switch evtype {
        case XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd:
            let e = wire(event, as: xcb_input_touch_begin_event_t.self)
            let p = point(fixed(e.event_x), fixed(e.event_y))
            let device = Int32(e.deviceid)
            switch evtype {
            case XI_TouchBegin: translator.touchBegan(device: device, touch: e.detail, at: p, into: &scratch)
            case XI_TouchUpdate:
                motionSeen = true
                translator.touchMoved(device: device, touch: e.detail, to: p, into: &scratch)
            default: translator.touchEnded(device: device, touch: e.detail, at: p, into: &scratch)
            }
            addChanges(at: eventTime(e.time))
        case XI_Motion:
            motionSeen = true
            let e = wire(event, as: xcb_input_motion_event_t.self)
            if touchSelected && e.flags & XC.xiPointerEmulated != 0 { return }
            let device = Int32(e.deviceid)
            let motion = HeldMotion(
                device: device, x: fixed(e.event_x), y: fixed(e.event_y), modifiers: e.mods.effective, time: e.time)
            if let held = heldMotion {
                if held.device == device {
                    heldMotion = motion  // its finger is down: it was held
                    return
                }
                applyHeldMotion()
            }
            if translator.isPointerDown(device) {
                heldMotion = motion
            } else {
                apply(motion)
            }
        case XI_ButtonPress, XI_ButtonRelease:
            let e = wire(event, as: xcb_input_button_press_event_t.self)
            if touchSelected && e.flags & XC.xiPointerEmulated != 0 { return }
            let p = point(fixed(e.event_x), fixed(e.event_y))
            let device = Int32(e.deviceid)
            if evtype == XI_ButtonPress {
                translator.pointerPressed(
                    device: device, button: Int(e.detail), at: p, modifiers: e.mods.effective, into: &scratch)
            } else {
                translator.pointerReleased(
                    device: device, button: Int(e.detail), at: p, modifiers: e.mods.effective, into: &scratch)
            }
            if scratch.isEmpty { noteActivity() }
            addChanges(at: eventTime(e.time))
        case XI_KeyPress, XI_KeyRelease:
            let e = wire(event, as: xcb_input_key_press_event_t.self)
            let mods = e.mods.effective
            let level: Int32 = mods & ModifierBits.shift != 0 ? 1 : 0
            let sym = XkbKeycodeToKeysym(
                display, KeyCode(truncatingIfNeeded: e.detail), Int32(e.group.effective), level)
            key(
                sym: UInt(sym), pressed: evtype == XI_KeyPress, modifiers: mods,
                repeated: e.flags & XC.xiKeyRepeat != 0, pointer: point(fixed(e.event_x), fixed(e.event_y)),
                time: e.time)
        case XI_Leave:
            if !translator.hasActiveFingers { translator.hover = nil }
        case XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd:
            motionSeen = true
            let e = wire(event, as: xcb_input_gesture_pinch_begin_event_t.self)
            let phase: TouchpadPhase =
                switch evtype {
                case XI_GesturePinchBegin: .begin
                case XI_GesturePinchUpdate: .update
                default: e.flags & XC.xiGesturePinchCancelled != 0 ? .cancel : .end
                }
            flushFrame()
            let pinch = TouchpadPinch(
                timestamp: eventTime(e.time), phase: phase, location: point(fixed(e.event_x), fixed(e.event_y)),
                scale: quantize(fixed(e.scale)), angleDelta: quantize(fixed(e.delta_angle)))
            feed(.touchpadPinch(pinch), real: true)
        case XI_GestureSwipeBegin, XI_GestureSwipeUpdate, XI_GestureSwipeEnd:
            motionSeen = true
            let e = wire(event, as: xcb_input_gesture_swipe_begin_event_t.self)
            let device = Int32(e.deviceid)
            switch evtype {
            case XI_GestureSwipeBegin:
                translator.swipeBegan(device: device, at: point(fixed(e.event_x), fixed(e.event_y)), into: &scratch)
            case XI_GestureSwipeUpdate:
                translator.swipeUpdated(
                    device: device, delta: Vector(dx: fixed(e.delta_x) / scale, dy: fixed(e.delta_y) / scale),
                    into: &scratch)
                for i in scratch.indices {
                    scratch[i].location = Point(x: quantize(scratch[i].location.x), y: quantize(scratch[i].location.y))
                }
            default:
                translator.swipeEnded(
                    device: device, cancelled: e.flags & XC.xiGestureSwipeCancelled != 0, into: &scratch)
            }
            addChanges(at: eventTime(e.time))
        case XI_HierarchyChanged:
            let e = UnsafeMutableRawPointer(event).assumingMemoryBound(to: xcb_input_hierarchy_event_t.self)
            guard let info = xcb_input_hierarchy_infos(e) else { return }
            for i in 0..<Int(e.pointee.num_infos) where info[i].flags & XC.xiMasterRemoved != 0 {
                translator.deviceRemoved(Int32(info[i].deviceid), into: &scratch)
            }
            // New masters need nothing: the window's selection is for all master devices.
            addChanges(at: eventTime(e.pointee.time))
        default:
            break
        }
    }

    /// An XInput 2 FP16.16 fixed-point value (as libXi converts it).
    private func fixed(_ v: Int32) -> Double { Double(v) / 65536 }

    private func key(sym: UInt, pressed: Bool, modifiers: UInt32, repeated: Bool, pointer: Point, time: UInt32) {
        if options.simulateModifier.matches(keysym: sym) {
            translator.modifierHeld = pressed
            translator.hover = pointer
            return
        }
        translator.updateModifiers(modifiers)
        guard pressed, let action = KeyBindings.action(keysym: sym, modifiers: modifiers, kiosk: options.kiosk) else {
            if pressed { noteActivity() }
            return
        }
        flushFrame()
        let t = eventTime(time)
        switch action {
        case .command(let command):
            applyPendingResize()
            noteRealInput(at: t)
            lastFed = t
            scene.perform(command, at: t)
        case .shake:
            if !repeated { feed(.shake(timestamp: t), real: true) }
        case .quit:
            if !repeated { quit(status: 0) }
        case .toggleFullscreen:
            if !repeated { toggleFullscreen() }
        }
    }

    private func windowMoved(x: Int32, y: Int32) {
        let now = clock.now()
        if shakeDetector.move(toX: Double(x), y: Double(y), at: now) {
            flushFrame()
            feed(.shake(timestamp: quantize(max(now, lastFed))), real: true)
        }
    }

    private func toggleFullscreen() {
        if hasWindowManager {
            var msg = XEvent()
            msg.xclient.type = ClientMessage
            msg.xclient.window = window
            msg.xclient.message_type = atoms["_NET_WM_STATE"]!
            msg.xclient.format = 32
            msg.xclient.data.l = (XC.netWMStateToggle, Int(bitPattern: atoms["_NET_WM_STATE_FULLSCREEN"]!), 0, 1, 0)
            XSendEvent(display, root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &msg)
            outputPending = true
        } else if let g = savedGeometry {
            XMoveResizeWindow(display, window, g.x, g.y, g.w, g.h)
            savedGeometry = nil
        } else {
            savedGeometry = (0, 0, UInt32(pixelSize.width), UInt32(pixelSize.height))
            XMoveResizeWindow(
                display, window, 0, 0, UInt32(XDisplayWidth(display, screen)), UInt32(XDisplayHeight(display, screen)))
        }
        fullscreenNow.toggle()
        outputPending = true
    }

    // MARK: Drawing

    private func drawIfNeeded() {
        guard everExposed else { return }
        let overlay = translator.modifierHeld || !drawnOverlay.isEmpty ? translator.overlay : []
        let dirty = forceRedraw || scene.needsDisplay || overlay != drawnOverlay
        if dirty || backSurface == nil {
            drawFrame(overlay: overlay)
        } else if exposed {
            copyToWindow()
        }
        exposed = false
        if !pendingScreenshots.isEmpty, let surface = backSurface {
            cairo_surface_flush(surface)
            for path in pendingScreenshots where cairo_surface_write_to_png(surface, path) != CAIRO_STATUS_SUCCESS {
                writeStderr("gestures: cannot write the screenshot \(path)")
            }
            pendingScreenshots.removeAll()
        }
        if !isReady {
            isReady = true
            XSync(display, 0)
            let t = max(clock.now(), lastFed)
            lastInput = t
            idleResetDone = true
            nextTourAt = t + options.idleTourDelay
            onReady?(
                ShellReady(time: t, window: window, size: size, scale: scale, xinputVersion: xinputVersion))
            replay?.begin(at: t)
        }
    }

    private func drawFrame(overlay: [Point]) {
        ensureBackBuffer()
        guard let surface = backSurface else { return }
        let cr = cairo_create(surface)!
        if scale != 1 { cairo_scale(cr, scale, scale) }
        scene.draw(into: cr, overlay: overlay, showTouches: options.showTouches)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        drawnOverlay = overlay
        forceRedraw = false
        copyToWindow()
    }

    private func copyToWindow() {
        guard backPixmap != 0 else { return }
        XCopyArea(display, backPixmap, window, gc, 0, 0, UInt32(backSize.width), UInt32(backSize.height), 0, 0)
        outputPending = true
    }

    private func ensureBackBuffer() {
        if backSurface != nil && backSize == pixelSize { return }
        if let s = backSurface { cairo_surface_destroy(s) }
        if backPixmap != 0 { XFreePixmap(display, backPixmap) }
        let w = max(1, pixelSize.width)
        let h = max(1, pixelSize.height)
        backPixmap = XCreatePixmap(display, window, UInt32(w), UInt32(h), UInt32(depth))
        backSurface = cairo_xlib_surface_create(display, backPixmap, visual, Int32(w), Int32(h))
        backSize = (w, h)
    }
}
