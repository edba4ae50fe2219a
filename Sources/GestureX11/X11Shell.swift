import CCairo
import CXCB
@_exported import GestureKit
@_exported import GestureShellCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The X11 shell: opens the window, turns X input into GestureKit input for a `ShellScene`,
/// runs the timers, and draws the scene with Cairo. (UIKit: `UIApplication` + `UIWindow` + the
/// run loop; everything runs on the main actor.)
///
/// Parts, one concern each: `XConnection` owns the X connection (XCB only); the window and
/// its properties are in `X11Shell+Window.swift`; events are decoded in `X11Shell+Events.swift`
/// and turned into touch changes by `InputTranslator`, into frames by `TouchFrameBuilder`;
/// `Presenter` owns the back buffer and puts it on screen; `SignalPipe` turns signals
/// into a readable descriptor; `WatchdogNotifier` talks to systemd.
///
/// ## The loop and its timing rules
///
/// ```
///      ┌──────────────────────────────────────────────────────────────────────────┐
///      ▼                                                                          │
///  poll(signal pipe, X socket; timeout = nearest deadline)                        │
///      │  deadlines: scene timers (a kiosk's too) · replay events ·                 │
///      │             frame pacing · completion timeout · watchdog ping           │
///      ▼                                                                          │
///  read the socket once → decode every event → feed the batch (touch frames) ──▶  │
///  run due timers                                                                 │
///      ▼                                                                          │
///  something to draw? ── no ──────────────────────────────────────────────────────┤
///      │ yes                                                                      │
///  frame in flight (not yet processed)? ── yes: a reply or an event will tell ────┤
///  less than a refresh interval since the last frame? ── yes: deadline ───────────┤
///      ▼                                                                          │
///  draw the damaged rectangles, present them, flush ──────────────────────────────┘
/// ```
///
/// - **Input first.** Input is read and fed to the recognizers as it arrives: one `poll` wakes
///   the loop, one read takes everything the server sent, and the moves of that read reach the
///   scene as one touch frame (UIKit's coalesced touches). Event times are the server's
///   (`ServerTimeMapper`), so recognition does not depend on when the loop ran.
/// - **A frame as soon as possible after input**, at most one per refresh interval (RandR's rate
///   of the screen's first CRTC when it reports one, else `ShellOptions/maximumFrameRate`),
///   and at most one in flight: with MIT-SHM the next frame waits until the server has processed
///   the last one (`Presenter`). Only the damaged rectangles are drawn (`ShellScene/damage`) and uploaded.
/// - **A drag that draws nothing is batched.** After a wake-up that brought motion, drew
///   nothing, and left the scene with no live gesture (every recognizer that saw the touches has
///   failed), the socket is read again only after `ShellOptions/inputBatchInterval`: such
///   motion cannot change the picture, and a wake-up per motion is most of its cost. Any frame,
///   any live gesture, or no motion in the batch ends the batching at once.
/// - **Idle is zero.** With nothing pending the timeout is infinite.
///
/// Exit: ``run(scene:beforeExit:)`` returns 0 when the window is closed (WM_DELETE_WINDOW), a
/// quit key is pressed, SIGINT/SIGTERM/SIGHUP arrives (within one loop turn: the signal pipe is
/// always watched), or a replay ends with `exitWhenDone`. A lost X connection prints one line
/// ("gestures: lost the X connection") and exits the process with status 1 at once.
@MainActor
public final class X11Shell {
    /// The scene ``run(scene:beforeExit:)`` drives.
    @exclusivity(unchecked) public internal(set) var scene: ShellScene!
    public let options: ShellOptions
    public let clock: MonotonicClock
    /// Pixels per point.
    public let scale: Double
    /// The X window id.
    public internal(set) var window: UInt = 0
    /// The window's size in points.
    public internal(set) var size: Size = .zero
    /// The XInput version in use (2.4, 2.2, …) or 0 for core events only.
    public internal(set) var xinputVersion = 0.0
    /// Every input event fed to the scene, after retiming (for `--record`). Key commands other
    /// than shake are not input events and are not reported.
    @exclusivity(unchecked) public var onInput: ((InputEvent) -> Void)?
    /// Called every turn of the loop, before it sleeps: writes output a slow reader has not
    /// taken yet; true when some is still pending (the loop then wakes again within 10 ms).
    public var outputPending: (() -> Bool)?
    /// Called once the first frame is on screen.
    public var onReady: ((ShellReady) -> Void)?
    /// Called when a replay started with ``play(_:exitWhenDone:)`` is over (its last event and
    /// a second of tail); with `exitWhenDone` the shell then quits with status 0.
    public var onReplayFinished: (() -> Void)?

