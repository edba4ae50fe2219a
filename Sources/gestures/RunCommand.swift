import ArgumentParser
import GestureKit
import GestureTrace
import GestureX11
import GesturesDemo

#if canImport(Glibc)
    import Glibc
#endif

extension SimulateModifier: ExpressibleByArgument {}
extension ServerResampling: ExpressibleByArgument {}

/// `gestures run` (the default command): the demo window on X11 (docs/DESIGN.md §4.4, §5).
///
/// For scripts and tests: with `--log-events`, the log (one line per write, flushed as it
/// happens) starts with the layout line, then a `ready` line once the first frame is on screen —
/// `{"type":"ready","t":…,"window":<X window id>,"width":…,"height":…,"scale":…,"xinput":2.4}` —
/// after which input reaches the window; it ends with the `final` line on every clean exit
/// (status 0). `--replay` starts at `ready`.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Open the demo window on $DISPLAY (the default command).",
        discussion: """
            Touch the coloured regions: tap, swipe, pinch, rotate; pan, pinch, rotate or long-press \
            the flower; pan from the left edge; Ctrl+Z or shaking the window shakes.
            Mouse: one finger. Hold the simulate modifier (Ctrl) at the press for a second finger \
            mirrored through the centre of the region (pinch, rotate); with Shift too it moves in \
            parallel (two-finger pan). Every extra master pointer (xinput create-master) is a finger. \
            The wheel or a touchpad's two-finger scroll over the flower pans it (Shift+wheel \
            sideways), Ctrl+wheel zooms it about the pointer; a double click sends it home.
            Exit status in kiosk mode: 0 only by the admin exit (hold the chord, then the PIN if set); \
            SIGTERM/SIGINT 128+signal; SIGHUP reloads --kiosk-config and reopens the log.
            """ + "\n" + keysLine)

    /// The key bindings as one line of the help (scripts/make-man splits it at the semicolons).
    static var keysLine: String {
        "Keys: " + KeyBindings.summary.map { "\($0.keys): \($0.action)" }.joined(separator: "; ") + "."
    }

    @Option(name: .long, help: ArgumentHelp("Window size in points.", valueName: "WxH"))
    var size: String?

    @Flag(name: .long, help: "Fullscreen (EWMH _NET_WM_STATE_FULLSCREEN).")
    var fullscreen = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Kiosk: fullscreen, hidden cursor, no quit keys, close requests refused, the screen kept on; "
                + "the flower resets and the tour plays after the delays below until someone touches. "
                + "Ends with 0 only by the admin exit; SIGTERM/SIGINT 128+signal; SIGHUP reloads."))
    var kiosk = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Fullscreen on this monitor (implies --fullscreen): a name, an index or primary, "
                + "as `gestures monitors` lists them (default: the whole X screen).",
            valueName: "NAME|INDEX|primary"))
    var monitor: String?

    @Option(
        name: .long, help: ArgumentHelp("The picture (PNG or JPEG); default: the bundled flower.", valueName: "PATH"))
    var image: String?

    @Flag(name: .long, help: "Draw every touch point.")
    var showTouches = false

    @Option(
        name: .long,
        help: ArgumentHelp("Write the event log to FILE, or - for stdout (each line flushed).", valueName: "FILE|-"))
    var logEvents: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Record the input as a JSONL trace that `gestures replay` reproduces.", valueName: "FILE"))
    var record: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The modifier that adds a simulated second finger: ctrl, alt or super.", valueName: "MOD"))
    var simulateModifier: SimulateModifier = .ctrl

    @Flag(name: .long, help: "The book's listing instead of accumulating transforms.")
    var classic = false

    @Option(name: .long, help: ArgumentHelp("Pixels per point (default: Xft.dpi / 96).", valueName: "S"))
    var scale: Double?

    @Option(
        name: .long,
        help: ArgumentHelp("Play a trace (JSONL or evemu) through the live window at its own pace.", valueName: "TRACE")
    )
    var replay: String?

    @Option(name: .long, help: ArgumentHelp("Evemu device description for --replay.", valueName: "DESC"))
    var device: String?

    @Flag(name: .long, help: "Quit (status 0) one second after the --replay trace's last event.")
    var exitAfterReplay = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write PNGs of the window: one after every recognized gesture, and final.png at exit.",
            valueName: "DIR"))
    var screenshotDir: String?

    @Option(name: .long, help: ArgumentHelp("The X display (default: $DISPLAY).", valueName: "NAME"))
    var display: String?

    @Flag(name: .long, help: ArgumentHelp("Use core X events only, as without XInput 2.", visibility: .hidden))
    var coreInput = false

    @Flag(name: .long, help: ArgumentHelp("Kiosk: reset the saver instead of suspending it.", visibility: .hidden))
    var saverResetOnly = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Who resamples a moving, enlarged picture: auto (the X server where a GPU renders for it), always (the X server), never (the app).",
            visibility: .hidden))
    /// For measuring both paths on one server (``ServerResampling``; docs/performance.md).
    var serverResampling = ServerResampling.auto

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Leave motion that cannot draw unread for up to N ms (0: never; presses and keys end it at once).",
            visibility: .hidden))
    /// Off by default: the socket is read whenever it is readable and dead motion is dropped in the
    /// app, so nothing ever queues in the X server behind it (a batch saves wake-ups, ~3 µs of CPU
    /// a motion, but leaves up to N ms of motion unread in the server). docs/DESIGN.md §Input.
    var inputBatchMs = 0.0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Kiosk: seconds between tries while the --log-events file cannot be written.", visibility: .hidden))
    var logRetrySeconds = 10.0

    @Option(name: .long, help: ArgumentHelp("Kiosk: seconds without input before the picture resets.", valueName: "S"))
    var kioskResetAfter = 60.0

    @Option(name: .long, help: ArgumentHelp("Kiosk: seconds without input before the tour plays.", valueName: "S"))
    var kioskTourAfter = 90.0

    @Option(
        name: .long,
        help: ArgumentHelp("Kiosk: the tour (JSONL or evemu trace; default: the bundled one).", valueName: "TRACE"))
    var kioskTour: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Kiosk: a file of image, reset-after, tour-after, tour (key = value) over the options; "
                + "read again on SIGHUP (default: none).",
            valueName: "FILE"))
    var kioskConfig: String?

    @Flag(name: .long, help: "Kiosk: let the screen saver and DPMS blank the screen (default: held off).")
    var allowBlanking = false

    @Option(
        name: .long,
        help: ArgumentHelp("Kiosk: the admin exit's key chord, held for --admin-hold seconds.", valueName: "CHORD"))
    var adminChord = "ctrl+alt+shift+q"

    @Option(name: .long, help: ArgumentHelp("Kiosk: seconds the admin chord is held.", valueName: "S"))
    var adminHold = 2.0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Kiosk: seconds two fingers held in opposite corners at once exit as admin (0: off).", valueName: "S"))
    var adminCorners = 5.0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Kiosk: a file holding the admin PIN (4-12 digits; mode 0600 or 0400). Without a PIN "
                + "(this or $GESTURES_ADMIN_PIN) the admin gesture is only logged: the kiosk cannot be exited.",
            valueName: "FILE"))
    var adminPinFile: String?

    /// Refused: a PIN on the command line is visible to every local user (`ps`).
    @Option(name: .long, help: ArgumentHelp("Refused (use --admin-pin-file).", visibility: .private))
    var adminPin: String?

    /// Bad combinations and values are usage errors: one line, status 2. (ValidationError, which
    /// `Gestures.main` turns into that; a CommandFailure thrown here would reach it wrapped by
    /// ArgumentParser and come out as status 1.)
    func validate() throws {
        if let scale, !(scale.isFinite && scale > 0 && scale <= 8) {
            throw ValidationError("--scale: expected a number of pixels per point in (0, 8], got \(scale)")
        }
        if exitAfterReplay && replay == nil {
            throw ValidationError("--exit-after-replay needs --replay TRACE")
        }
        for (name, value) in [("--kiosk-reset-after", kioskResetAfter), ("--kiosk-tour-after", kioskTourAfter)]
        where !(value.isFinite && value > 0) {
            throw ValidationError("\(name): expected a positive number of seconds, got \(value)")
        }
        if !(adminCorners.isFinite && adminCorners >= 0 && adminCorners <= 60) {
            throw ValidationError("--admin-corners: expected 0…60 seconds, got \(adminCorners)")
        }
        if !(logRetrySeconds.isFinite && logRetrySeconds >= 0.1 && logRetrySeconds <= 3600) {
            throw ValidationError("--log-retry-seconds: expected 0.1…3600, got \(logRetrySeconds)")
        }
        if !(inputBatchMs.isFinite && inputBatchMs >= 0 && inputBatchMs <= 1000) {
            throw ValidationError("--input-batch-ms: expected 0…1000, got \(inputBatchMs)")
        }
        if device != nil && replay == nil {
            throw ValidationError("--device needs --replay TRACE")
        }
        if adminPin != nil {
            throw ValidationError(
                "--admin-pin: a PIN on the command line is visible to every local user (ps); put it in a file "
                    + "(--admin-pin-file FILE, mode 0600) or in GESTURES_ADMIN_PIN")
        }
        if !kiosk {
            let set: [(String, Bool)] = [
                ("--kiosk-config", kioskConfig != nil), ("--allow-blanking", allowBlanking),
                ("--admin-pin-file", adminPinFile != nil), ("--kiosk-tour", kioskTour != nil),
            ]
            if let (name, _) = set.first(where: \.1) { throw ValidationError("\(name) needs --kiosk") }
        }
    }

    func run() throws {
        let status = try MainActor.assumeIsolated { () throws(CommandFailure) -> Int32 in try runShell() }
        if status != 0 { throw ExitCode(status) }
    }

    @MainActor
    private func runShell() throws(CommandFailure) -> Int32 {
        let requestedSize = try parseSizeOption(size)
        // Inputs first: bad input is status 2 before any window shows.
        // Streamed (TraceStream): checked whole here, then read again from disk as it plays, so
        // memory stays small whatever the trace's length.
        var trace: TraceStream?
        if let replay {
            do {
                trace = try TraceReader.stream(path: replay, size: requestedSize, device: device)
            } catch {
                throw .usage(error.description)
            }
        }
        if let trace, !trace.actions.isEmpty {
            // An unknown recognizer or property in a `set` line: status 2 before any window.
            do throws(TraceError) {
                _ = try bind(trace.actions, to: DemoScene(size: trace.viewport))
            } catch {
                throw .usage(error.description)
            }
        }
        let kioskBase = KioskSettings(
            image: image, resetAfter: kioskResetAfter, tourAfter: kioskTourAfter, tour: kioskTour)
        let kioskSettings = try kioskConfig.map { f throws(CommandFailure) in try kioskBase.reading(f) } ?? kioskBase
        // The window's size in points as asked (its size in device pixels is known once connected).
        let asked =
            requestedSize ?? (trace?.viewportFromTrace == true ? trace?.viewport : nil) ?? ShellOptions.defaultSize
        // Loaded and decoding since the process started, when the guess was right (PicturePrefetch).
        let prefetched = PicturePrefetch.take(path: kioskSettings.image, size: asked)
        let picture = try prefetched != nil ? prefetched : loadPicture(explicit: kioskSettings.image, needed: true)
        let tour = kiosk ? try kioskSettings.loadTour() : (nil, nil)
        var adminExit: AdminExit?
        if kiosk {
            let pin =
                try adminPinFile.map(readPINFile)
                ?? getenv("GESTURES_ADMIN_PIN").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            do {
                adminExit = try AdminExit(chord: KeyChord(parsing: adminChord), hold: adminHold, pin: pin)
            } catch {
                throw .usage(error.description)
            }
        }
        // The kiosk's operator log is kept across starts and never ends the kiosk (LineSink).
        let log = try logEvents.map { path throws(CommandFailure) in
            try LineSink(
                path: path, what: "--log-events", append: kiosk, retryEvery: kiosk ? logRetrySeconds : nil)
        }
        let operatorLog = kiosk ? OperatorLog() : nil
        if let log, let operatorLog {
            operatorLog.start(log, version: Gestures.version)
        }
        // The PIN backoff survives restarts: taken up here, saved by the runtime after each try.
        let pinLockout = adminExit?.pin == nil ? nil : KioskRuntime.pinLockoutFile(operatorLog: logEvents)
        let lockoutFound = pinLockout.map { $0.load() }
        if let pinLockout, case .restored(let state) = lockoutFound {
            // At shell time 0: the shell's clock starts a moment later, so the lockout ends a
            // moment later than it was set to (never sooner).
            adminExit?.restore(misses: state.misses, lockedFor: pinLockout.remaining(of: state), at: 0)
        }
        let recorder = try record.map { path throws(CommandFailure) in try LineSink(path: path, what: "--record") }
        if let screenshotDir {
            var st = stat()
            if stat(screenshotDir, &st) != 0 && mkdir(screenshotDir, 0o755) != 0 {
                throw .usage("--screenshot-dir: cannot create \(screenshotDir)")
            }
        }

        var options = ShellOptions()
        options.display = display
        options.size = asked
        options.fullscreen = fullscreen || kiosk || monitor != nil
        options.kiosk = kiosk
        options.monitor = monitor.map(MonitorChoice.init)
        options.allowBlanking = allowBlanking
        options.useSaverSuspend = !saverResetOnly
        options.adminCornerHold = adminCorners
        options.adminExit = adminExit
        options.showTouches = showTouches
        options.simulateModifier = simulateModifier
        options.scale = scale
        options.useXInput2 = !coreInput
        options.inputBatchInterval = inputBatchMs / 1000
        options.serverResampling = serverResampling
        // The picture decodes while the connection is made (for the size asked for; prepared
        // again below only if the window's size in device pixels needs another decode).
        picture?.startDecoding(toFit: Int(asked.width), height: Int(asked.height))
        let shell: X11Shell
        do {
            shell = try X11Shell(options: options)
        } catch {
            if case .badInput(let why) = error { throw .usage(why) }
            throw .runtime(error.description)
        }

        // The window maps without waiting for a big JPEG's decode: its place stays empty until the
        // 1/8 preview or the window's decode is handed over. A replay and screenshots wait for
        // the window's decode, so what they draw does not depend on the decode's timing.
        try preparePicture(
            picture, width: shell.size.width * shell.scale, height: shell.size.height * shell.scale,
            preview: replay == nil && screenshotDir == nil)

        var shots = 0
        let screenshotDir = self.screenshotDir
        let classic = self.classic
        shell.iconProvider = {
            WindowIcon(pngs: ResourceLocator.windowIconSizes.compactMap { ResourceLocator.iconPath(size: $0) })
        }
        func makeScene(_ picture: DemoImage?) -> DemoScene {
            let scene = DemoScene(size: shell.size, image: picture, classic: classic)
            // The live window keeps the picture at its drawn size (replays and PNGs draw it exactly).
            scene.imageCache = ScaledImageCache()
            // Larger decodes run off the loop and redraw the picture when ready.
            picture?.onDecoded = { [weak scene] in scene?.pictureDecoded() }
            // A JPEG whose header was fine but whose decode fails is bad input all the same.
            picture?.onDecodeFailed = { failAndExit(.usage($0)) }
            // Only what is asked for listens: without --log-events no log line is ever formatted.
            if let log { scene.onLogLine = { log.write(operatorLog?.decorate($0) ?? $0) } }
            if let screenshotDir {
                scene.onTransition = { t in
                    guard t.state == .ended else { return }
                    shots += 1
                    shell.requestScreenshot(
                        screenshotDir + "/" + Self.twoDigits(shots) + "-" + t.recognizer.name + ".png")
                }
            }
            return scene
        }
        let scene = makeScene(picture)
        if let recorder {
            let writer = TraceWriter(sink: recorder)
            shell.onInput = { [unowned shell] event in writer.write(event, viewport: shell.size) }
        }
        shell.onReady = { ready in
            var line = JSONLine()
            line.add("type", "ready")
            line.add("t", ready.time)
            line.add("window", Int(ready.window))
            line.add("width", ready.size.width)
            line.add("height", ready.size.height)
            line.add("scale", ready.scale)
            line.add("xinput", ready.xinputVersion)
            line.add("batchMs", (ready.inputBatchInterval * 1000).rounded())
            line.add("pacing", ready.pacing)
            line.add("refreshHz", (1 / ready.frameInterval * 10).rounded() / 10)
            log?.write(operatorLog?.decorate(line.text) ?? line.text)
        }
        // Kiosk policy (idle reset, attract tour) is the demo's, around its scene.
        var driven: ShellScene = scene
        var director: KioskDirector?
        var runtime: KioskRuntime?
        if kiosk {
            let d = KioskDirector(scene: scene)
            runtime = KioskRuntime(
                director: d, shell: shell, log: log, operatorLog: operatorLog!, base: kioskBase,
                configFile: kioskConfig,
                settings: kioskSettings, tour: tour, makeScene: makeScene)
            director = d
            driven = d
            if adminExit?.pin != nil { runtime?.takeUp(pinLockout, found: lockoutFound) }
        }
        // Screen on where the X server cannot hold it (rootless Xwayland): the session bus, asked
        // once with the first frame — the loop then turns SIGTERM into a clean end, so the
        // inhibit is always released (asked before, a SIGTERM would kill the process with it).
        var inhibitor: IdleInhibitor?
        if kiosk && !allowBlanking && !shell.screenSaverSuspended, let runtime {
            let ready = shell.onReady
            shell.onReady = { r in
                ready?(r)
                inhibitor = runtime.inhibitIdle()
            }
        }
        if let trace {
            // The trace's `set` lines act on the demo's recognizers by name, as in `gestures replay`.
            let bound: [BoundAction]
            do throws(TraceError) {
                bound = try bind(trace.actions, to: scene)
            } catch {
                throw .usage(error.description)
            }
            shell.onReplayAction = { k in bound[k].applySettings() }
            shell.play(
                replayEvents(trace, onError: reportReplayError),
                actions: bound.map { ($0.action.position, $0.action.timestamp) },
                exitWhenDone: exitAfterReplay)
        }
        // Slow readers: what they have not taken is retried every turn of the loop.
        if log != nil || recorder != nil {
            shell.outputPending = {
                let a = log?.flush() ?? false
                let b = recorder?.flush() ?? false
                return a || b
            }
        }
        let status = shell.run(scene: driven) {
            if let dir = screenshotDir { _ = shell.writePNG(to: dir + "/final.png") }
            let final = (director?.scene ?? scene).finalLine()
            log?.write(operatorLog?.decorate(final) ?? final)
        }
        inhibitor?.release()
        withExtendedLifetime(runtime) {}  // the shell's kiosk callbacks hold it unowned
        log?.drain(seconds: 0.5)
        recorder?.drain(seconds: 0.5)
        return status
    }

    /// The PIN from `--admin-pin-file`: its first line, trimmed; the file must be readable by
    /// its owner alone (mode 0600 or 0400, no group or other bits), else status 2.
    private func readPINFile(_ path: String) throws(CommandFailure) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw .usage("--admin-pin-file: cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard st.st_mode & 0o077 == 0 else {
            throw .usage(
                "--admin-pin-file: \(path) is readable by others (mode \(String(st.st_mode & 0o777, radix: 8))); "
                    + "chmod 600 it")
        }
        let bytes: [UInt8]
        do {
            bytes = try TraceReader.readFile(path)
        } catch {
            throw .usage("--admin-pin-file: \(error.description)")
        }
        let first = String(decoding: bytes.prefix(256), as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        return String(first.trimmingSpaces)
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
