import GestureKit
import GestureShellCore
import GestureTrace
import GestureX11
import GesturesDemo

#if canImport(Glibc)
    import Glibc
#endif

/// The kiosk settings SIGHUP reloads: the picture, the delays and the tour. They come from the
/// command line, then from `--kiosk-config FILE` when given (its values win), read again on
/// every SIGHUP, starting from the command line's values each time. The file's syntax (comments,
/// line ends, paths relative to its folder): ``KioskConfigFile``.
struct KioskSettings: Equatable {
    var image: String?
    var resetAfter: Double
    var tourAfter: Double
    var tour: String?

    /// `base` with the values of `file`.
    func reading(_ file: String) throws(CommandFailure) -> KioskSettings {
        let bytes: [UInt8]
        do {
            bytes = try TraceReader.readFile(file)
        } catch {
            throw .usage("--kiosk-config: \(error.description)")
        }
        let config: KioskConfigFile
        do {
            config = try KioskConfigFile(bytes: bytes, path: file)
        } catch {
            throw .usage(error.description)
        }
        var s = self
        s.image = config.image ?? s.image
        s.tour = config.tour ?? s.tour
        s.resetAfter = config.resetAfter ?? s.resetAfter
        s.tourAfter = config.tourAfter ?? s.tourAfter
        return s
    }

    /// The tour's trace (streamed: checked whole now, read again from disk on every play) and
    /// viewport: the given trace, else the bundled one (one warning when it is missing: no tour).
    func loadTour() throws(CommandFailure) -> (trace: TraceStream?, viewport: Size?) {
        var trace: TraceStream?
        if let tour {
            do {
                trace = try TraceReader.stream(path: tour, size: nil, device: nil)
            } catch {
                throw .usage(error.description)
            }
        } else {
            trace = ResourceLocator.path(of: "tour.jsonl").flatMap {
                try? TraceReader.stream(path: $0, size: nil, device: nil)
            }
            if trace == nil {
                writeAll(2, "gestures: warning: the bundled tour (tour.jsonl) is missing; kiosk mode plays no tour\n")
            }
        }
        // A tour with a viewport line is mapped to the window's size when it plays (the bundled
        // one is made for 1024×768 and the kiosk is full screen); one without plays as written.
        return (trace, trace?.viewportFromTrace == true ? trace?.viewport : nil)
    }
}

/// A streamed trace that changed since it was checked: its error, one line on stderr.
func reportReplayError(_ error: TraceError) { writeAll(2, "gestures: \(error.description)\n") }

/// The running kiosk around the demo scene: the director's settings, SIGHUP reloads (all or
/// nothing: a picture, tour or file that cannot be read leaves everything as it was, with one
/// line on stderr and a `reloadFailed` log line), and the operator log.
///
/// Operator log (kiosk mode with `--log-events`): every line also carries `"wall"`, the UTC
/// wall-clock time (`2026-11-24T23:40:00.123Z`), and gesture lines `"source"`, `"visitor"` or
/// `"tour"`; both are added at the end, the docs/DESIGN.md §4.2 fields stay as they are. (Outside kiosk
/// mode the live log stays byte-identical to `gestures replay`'s, so neither is added.) Kiosk
/// events are lines of their own: `{"type":"kiosk","t":…,"event":E,…,"wall":…}` with E one of
/// `reset`, `tourStart`, `tourEnd`, `tourStop`, `closeRefused` (`request`), `adminPin` (the PIN
/// pad is up), `adminRefused` (`reason`: `wrongPin` with `misses` and `lockedFor`, `cancelled`,
/// `noPin`, `locked` with `remaining` seconds), `adminExit`, `monitor` (`name`, `geometry`, `index`), `monitorMissing`,
/// `monitorElsewhere` (`wanted`, `window`, `on`, `setting`: the compositor left the window on another
/// output, with a stderr line naming its setting), `reload`, `reloadFailed` (`reason`), `logReopened`, and `start` (`version`, `pid`: the
/// first line of each run, the log being appended to) and `logDropped` (`lines`: how many lines
/// were lost while the file could not be written; see ``LineSink``), `screenOn` and
/// `blankingUncontrolled` (see ``inhibitIdle()``), and for the PIN backoff kept across restarts
/// `adminLockout` (`misses`, `remaining`: taken up at start), `adminLockoutLost` (`reason`: the
/// state file was unusable, the count starts again), `adminLockoutNotSaved` (`reason`) and
/// `adminLockoutInMemory` (see ``takeUp(_:found:)``).
@MainActor
final class KioskRuntime {
    let director: KioskDirector
    let shell: X11Shell
    let log: LineSink?
    let operatorLog: OperatorLog
    let base: KioskSettings
    let configFile: String?
    private(set) var settings: KioskSettings
    /// Where the PIN backoff is kept across restarts (nil: in memory only; see
    /// ``takeUp(_:found:)``).
    var pinLockout: PinLockoutFile?
    /// A new demo scene for a picture, hooked up as the first one was.
    let makeScene: (DemoImage?) -> DemoScene