    let x: XConnection
    let xid: xcb_window_t
    @exclusivity(unchecked) var presenter: Presenter!
    var keySymbols: OpaquePointer?
    @exclusivity(unchecked) var xiOpcode: UInt8 = 0
    @exclusivity(unchecked) var touchSelected = false
    /// XI 2.1 scroll valuators by slave device (X11Shell+Scroll.swift).
    @exclusivity(unchecked) var scrollAxes: [Int32: ScrollAxes] = [:]
    var pixelSize = (width: 0, height: 0)
    @exclusivity(unchecked) var pendingPixelSize: (width: Int, height: Int)?
    var parentIsRoot = true
    var hasWindowManager = false
    var fullscreenNow = false
    var savedGeometry: (x: Int32, y: Int32, w: UInt32, h: UInt32)?
    /// The shortest time between two frames (one refresh interval).
    var minFrameInterval = 1.0 / 240

    let translator: InputTranslator
    @exclusivity(unchecked) var timeMapper = ServerTimeMapper()
    var shakeDetector = WindowShakeDetector()
    @exclusivity(unchecked) var lastFed = 0.0
    @exclusivity(unchecked) var lastTouchFrameTime: Double?
    @exclusivity(unchecked) var pendingScreenshots: [String] = []
    @exclusivity(unchecked) var scratch: [TouchChange] = []
    @exclusivity(unchecked) var frames = TouchFrameBuilder()
    /// When the events being handled were read from the socket (shell seconds).
    @exclusivity(unchecked) var received = 0.0

    @exclusivity(unchecked) var motionSeen = false
    /// The last pointer motion of a read, while its finger is down (see `applyHeldMotion()`).
    @exclusivity(unchecked) var heldMotion: HeldMotion?
    var malformedReported = 0
    var windowDestroyed = false
    /// Window pixels exposed since the last frame (uploaded again from the back buffer).
    @exclusivity(unchecked) var exposedRect: PixelRect?
    @exclusivity(unchecked) var everExposed = false
    @exclusivity(unchecked) var forceRedraw = true
    @exclusivity(unchecked) var drawnOverlay: [Point] = []
    @exclusivity(unchecked) var lastFrameAt = -Double.infinity
    @exclusivity(unchecked) var isReady = false
    @exclusivity(unchecked) var running = false
    var exitStatus: Int32 = 0

    @exclusivity(unchecked) var replay: ReplayPlayer?
    var exitAfterReplay = false
    var replayReported = false
    let watchdog = WatchdogNotifier.fromEnvironment()

