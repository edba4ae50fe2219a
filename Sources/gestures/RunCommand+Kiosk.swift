import GestureKit
import GestureTrace
import GestureX11
import GesturesDemo

#if canImport(Glibc)
    import Glibc
#endif

/// The kiosk settings SIGHUP reloads: the picture, the delays and the tour. They come from the
/// command line, then from `--kiosk-config FILE` when given (its values win), read again on
/// every SIGHUP, starting from the command line's values each time.
///
/// The file: `key = value` lines, `#` comments, blank lines; keys `image`, `reset-after`,
/// `tour-after`, `tour` (the options' names without `--` and `kiosk-`). A bad line is one
/// error naming `FILE:LINE` and what was expected.
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
        var s = self
        for (n, raw) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let here = "\(file):\(n + 1)"
            guard let eq = line.firstIndex(of: "=") else {
                throw .usage("\(here): expected key = value (image, reset-after, tour-after, tour)")
            }
            let key = String(line[..<eq].trimmingSpaces)
            let value = String(line[line.index(after: eq)...].trimmingSpaces)
            func seconds() throws(CommandFailure) -> Double {
                guard let v = Double(value), v.isFinite, v > 0 else {
                    throw .usage("\(here): \(key): expected a positive number of seconds, got \"\(value)\"")
                }
                return v
            }
            switch key {
            case "image": s.image = value
            case "tour": s.tour = value
            case "reset-after": s.resetAfter = try seconds()
            case "tour-after": s.tourAfter = try seconds()
            default: throw .usage("\(here): unknown key \"\(key)\" (expected image, reset-after, tour-after, tour)")
            }
        }
        return s
    }

    /// The tour's events and viewport: the given trace, else the bundled one (one warning when
    /// it is missing: no tour).
    func loadTour() throws(CommandFailure) -> (events: [InputEvent], viewport: Size?) {
        var trace: Trace?
        if let tour {
            do {
                trace = try TraceReader.read(path: tour, size: nil, device: nil)
            } catch {
                throw .usage(error.description)
            }
        } else {
            trace = ResourceLocator.path(of: "tour.jsonl").flatMap {
                try? TraceReader.read(path: $0, size: nil, device: nil)
            }
            if trace == nil {
                writeAll(2, "gestures: warning: the bundled tour (tour.jsonl) is missing; kiosk mode plays no tour\n")
            }
        }
        // A tour with a viewport line is mapped to the window's size when it plays (the bundled
        // one is made for 1024×768 and the kiosk is full screen); one without plays as written.
        return (trace?.events ?? [], trace?.viewportFromTrace == true ? trace?.viewport : nil)
    }
}

/// The running kiosk around the demo scene: the director's settings, SIGHUP reloads (all or
/// nothing: a picture, tour or file that cannot be read leaves everything as it was, with one
/// line on stderr and a `reloadFailed` log line), and the operator log.
///
/// Operator log (kiosk mode with `--log-events`): every line also carries `"wall"`, the UTC
/// wall-clock time (`2026-11-24T23:40:00.123Z`), and gesture lines `"source"`, `"visitor"` or
/// `"tour"`; both are added at the end, the docs/DESIGN.md §4.2 fields stay as they are. (Outside kiosk
/// mode the live log stays byte-identical to `gestures replay`'s, so neither is added.) Kiosk
/// events are lines of their own: `{"type":"kiosk","t":…,"event":E,…,"wall":…}` with E one of
/// `reset`, `tourStart`, `tourEnd`, `tourStop`, `closeRefused` (`request`), `adminPin`,
/// `adminRefused`, `adminExit`, `monitor` (`name`, `geometry`, `index`), `monitorMissing`,
/// `reload`, `reloadFailed` (`reason`), `logReopened`.
@MainActor
final class KioskRuntime {
    let director: KioskDirector
    let shell: X11Shell
    let log: LineSink?
    let operatorLog: OperatorLog
    let base: KioskSettings
    let configFile: String?
    private(set) var settings: KioskSettings
    /// A new demo scene for a picture, hooked up as the first one was.
    let makeScene: (DemoImage?) -> DemoScene

    init(
        director: KioskDirector, shell: X11Shell, log: LineSink?, operatorLog: OperatorLog, base: KioskSettings,
        configFile: String?,
        settings: KioskSettings, tour: (events: [InputEvent], viewport: Size?),
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

    private func apply(_ s: KioskSettings, tour: (events: [InputEvent], viewport: Size?)) {
        director.resetDelay = s.resetAfter
        director.tourDelay = s.tourAfter
        let (events, viewport) = tour
        director.tour =
            events.isEmpty ? nil : { size in viewport.map { Trace.scaled(events, from: $0, to: size) } ?? events }
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
            writeAll(2, "gestures: reload: \(error.message); the kiosk keeps its settings\n")
            logEvent("reloadFailed", at: now) { $0.add("reason", error.message) }
        }
    }

    private func shellEvent(_ e: ShellKioskEvent) {
        let now = shell.clock.now()
        switch e {
        case .closeRefused(let what): logEvent("closeRefused", at: now) { $0.add("request", what) }
        case .admin(.pinRequested): logEvent("adminPin", at: now)
        case .admin(.pinRejected): logEvent("adminRefused", at: now)
        case .admin(.exit): logEvent("adminExit", at: now)
        case .monitorMissing(let name): logEvent("monitorMissing", at: now) { $0.add("name", name) }
        case .placed(let m, let index):
            logEvent("monitor", at: now) {
                $0.add("name", m.name)
                $0.add("geometry", m.geometry)
                if let index { $0.add("index", index) }
            }
        }
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
