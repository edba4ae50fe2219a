import ArgumentParser
import GestureKit
import GestureTrace
import GestureX11
import GesturesDemo

#if canImport(Glibc)
    import Glibc
#endif

extension SimulateModifier: ExpressibleByArgument {}

/// `gestures run` (the default command): the demo window on X11 (DESIGN.md §4.4, §5).
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
            parallel (two-finger pan). Every extra master pointer (xinput create-master) is a finger.
            Keys: + / - scale, [ / ] rotate, arrows move the flower, Ctrl+Z shake, F11 fullscreen, \
            q or Escape quit (not in kiosk mode).
            Exit status: 0 when closed, 1 no display or lost X connection, 2 bad usage or input.
            """)

    @Option(name: .long, help: ArgumentHelp("Window size in points.", valueName: "WxH"))
    var size: String?

    @Flag(name: .long, help: "Fullscreen (EWMH _NET_WM_STATE_FULLSCREEN).")
    var fullscreen = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Kiosk: fullscreen, hidden cursor, no quit keys; the flower resets after 60 s without input "
                + "and the bundled tour plays after 90 s until someone touches."))
    var kiosk = false

    @Option(name: .long, help: ArgumentHelp("The picture (PNG); default: the bundled flower.", valueName: "PATH"))
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

    @Option(name: .long, help: "The modifier that adds a simulated second finger: ctrl, alt or super.")
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

    @Option(
        name: .long,
        help: ArgumentHelp("Read the X connection at most every N ms during motion (0: at once).", visibility: .hidden))
    var inputBatchMs = 1000.0 / 60

    @Option(name: .long, help: ArgumentHelp("Kiosk: seconds without input before the reset.", visibility: .hidden))
    var kioskResetAfter = 60.0

    @Option(name: .long, help: ArgumentHelp("Kiosk: seconds without input before the tour.", visibility: .hidden))
    var kioskTourAfter = 90.0

    @Option(name: .long, help: ArgumentHelp("Kiosk: the tour instead of the bundled one.", visibility: .hidden))
    var kioskTour: String?

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
        if !(inputBatchMs.isFinite && inputBatchMs >= 0 && inputBatchMs <= 100) {
            throw ValidationError("--input-batch-ms: expected 0…100, got \(inputBatchMs)")
        }
        if device != nil && replay == nil {
            throw ValidationError("--device needs --replay TRACE")
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
        var trace: Trace?
        if let replay {
            do {
                trace = try TraceReader.read(path: replay, size: requestedSize, device: device)
            } catch {
                throw .usage(error.description)
            }
        }
        let picture = try loadPicture(explicit: image, needed: true)
        var tourTrace: Trace?
        if kiosk, let kioskTour {
            do {
                tourTrace = try TraceReader.read(path: kioskTour, size: nil, device: nil)
            } catch {
                throw .usage(error.description)
            }
        } else if kiosk {
            tourTrace = ResourceLocator.path(of: "tour.jsonl").flatMap {
                try? TraceReader.read(path: $0, size: nil, device: nil)
            }
            if tourTrace == nil {
                writeAll(2, "gestures: warning: the bundled tour (tour.jsonl) is missing; kiosk mode plays no tour\n")
            }
        }
        let tour = tourTrace?.events ?? []
        // A tour with a viewport line is mapped to the window's size when it plays (the bundled
        // one is made for 1024×768 and the kiosk is full screen); one without plays as written.
        let tourViewport = tourTrace?.viewportFromTrace == true ? tourTrace?.viewport : nil
        let log = try logEvents.map { path throws(CommandFailure) in try LineSink(path: path, what: "--log-events") }
        let recorder = try record.map { path throws(CommandFailure) in try LineSink(path: path, what: "--record") }
        if let screenshotDir {
            var st = stat()
            if stat(screenshotDir, &st) != 0 && mkdir(screenshotDir, 0o755) != 0 {
                throw .usage("--screenshot-dir: cannot create \(screenshotDir)")
            }
        }

        var options = ShellOptions()
        options.display = display
        options.size =
            requestedSize ?? (trace?.viewportFromTrace == true ? trace?.viewport : nil) ?? ShellOptions.defaultSize
        options.fullscreen = fullscreen || kiosk
        options.kiosk = kiosk
        options.showTouches = showTouches
        options.simulateModifier = simulateModifier
        options.scale = scale
        options.useXInput2 = !coreInput
        options.inputBatchInterval = inputBatchMs / 1000
        let shell: X11Shell
        do {
            shell = try X11Shell(options: options)
        } catch {
            throw .runtime(error.description)
        }

        let scene = DemoScene(size: shell.size, image: picture, classic: classic)
        // The live window keeps the picture at its drawn size (replays and PNGs draw it exactly).
        scene.imageCache = ScaledImageCache()
        var shots = 0
        let screenshotDir = self.screenshotDir
        // Only what is asked for listens: without --log-events no log line is ever formatted.
        if let log { scene.onLogLine = { log.write($0) } }
        if let screenshotDir {
            scene.onTransition = { t in
                guard t.state == .ended else { return }
                shots += 1
                shell.requestScreenshot(
                    screenshotDir + "/" + Self.twoDigits(shots) + "-" + t.recognizer.name + ".png")
            }
        }
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
            log?.write(line.text)
        }
        // Kiosk policy (idle reset, attract tour) is the demo's, around its scene.
        var driven: ShellScene = scene
        if kiosk {
            let director = KioskDirector(scene: scene)
            director.resetDelay = kioskResetAfter
            director.tourDelay = kioskTourAfter
            if !tour.isEmpty {
                director.tour = { size in
                    tourViewport.map { Trace.scaled(tour, from: $0, to: size) } ?? tour
                }
            }
            driven = director
        }
        if let trace { shell.play(trace.events, exitWhenDone: exitAfterReplay) }
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
            log?.write(scene.finalLine())
        }
        log?.drain(seconds: 0.5)
        recorder?.drain(seconds: 0.5)
        return status
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

/// A file, a pipe or stdout (`-`) that the live app writes lines to without ever waiting for it
/// (DESIGN §4.2: each line goes out as it happens). Writes are non-blocking; what a slow reader
/// has not taken yet waits in a buffer of at most ``limit`` bytes, retried every loop turn
/// (``flush()``). Ends the process with status 1 and one clear line when the reader is gone
/// (EPIPE), the disk is full (ENOSPC, EDQUOT), another error occurs, or the reader leaves a full
/// buffer unread; a regular file then ends on its last whole line (it is truncated there).
/// Opening a FIFO nobody reads does not block either: it is refused (status 2).
final class LineSink {
    private let fd: Int32
    private let what: String
    private let isRegularFile: Bool
    private var pending: [UInt8] = []
    /// Bytes of whole lines written so far (a regular file is cut back to this on failure).
    private var committed: Int64 = 0
    private var written: Int64 = 0
    /// The most bytes waiting for a slow reader before the app gives up on it.
    static let limit = 4 << 20

    init(path: String, what: String) throws(CommandFailure) {
        self.what = what
        if path == "-" {
            fd = 1
        } else {
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644)
            if fd < 0 {
                let why = errno == ENXIO ? "no process reads the FIFO" : String(cString: strerror(errno))
                throw .usage("\(what): cannot write \(path): \(why)")
            }
        }
        var st = stat()
        isRegularFile = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        // stdout may be a blocking pipe or terminal: make it non-blocking too (ours alone).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Queues `line` and writes what the reader takes now.
    func write(_ line: String) {
        pending.append(contentsOf: line.utf8)
        pending.append(10)
        _ = flush()
        if pending.count > Self.limit {
            fail("the reader took nothing of the last \(pending.count >> 20) MiB")
        }
    }

    /// Writes what it can without waiting; true when bytes are still pending.
    @discardableResult
    func flush() -> Bool {
        var offset = 0
        pending.withUnsafeBytes { buf in
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n >= 0 {
                    offset += n
                    continue
                }
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                let why = errno == EPIPE ? "the reader is gone" : String(cString: strerror(errno))
                written += Int64(offset)
                fail(why)
            }
        }
        written += Int64(offset)
        if offset > 0 {
            // Whole lines are out up to the last newline written.
            if let last = pending[..<offset].lastIndex(of: 10) {
                committed = written - Int64(offset - last - 1)
            }
            pending.removeFirst(offset)
        }
        return !pending.isEmpty
    }

    /// Waits up to `seconds` for a slow reader to take what is pending (at exit).
    func drain(seconds: Double) {
        let deadline = MonotonicClock.rawNanoseconds() + UInt64(seconds * 1e9)
        while flush() {
            let now = MonotonicClock.rawNanoseconds()
            guard now < deadline else {
                fail("the reader did not take the last \(pending.count) bytes within \(seconds) s")
            }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, Int32((deadline - now) / 1_000_000) + 1)
        }
    }

    private func fail(_ why: String) -> Never {
        if isRegularFile { _ = ftruncate(fd, off_t(committed)) }
        writeAll(2, "gestures: \(what): \(why); stopping\n")
        exit(1)
    }
}

/// Writes the input fed to the scene as a JSON Lines trace (DESIGN.md §4.1): the viewport line
/// first (the window's size in points at the first event), then one line per touch change,
/// touchpad pinch event, shake and wait, with the shell's times (seconds since launch, 6
/// decimals — the very values the scene saw, so `gestures replay` reproduces the live log).
/// Key commands other than Ctrl+Z are not input and are not recorded; a resize after the first
/// event is not recorded either (the trace has one viewport).
@MainActor
final class TraceWriter {
    private let sink: LineSink
    private var wroteViewport = false
    init(sink: LineSink) { self.sink = sink }

    func write(_ event: InputEvent, viewport: Size) {
        if !wroteViewport {
            wroteViewport = true
            var v = JSONLine()
            v.add("type", "viewport")
            v.add("width", viewport.width)
            v.add("height", viewport.height)
            sink.write(v.text)
        }
        switch event {
        case .touches(let frame):
            for c in frame.changes {
                var l = JSONLine()
                let type =
                    switch c.phase {
                    case .began: "down"
                    case .moved: "move"
                    case .ended: "up"
                    case .cancelled: "cancel"
                    }
                l.add("type", type)
                l.add("t", frame.timestamp)
                l.add("id", c.id)
                l.add("x", c.location.x)
                l.add("y", c.location.y)
                sink.write(l.text)
            }
        case .touchpadPinch(let p):
            var l = JSONLine()
            l.add("type", "pinch")
            l.add("t", p.timestamp)
            l.add("phase", p.phase.rawValue)
            l.add("x", p.location.x)
            l.add("y", p.location.y)
            l.add("scale", p.scale)
            l.add("angle", p.angleDelta)
            sink.write(l.text)
        case .scroll(let s):
            sink.write(scrollTraceLine(s))
        case .shake(let t):
            var l = JSONLine()
            l.add("type", "shake")
            l.add("t", t)
            sink.write(l.text)
        case .wait(let t):
            var l = JSONLine()
            l.add("type", "wait")
            l.add("t", t)
            sink.write(l.text)
        }
    }
}