    init(
        director: KioskDirector, shell: X11Shell, log: LineSink?, operatorLog: OperatorLog, base: KioskSettings,
        configFile: String?,
        settings: KioskSettings, tour: (trace: TraceStream?, viewport: Size?),
        makeScene: @escaping (DemoImage?) -> DemoScene
    ) {
        self.director = director
        self.shell = shell
        self.log = log
        self.operatorLog = operatorLog
        operatorLog.tourDrivesInput = { [unowned director] in director.tourDrivesInput }
        self.base = base
        self.configFile = configFile
        self.settings = settings
        self.makeScene = makeScene
        apply(settings, tour: tour)
        director.onEvent = { [unowned self] event, t in self.logEvent(event, at: t) }
        shell.onKioskEvent = { [unowned self] e in self.shellEvent(e) }
        shell.onHangup = { [unowned self] in self.hangup() }
    }

    private func apply(_ s: KioskSettings, tour: (trace: TraceStream?, viewport: Size?)) {
        director.resetDelay = s.resetAfter
        director.tourDelay = s.tourAfter
        let (trace, viewport) = tour
        // A tour without events is no tour.
        let playable = trace.flatMap { $0.makeReader().next() == nil ? nil : $0 }
        director.tour = playable.map { trace in
            { size in replayEvents(trace, from: viewport, to: size, onError: reportReplayError) }
        }
        settings = s
    }

    /// SIGHUP: reopen the log (logrotate), then reload the settings.
    func hangup() {
        if let log, log.reopen() { logEvent("logReopened", at: shell.clock.now()) }
        let now = shell.clock.now()
        do throws(CommandFailure) {
            let s = try configFile.map { f throws(CommandFailure) in try base.reading(f) } ?? base
            // The picture is read again even from the same path (it may have been replaced).
            let picture = try loadPicture(explicit: s.image, needed: true)
            let tour = try s.loadTour()
            apply(s, tour: tour)
            director.replace(scene: makeScene(picture), at: now)
            shell.redrawAll()
            logEvent("reload", at: now)
        } catch {
            // The message quotes paths and file contents: escaped and cut (MessageText).
            let reason = MessageText.line(error.message)
            writeAll(2, "gestures: reload: \(reason); the kiosk keeps its settings\n")
            logEvent("reloadFailed", at: now) { $0.add("reason", reason) }
        }
    }

