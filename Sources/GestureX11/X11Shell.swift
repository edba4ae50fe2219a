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
/// `Presenter` draws frames into its buffer in passes and puts them on screen; `SignalPipe` turns signals
/// into a readable descriptor; `WatchdogNotifier` talks to systemd.
///
/// Its state is grouped by owner (docs/DESIGN.md §2): `input` (`InputPipeline`: translation,
/// frame building, time mapping, batching), `windowState` (`WindowState`, with the window's
/// `WindowLifecycle` as one enum), `drawing` (`DrawingState`: presenter, pacer, what to draw
/// again), `playback` (`Playback`) and `kiosk` (`KioskServices`: the systemd notifier, the
/// window guard, the placement check, the screen saver, the admin exit).
///
/// ## The loop and its timing rules
///
/// ```
///      ┌──────────────────────────────────────────────────────────────────────────┐
///      ▼                                                                          │
///  poll(signal pipe, wake connection, main queue, X socket; timeout = deadline)   │
///      │  deadlines: scene timers (a kiosk's too) · replay events ·               │
///      │             frame pacing · completion timeout · buffer shrink ·         │
///      │             watchdog ping · a touch frame held for its device (≤ 4 ms)  │
///      │  a dead drag batched: the pipe, wake connection, main queue, ≤ 100 ms   │
///      ▼                                                                          │
///  read until empty → decode every event → feed the batch (touch frames) ─────▶  │
///  run the main queue (main-actor tasks, DispatchQueue.main), run due timers      │
///      ▼                                                                          │
///  something to draw? ── no ──────────────────────────────────────────────────────┤
///      │ yes                                                                      │
///  frame in flight (not yet processed)? ── yes: a reply or an event will tell ────┤
///  pacer: no vertical blank since the last frame (Present), or less than an      │
///         interval (deadline)? ── yes: CompleteNotify or the deadline will tell ──┤
///      ▼                                                                          │
///  draw the damaged rectangles, present them, flush ──────────────────────────────┘
/// ```
///
/// - **Input first.** Input is read and fed to the recognizers as it arrives: one `poll` wakes
///   the loop, the socket is read until it is empty (at most 8 ms of handling per turn), and
///   the moves of those reads reach the scene as one touch frame (UIKit's coalesced touches).
///   A run of motions of one pointer is applied as its last, so dead motion (hover, a drag no
///   recognizer wants) is dropped in the app, never left queued in the server. The fingers of
///   one touchscreen frame are one touch frame even when the server splits them over reads:
///   a frame that lacks a finger of its device that is down waits up to 4 ms for the rest
///   (`TouchFrameBuilder`, a deadline of this loop). Event times are the server's
///   (`ServerTimeMapper`), so recognition does not depend on when the loop ran.
/// - **A frame as soon as possible after input**, at most one per refresh interval: paced by
///   the Present extension's vertical blanks where there is a display with a refresh rate
///   (`FramePacer`), else by a deadline (`ShellOptions/maximumFrameRate` on Xvfb),
///   and at most one in flight: with MIT-SHM the next frame waits until the server has processed
///   the last one (`Presenter`). Only the damaged rectangles are drawn (`ShellScene/damage`) and uploaded.
/// - **A drag that draws nothing is batched.** After a wake-up that brought motion, drew
///   nothing, and left the scene with no live gesture (every recognizer that saw the touches has
///   failed), the socket is read again only after `ShellOptions/inputBatchInterval`: such
///   motion cannot change the picture, and a wake-up per motion is most of its cost. Meanwhile
///   a `WakeConnection` that hears every press, release, expose and resize (not motion) ends
///   the batch at once, so no input that could draw waits. Any frame, any live gesture, a
///   touch frame held for its device frame, a read cut at its budget, or no motion in the
///   batch ends the batching too. The batch only spaces the wake-ups: when it ends, the socket
///   is read until empty, so at any motion rate at most one batch of motion waits in the
///   server.
/// - **Swift concurrency runs in the loop.** The main dispatch queue's wake-up descriptor is
///   polled and the queue is run once per turn (`MainQueue`): main-actor tasks, `await
///   MainActor.run`, `Task.sleep` on the main actor, `DispatchQueue.main.async`/`asyncAfter`
///   and `DispatchSource`s on the main queue run within a turn of being due, as under
///   CoreFoundation's run loop. Their timers are dispatch's, so they never add a poll timeout.
/// - **Idle is zero.** With nothing pending the timeout is infinite.
///
/// Exit: ``run(scene:beforeExit:)`` returns 0 when the window is closed (WM_DELETE_WINDOW), a
/// quit key is pressed, SIGINT/SIGTERM/SIGHUP arrives (within one loop turn: the signal pipe is
/// always watched), or a replay ends with `exitWhenDone`. A kiosk differs: closes are refused,
/// only the admin exit returns 0, signals return 128 + the signal, SIGHUP calls ``onHangup``
/// (`X11Shell+Kiosk.swift`). A lost X connection prints one line
/// ("gestures: lost the X connection") and exits the process with status 1 at once.
@MainActor
public final class X11Shell {
    /// The scene ``run(scene:beforeExit:)`` drives.
    @exclusivity(unchecked) public internal(set) var scene: ShellScene!
    public let options: ShellOptions
    public let clock: MonotonicClock
    /// Pixels per point.
    public let scale: Double
    /// The scale and why it was chosen (`ScaleChoice`, GestureShellCore).
    public let scaleChoice: ScaleChoice
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
    /// Kiosk and monitor events for the operator log (see `X11Shell+Kiosk.swift`).
    public var onKioskEvent: ((ShellKioskEvent) -> Void)?
    /// SIGHUP: when set, called instead of ending the loop (a kiosk reloads its configuration).
    public var onHangup: (() -> Void)?
    /// Called when a replay started with `play(_:actions:exitWhenDone:)` is over (its last event and
    /// a second of tail); with `exitWhenDone` the shell then quits with status 0.
    public var onReplayFinished: (() -> Void)?
    /// Makes the window's icon (`_NET_WM_ICON`) when the first frame is up, unless
    /// `ShellOptions/icon` is set: the icon is then decoded off the way to the first frame.
    public var iconProvider: (() -> WindowIcon?)?
    /// Every key pressed and released (after the kiosk's admin keys and the simulated-finger
    /// modifier, which are the shell's); the key bindings (`KeyBindings`) still apply after it.
    public var onKey: ((KeyPress) -> Void)?
    /// Whether `q`, Ctrl+Q and Escape quit (the demo's keys; never in kiosk mode). Default true;
    /// a ``GestureWindow`` sets it false (a library app decides which keys quit).
    public var quitsOnKeys = true
    /// Called after each frame is presented, with the window pixels it drew (only these were
    /// drawn and uploaded; the whole window for a full frame).
    public var onFramePresented: (([PixelRect]) -> Void)?
    /// Called when a timed action of `play(_:actions:exitWhenDone:)` is due (its index).
    public var onReplayAction: ((Int) -> Void)?