    /// Opens the display and creates the window (not yet mapped: ``run(scene:beforeExit:)`` maps
    /// it). ``size`` is then the window's size in points: make the scene for it.
    public init(options: ShellOptions) throws(ShellError) {
        clock = MonotonicClock()
        self.options = options
        x = try XConnection(display: options.display)
        guard x.rootDepth == 24 || x.rootDepth == 32, x.imageByteOrderMatches else {
            throw .cannotCreateWindow("the screen's depth \(x.rootDepth) or byte order is not supported")
        }
        xid = x.newID()
        x.intern(Self.atomNames)
        // RESOURCE_MANAGER and STRING (predefined atoms): Xft.dpi, as Xlib's XResourceManagerString.
        let (resourceManagerAtom, stringAtom): (xcb_atom_t, xcb_atom_t) = (23, 31)
        if let s = options.scale, s.isFinite, s > 0 {
            scale = s
        } else if let rm = x.property(x.root, resourceManagerAtom, type: stringAtom, maxBytes: 1 << 16),
            let s = scaleFromXResources(String(decoding: rm, as: UTF8.self))
        {
            scale = s
        } else {
            scale = 1
        }
        translator = InputTranslator(simulateModifier: options.simulateModifier) { _ in .zero }
        translator.mirrorCenter = { [unowned self] p in self.scene?.mirrorCenter(for: p) ?? p }
        scratch.reserveCapacity(8)
        hasWindowManager = detectWindowManager()
        createWindow()
        presenter = Presenter(connection: x, window: xid, depth: x.rootDepth, allowSHM: options.useSHM)
        keySymbols = xcb_key_symbols_alloc(x.raw)
        minFrameInterval = 1 / (refreshRate() ?? options.maximumFrameRate)
        setUpInput()
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

    /// Asks the loop to end; ``run(scene:beforeExit:)`` returns `status`.
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
        if everExposed && (frameWanted || presenter.surface == nil) { drawFrame(now: clock.now()) }
        guard let surface = presenter.surface else { return false }
        cairo_surface_flush(surface)
        return cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS
    }

    // MARK: Loop

    /// Maps the window and runs `scene` until a quit; returns the exit status (0). A lost X
    /// connection exits the process with status 1.
    /// `beforeExit` runs on a clean exit, while the window and its last frame still exist (for a
    /// final log line or screenshot).
    public func run(scene: ShellScene, beforeExit: (() -> Void)? = nil) -> Int32 {
        self.scene = scene
        let signals = SignalPipe.install()
        scene.resize(to: size, at: 0)
        xcb_map_window(x.raw, xid)
        x.flush()
        running = true
        // The signal pipe first (a negative fd is skipped), then the connection: while a dead
        // drag is batched, only the pipe is watched.
        var fds = [
            pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: x.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var readable = true
        var stashed: UnsafeMutablePointer<xcb_generic_event_t>?
        while running {
            motionSeen = false
            drainEvents(first: stashed, read: readable)
            stashed = nil
            guard running else { break }
            let now = clock.now()
            runTimers(now: now)
            guard running else { break }
            presenter.expireCompletion(now: now)
            let drew = drawIfNeeded(now: now)
            // A frame waits for the last one to be processed: make sure something will tell.
            if frameWanted && presenter.isBusy { presenter.requestSync(now: now) }
            watchdog?.pingIfDue(now: now)
            x.flush()
            // Events XCB read meanwhile (while waiting for a reply) are not seen by poll().
            stashed = x.nextEvent(read: false)
            if stashed != nil {
                readable = false
                continue
            }
            let before = clock.now()
            var timeout = pollTimeout(now: before)
            if outputPending?() == true { timeout = timeout < 0 ? 10 : min(timeout, 10) }
            let batching = motionSeen && !drew && !frameWanted && !scene.hasLiveGestures
            if batching {
                let ms = Int32((options.inputBatchInterval * 1000).rounded(.up))
                timeout = timeout < 0 ? ms : min(timeout, ms)
            }
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, batching ? 1 : 2, timeout)
            if n < 0 && errno != EINTR { break }
            readable = batching || fds[1].revents & Int16(POLLIN) != 0
            if fds[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The server went away: the read notices and exits with status 1.
                _ = x.nextEvent(read: true)
                XConnection.lost()
            }
            if fds[0].revents & Int16(POLLIN) != 0, let signal = signals.take() {
                handleSignal(signal)
            }
        }
        free(stashed)
        beforeExit?()
        tearDown()
        signals.uninstall()
        return exitStatus
    }

    /// SIGINT, SIGTERM and SIGHUP end the loop cleanly (status 0), whatever it was doing: the
    /// pipe is watched in every state, and no drawing or output waits without a bound.
    func handleSignal(_ signal: Int32) {
        quit(status: 0)
    }