    private func shellEvent(_ e: ShellKioskEvent) {
        let now = shell.clock.now()
        switch e {
        case .closeRefused(let what): logEvent("closeRefused", at: now) { $0.add("request", what) }
        case .admin(.pinRequested): logEvent("adminPin", at: now)
        case .admin(.pinRejected(let misses, let lockedFor)):
            savePinLockout { $0.state(misses: misses, lockedFor: lockedFor) }
            logEvent("adminRefused", at: now) {
                $0.add("reason", "wrongPin")
                $0.add("misses", misses)
                $0.add("lockedFor", lockedFor)
            }
        case .admin(.pinCancelled): logEvent("adminRefused", at: now) { $0.add("reason", "cancelled") }
        case .admin(.noPIN): logEvent("adminRefused", at: now) { $0.add("reason", "noPin") }
        case .admin(.lockedOut(let remaining)):
            logEvent("adminRefused", at: now) {
                $0.add("reason", "locked")
                $0.add("remaining", quantize(remaining))
            }
        case .admin(.exit):
            savePinLockout { _ in PinLockout(misses: 0, lockedUntil: 0) }
            logEvent("adminExit", at: now)
        case .monitorMissing(let name): logEvent("monitorMissing", at: now) { $0.add("name", name) }
        case .placedElsewhere(let wanted, let window, let on):
            let setting = Self.placementSetting
            writeAll(
                2,
                MessageText.line(
                    "gestures: warning: kiosk: the compositor put the window at \(window)"
                        + (on.map { " (\($0))" } ?? "") + ", not on \(wanted.name) \(wanted.geometry): "
                        + "an X client cannot choose its output there; \(setting)") + "\n")
            logEvent("monitorElsewhere", at: now) {
                $0.add("wanted", wanted.name)
                $0.add("window", window)
                if let on { $0.add("on", on) }
                $0.add("setting", setting)
            }
        case .restored(let reason): logEvent("restored", at: now) { $0.add("reason", reason) }
        case .placed(let m, let index):
            logEvent("monitor", at: now) {
                $0.add("name", m.name)
                $0.add("geometry", m.geometry)
                if let index { $0.add("index", index) }
            }
        }
    }

    /// The X server cannot hold the screen on: asks the session bus (``IdleInhibitor``), logging
    /// `screenOn` (`service`, `ms`); where nothing can, says once on stderr and in the log
    /// (`blankingUncontrolled`: `missing` controls, `reason`, `setting`) which setting will blank
    /// the screen.
    func inhibitIdle() -> IdleInhibitor? {
        let now = shell.clock.now()
        do throws(InhibitFailure) {
            let inhibitor = try IdleInhibitor(
                app: "Gestures", reason: "kiosk: the exhibit's screen stays on", window: 0)
            logEvent("screenOn", at: now) {
                $0.add("service", inhibitor.service)
                $0.add("ms", (inhibitor.seconds * 1e4).rounded() / 10)
            }
            return inhibitor
        } catch {
            let (server, wm) = shell.serverAndWindowManager()
            let setting = Self.blankingSetting(xwayland: server == "Xwayland", windowManager: wm)
            let missing =
                "MIT-SCREEN-SAVER 1.1 suspend, org.freedesktop.ScreenSaver.Inhibit, org.gnome.SessionManager.Inhibit"
            writeAll(
                2,
                MessageText.line(
                    "gestures: warning: kiosk: nothing holds the screen on (no \(missing): \(error.why)); "
                        + "\(setting) will blank it") + "\n")
            logEvent("blankingUncontrolled", at: now) {
                $0.add("missing", missing)
                $0.add("reason", MessageText.line(error.why))
                $0.add("setting", setting)
            }
            return nil
        }
    }

    /// The compositor setting that puts the kiosk's window on an output, for a compositor that
    /// places X windows itself (sway and other wlroots compositors; see X11Shell's
    /// `PlacementCheck`): the Wayland output's name is the compositor's (`HEADLESS-2`, `HDMI-A-1`),
    /// not Xwayland's `XWAYLANDn`.
    static let placementSetting =
        "tell the compositor: sway: `for_window [class=\"^Gestures$\"] move container to output NAME` "
        + "(or `assign [class=\"^Gestures$\"] output NAME`) in its config, NAME from `swaymsg -t get_outputs`; "
        + "cage: `-m last` with that output last; others: their window rule for class Gestures"