    let x: XConnection
    let xid: xcb_window_t

    /// The input pipeline (`InputPipeline`): translator, frame builder, time mapping, batching.
    @exclusivity(unchecked) var input: InputPipeline

    @exclusivity(unchecked) var running = false
    var exitStatus: Int32 = 0
    /// The window (`WindowState`): its lifecycle, size and placement. The lifecycle is closed
    /// once ``run(scene:beforeExit:)`` has returned: the window is destroyed and the connection
    /// closed, so nothing may reach the server again (a second `run` traps with a message;
    /// ``writePNG(to:)`` returns false, `play(_:actions:exitWhenDone:)` does nothing).
    @exclusivity(unchecked) var windowState = WindowState()
    /// Drawing between frames (`DrawingState`): presenter, pacer, what to draw again.
    @exclusivity(unchecked) var drawing = DrawingState()
    /// A replay through the window (`Playback`).
    @exclusivity(unchecked) var playback = Playback()

    /// The kiosk's services (`KioskServices`): systemd notifier, window guard, placement check,
    /// RandR, screen saver, admin exit and its PIN pad.
    var kiosk: KioskServices

    /// Wakes the loop during a batched dead drag (nil without XInput 2).
    var wake: WakeConnection?
    /// Replies the loop awaits without waiting (`PendingReplies`).
    let replies = PendingReplies()
    /// The monitors read at run time (`X11Shell+MonitorRead.swift`).
    let monitorReader = MonitorReader()