    private func tearDown() {
        presenter.close()
        if let k = keySymbols { xcb_key_symbols_free(k) }
        if !windowDestroyed { xcb_destroy_window(x.raw, xid) }
        _ = xcb_flush(x.raw)
        x.close()
    }

    /// Whether something is waiting to be drawn.
    var frameWanted: Bool {
        guard everExposed else { return false }
        return forceRedraw || scene.needsDisplay || currentOverlay != drawnOverlay
    }

    private var currentOverlay: [Point] {
        translator.modifierHeld || !drawnOverlay.isEmpty ? translator.overlay : []
    }

    private func pollTimeout(now: Double) -> Int32 {
        var deadline = Double.infinity
        if let d = scene.nextDeadline { deadline = min(deadline, d) }
        if let d = replay?.nextDeadline { deadline = min(deadline, d) }
        if let d = presenter.busyDeadline { deadline = min(deadline, d) }
        if let d = watchdog?.nextPing { deadline = min(deadline, d) }
        if frameWanted && !presenter.isBusy { deadline = min(deadline, lastFrameAt + minFrameInterval) }
        guard deadline.isFinite else { return -1 }
        let ms = ((deadline - now) * 1000).rounded(.up)
        return ms <= 0 ? 0 : Int32(min(ms, 86_400_000))
    }

    /// Feeds one input event to the scene (applying a pending resize first). A touch frame
    /// right after another one is given a later time (by 1 µs if need be): in a trace, touch
    /// lines that share a time form one frame, and a recording must read back as it was fed.
    func feed(_ event: InputEvent, real: Bool) {
        applyPendingResize()
        if real { noteRealInput(at: event.timestamp) }
        deliver(event)
    }

    func deliver(_ event: InputEvent) {
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

    func applyPendingResize() {
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

    // MARK: Drawing

    /// Draws and presents a frame when one is wanted and allowed now (see the type's timing
    /// rules); uploads exposed parts otherwise. Returns whether a frame was drawn.
    @discardableResult
    func drawIfNeeded(now: Double) -> Bool {
        guard everExposed else { return false }
        var drew = false
        if frameWanted && !presenter.isBusy && now >= lastFrameAt + minFrameInterval {
            drawFrame(now: now)
            drew = true
        } else if let r = exposedRect, presenter.surface != nil {
            presenter.present([r], now: now)
        } else if presenter.surface == nil && !presenter.isBusy {
            drawFrame(now: now)
            drew = true
        }
        exposedRect = nil
        if !pendingScreenshots.isEmpty, let surface = presenter.surface, !frameWanted {
            cairo_surface_flush(surface)
            for path in pendingScreenshots where cairo_surface_write_to_png(surface, path) != CAIRO_STATUS_SUCCESS {
                writeStderr("gestures: cannot write the screenshot \(path)")
            }
            pendingScreenshots.removeAll()
        }
        if drew && !isReady {
            isReady = true
            x.sync()
            let t = max(clock.now(), lastFed)
            onReady?(
                ShellReady(time: t, window: window, size: size, scale: scale, xinputVersion: xinputVersion))
            watchdog?.ready(now: t)
            replay?.begin(at: t)
        }
        return drew
    }

    func drawFrame(now: Double) {
        let overlay = currentOverlay
        let full = presenter.resize(width: pixelSize.width, height: pixelSize.height) || forceRedraw
        guard let surface = presenter.surface else { return }
        var extra: [PixelRect] = []
        if let e = exposedRect { extra.append(e) }
        let rects = DamageDrawing.draw(
            scene, into: surface, scale: scale, overlay: overlay, drawnOverlay: drawnOverlay,
            showTouches: options.showTouches, full: full, extra: extra)
        drawnOverlay = overlay
        forceRedraw = false
        presenter.present(rects, now: now)
        lastFrameAt = now
    }

    func point(_ x: Double, _ y: Double) -> Point {
        Point(x: quantize(x / scale), y: quantize(y / scale))
    }

    /// A window size in pixels, in points.
    func pointSize(width: Int, height: Int) -> Size {
        Size(width: quantize(Double(width) / scale), height: quantize(Double(height) / scale))
    }
}