    /// The setting that will blank the screen when nothing inhibits idle: under a Wayland
    /// compositor (rootless Xwayland) its idle timer, named where the compositor can be told;
    /// on X the server's saver and DPMS timeouts. Under Xwayland (`xwayland`) the compositor is
    /// named from the environment, else from its X window manager (`Weston WM`; `wlroots wm`:
    /// sway, cage, labwc and the other wlroots compositors), since `xset` does nothing there.
    static func blankingSetting(xwayland: Bool = false, windowManager: String? = nil) -> String {
        func env(_ name: String) -> String? {
            getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let desktop = (env("XDG_CURRENT_DESKTOP") ?? "").lowercased()
        if env("SWAYSOCK") != nil || desktop.contains("sway") {
            return "sway's idle timer (swayidle's timeout, or `output * dpms off` in its config)"
        }
        if env("LABWC_PID") != nil || desktop.contains("labwc") {
            return "labwc's idle daemon (swayidle's timeout in labwc's autostart)"
        }
        if desktop.contains("weston") || (xwayland && windowManager == "Weston WM") {
            return "weston's idle time (--idle-time, or idle-time= in weston.ini; 0 turns it off)"
        }
        if xwayland && windowManager == "wlroots wm" {
            return "the wlroots compositor's idle daemon (swayidle's timeout under sway, cage or labwc)"
        }
        if env("WAYLAND_DISPLAY") != nil || xwayland {
            return "the Wayland compositor's idle timer (swayidle's timeout; weston's --idle-time; labwc's swayidle)"
        }
        return "the X server's saver and DPMS timeouts (xset s, xset dpms; the saver is reset, DPMS may not be)"
    }

    func logEvent(_ event: String, at t: Double, _ extra: (inout JSONLine) -> Void = { _ in }) {
        guard let log else { return }
        var line = JSONLine()
        line.add("type", "kiosk")
        line.add("t", quantize(t))
        line.add("event", event)
        extra(&line)
        log.write(decorate(line.text))
    }

    func decorate(_ line: String) -> String { operatorLog.decorate(line) }
}

/// The operator log's extra fields (see ``KioskRuntime``): made before the scene, so that its
/// first layout line carries them too.
@MainActor
final class OperatorLog {
    /// Whether the tour drives the scene's input now (set once the director exists).
    var tourDrivesInput: () -> Bool = { false }

    /// The start line that marks each run in the appended log —
    /// `{"type":"kiosk","t":0,"event":"start","version":…,"pid":…,"wall":…}` — and the line that
    /// says how many lines a full disk or an unwritable file cost (`logDropped`, `lines`).
    func start(_ log: LineSink, version: String) {
        var line = JSONLine()
        line.add("type", "kiosk")
        line.add("t", 0.0)
        line.add("event", "start")
        line.add("version", version)
        line.add("pid", Int(getpid()))
        log.write(decorate(line.text))
        log.resumeLine = { [unowned self] count in
            var line = JSONLine()
            line.add("type", "kiosk")
            line.add("t", quantize(self.clock.now()))
            line.add("event", "logDropped")
            line.add("lines", count)
            return self.decorate(line.text)
        }
    }

    /// Seconds since the log opened (the `logDropped` line's `t`; the shell's clock starts a
    /// moment later).
    let clock = MonotonicClock()

    /// A log line with `"wall"` (and for gesture lines `"source"`) added at its end.
    func decorate(_ line: String) -> String {
        guard line.hasSuffix("}") else { return line }
        var extra = #","wall":""# + wallClock() + "\""
        if line.hasPrefix(#"{"type":"gesture""#) {
            extra += tourDrivesInput() ? #","source":"tour""# : #","source":"visitor""#
        }
        return String(line.dropLast()) + extra + "}"
    }
}

/// The UTC wall-clock time, ISO 8601 with milliseconds: `2026-11-24T23:40:00.123Z`.
func wallClock() -> String {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    var t = ts.tv_sec
    var parts = tm()
    gmtime_r(&t, &parts)
    func pad(_ v: Int32, _ n: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, n - s.count)) + s
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
        + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(ts.tv_nsec / 1_000_000), 3))Z"
}