    /// Opens the display and creates the window (not yet mapped: ``run(scene:beforeExit:)`` maps
    /// it). ``size`` is then the window's size in points: make the scene for it.
    public init(options: ShellOptions) throws(ShellError) {
        clock = MonotonicClock()
        self.options = options
        kiosk = KioskServices(options: options, watchdog: WatchdogNotifier.fromEnvironment())
        x = try XConnection(display: options.display)
        guard x.rootDepth == 24 || x.rootDepth == 32, x.imageByteOrderMatches else {
            throw .cannotCreateWindow("the screen's depth \(x.rootDepth) or byte order is not supported")
        }
        xid = x.newID()
        // RENDER's questions ride on the atoms' round trip and the next one (RenderBackdrop).
        RenderBackdrop.ask(options.serverResampling, x)
        x.intern(Self.atomNames)
        let renderAsked = RenderBackdrop.askFormats(options.serverResampling, x)
        scaleChoice = Self.chooseScale(x, option: options.scale, monitor: options.monitor)
        scale = scaleChoice.scale
        input = InputPipeline(translator: InputTranslator(simulateModifier: options.simulateModifier) { _ in .zero })
        input.translator.mirrorCenter = { [unowned self] p in self.scene?.mirrorCenter(for: p) ?? p }
        windowState.hasWindowManager = detectWindowManager()
        if options.fullscreen || options.kiosk { windowState.placement = try currentPlacement(strict: true) }
        createWindow()
        drawing.presenter = Presenter(connection: x, window: xid, depth: x.rootDepth, allowSHM: options.useSHM)
        drawing.render = renderAsked.flatMap { RenderBackdrop(connection: x, window: xid, asked: $0) }
        readKeyboardMap()
        let refresh = refreshRate()
        drawing.pacer = FramePacer(
            connection: x, window: xid, interval: 1 / (refresh ?? options.maximumFrameRate),
            usePresent: options.usePresent && refresh != nil)
        setUpInput()
        setUpKiosk()
    }

    // MARK: Public controls

    /// Plays `events` (times from the start of the playback) through the live window once its
    /// first frame is up (or now, if it is). With `exitWhenDone` the shell quits with status 0
    /// one second after the last event. `actions` (a trace's `set` lines: place among the
    /// events, time) are handed to ``onReplayAction`` by index when due.
    public func play(
        _ events: [InputEvent], actions: [(position: Int, timestamp: Double)] = [], exitWhenDone: Bool
    ) {
        play(ReplayEvents(events), actions: actions, exitWhenDone: exitWhenDone)
    }

    /// As `play(_:actions:exitWhenDone:)`, the events pulled from `source` as they are due
    /// (a trace streamed from disk).
    public func play(
        _ source: ReplayEvents, actions: [(position: Int, timestamp: Double)] = [], exitWhenDone: Bool
    ) {
        guard !windowState.lifecycle.isClosed else { return }
        let player = ReplayPlayer(source: source, actions: actions, idOffset: 1_000_000)
        playback.player = player
        playback.exitWhenDone = exitWhenDone
        playback.reported = false
        if windowState.lifecycle.isReady { player.begin(at: max(clock.now(), input.lastFed)) }
    }

    /// Asks the loop to end; ``run(scene:beforeExit:)`` returns `status`.
    public func quit(status: Int32 = 0) {
        exitStatus = status
        running = false
    }

    /// Writes a PNG of the window (see ``writePNG(to:)``) once the next frame is drawn — or at
    /// the next turn of the loop when nothing needs drawing.
    public func requestScreenshot(_ path: String) {
        drawing.pendingScreenshots.append(path)
    }

    /// Draws the current frame if anything changed and writes the window's picture (drawn
    /// whole, in pixels) as a PNG. False when there is no frame yet or cairo fails.
    public func writePNG(to path: String) -> Bool {
        guard !windowState.lifecycle.isClosed else { return false }
        // Not into a buffer the server may still be reading (a frame in flight).
        if windowState.lifecycle.hasBeenExposed && !drawing.presenter.isBusy
            && (frameWanted || !drawing.presenter.hasFrame)
        {
            drawFrame(now: clock.now())
        }
        guard drawing.presenter.hasFrame else { return false }
        return writeWindowPicture(to: path)
    }

    // MARK: Loop

    /// Maps the window and runs `scene` until a quit; returns the exit status (0). A lost X
    /// connection exits the process with status 1.
    /// `beforeExit` runs on a clean exit, while the window and its last frame still exist (for a
    /// final log line or screenshot).
    /// A shell runs once: its connection is closed when `run` returns.
    public func run(scene: ShellScene, beforeExit: (() -> Void)? = nil) -> Int32 {
        precondition(
            !windowState.lifecycle.isClosed, "X11Shell.run: this shell has already run (its X connection is closed)")
        self.scene = scene
        let signals = SignalPipe.install()
        scene.resize(to: size, at: 0)
        xcb_map_window(x.raw, xid)
        windowState.lifecycle.mapRequested()
        x.flush()
        running = true
        // The signal pipe, the wake connection (a negative fd is skipped), the main queue, then
        // the connection: while a dead drag is batched, only the first three are watched.
        let mainQueue = MainQueue()
        var fds = [
            pollfd(fd: signals.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: mainQueue.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: x.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var readable = true
        var woken = false
        var stashed: UnsafeMutablePointer<xcb_generic_event_t>?
        while running {
            input.motionSeen = false
            drainEvents(first: stashed, read: readable)
            stashed = nil
            guard running else { break }
            // Main-actor tasks, main-queue blocks and their timers, once per turn (they may
            // change what is drawn, or quit).
            mainQueue.drain()
            guard running else { break }
            let now = clock.now()
            runTimers(now: now)
            guard running else { break }
            drawing.presenter.expireCompletion(now: now)
            drawing.presenter.shrinkIfIdle(now: now)
            let drew = drawIfNeeded(now: now)
            // A frame waits for the last one to be processed: make sure something will tell.
            // A grown buffer waits for the last frame's confirmation to shrink: ask for it then.
            if drawing.presenter.isBusy
                && (frameWanted || drawing.presenter.confirmDeadline.map { now >= $0 } == true)
            {
                drawing.presenter.requestSync(now: now)
            }
            kiosk.watchdog?.pingIfDue(now: now)
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
            // After the wake connection ended a batch, the next wait is on the X connection too:
            // what woke it may reach the X connection a moment later.
            // (The hold is read each turn: the wake connection opens after the first frame.)
            let hold = batchHold
            let batching =
                input.motionSeen && !drew && !frameWanted && !woken && hold > 0 && !scene.hasLiveGestures
                && input.frames.holdDeadline == nil && !input.readCut
            if batching {
                let ms = Int32((hold * 1000).rounded(.up))
                timeout = timeout < 0 ? ms : min(timeout, ms)
            }
            fds[1].fd = wake?.fileDescriptor ?? -1
            for i in fds.indices { fds[i].revents = 0 }
            let n = poll(&fds, batching ? 3 : 4, timeout)
            if n < 0 && errno != EINTR { break }
            woken = fds[1].revents != 0
            if woken { wake?.drain() }
            readable = batching || fds[3].revents & Int16(POLLIN) != 0
            if fds[3].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The server went away: the read notices and exits with status 1.
                _ = x.nextEvent(read: true)
                XConnection.lost()
            }
            if fds[0].revents & Int16(POLLIN) != 0, let signal = signals.take() {
                handleSignal(signal)
            }
        }
        free(stashed)
        kiosk.watchdog?.stopping()
        beforeExit?()
        tearDown()
        signals.uninstall()
        return exitStatus
    }

    private func tearDown() {
        let windowExists = windowState.lifecycle.windowExists
        windowState.lifecycle.close()
        wake?.close()
        wake = nil
        drawing.presenter.close()
        drawing.render?.close()
        suspendScreenSaver(false)
        if windowExists { xcb_destroy_window(x.raw, xid) }
        // A server that stopped processing requests may have stopped reading too: a flush could
        // wait for it forever. Closing the connection frees everything of ours on the server.
        if !drawing.presenter.isStalled { _ = xcb_flush(x.raw) }
        x.close()
    }

    /// Whether something is waiting to be drawn.
    var frameWanted: Bool {
        guard windowState.lifecycle.hasBeenExposed else { return false }
        return drawing.forceRedraw || drawing.exposedRect != nil || scene.needsDisplay
            || currentOverlay != drawing.drawnOverlay
    }

    var currentOverlay: [Point] {
        input.translator.modifierHeld || !drawing.drawnOverlay.isEmpty ? input.translator.overlay : []
    }

    /// Feeds one input event to the scene (applying a pending resize first; its time as
    /// `InputPipeline/stamp(_:)` makes it).
    func feed(_ event: InputEvent, real: Bool) {
        applyPendingResize()
        if real { noteRealInput(at: event.timestamp) }
        var event = event
        if real, kiosk.admin != nil, case .touches(let frame) = event {
            // The admin gestures watch real touches; the PIN pad takes the ones that begin on it.
            guard let rest = adminTouches(frame) else { return }
            event = .touches(rest)
        }
        deliver(event)
    }

    func deliver(_ event: InputEvent) {
        let event = input.stamp(event)
        onInput?(event)
        scene.handle(event)
    }

    func applyPendingResize() {
        guard let p = windowState.pendingPixelSize else { return }
        windowState.pendingPixelSize = nil
        guard p.width != windowState.pixelSize.width || p.height != windowState.pixelSize.height else { return }
        windowState.pixelSize = p
        size = pointSize(width: p.width, height: p.height)
        let t = max(clock.now(), input.lastFed)
        input.lastFed = t
        scene.resize(to: size, at: t)
        drawing.forceRedraw = true
    }
}
