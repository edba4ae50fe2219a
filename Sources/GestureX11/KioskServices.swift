import GestureKit
import GestureShellCore

/// The kiosk's services, as the shell holds them between turns of the loop (docs/DESIGN.md §2,
/// §7): what keeps a kiosk running, on screen and on its monitor, and the way out for its
/// administrator. `X11Shell` holds one as `kiosk`; the `X11Shell+Kiosk*.swift`,
/// `X11Shell+PlacementCheck.swift` and `X11Shell+Monitors.swift` parts speak to the server for
/// it. It owns:
///
/// - the systemd notifier (`WatchdogNotifier`: ready, watchdog pings, reload, stopping — any
///   `gestures run` under a service manager, a kiosk's unit above all);
/// - the window guard under a window manager (`KioskGuardState`) and the check of the monitor
///   the window manager put the window on (`PlacementCheck`);
/// - RandR's event base, so that monitor changes are told from other events;
/// - how the screen is kept on (`ScreenSaverHold`: suspended, reset periodically, or left alone);
/// - the admin exit (`AdminExit`, the chord and the PIN), its touch gestures (`CornerPress`,
///   `CornerTaps`) and the touches that began on the PIN pad.
///
/// Grouped because only the kiosk (and `--fullscreen`, for the monitor parts) needs them, and a
/// newcomer finds them in one place. The decisions that need no server are made here, so they
/// are tested without one: which touches the PIN pad takes and which reach the scene, which key
/// the admin exit takes, when an admin gesture completes, when the screen saver is due for a
/// reset. The shell carries out what they ask (``AdminAction``): the log line, the pad drawn,
/// the exit.
@MainActor
struct KioskServices {
    /// What the shell does after the admin exit moved, in order.
    enum AdminAction: Equatable {
        /// Report an outcome (the operator log, one stderr line; `.exit` ends the loop with 0).
        case outcome(AdminExit.Outcome)
        /// Show the PIN pad as the admin exit has it now (or hide it).
        case showPad
    }

    /// How the screen is kept on while the kiosk runs (see `X11Shell+Kiosk.swift`).
    enum ScreenSaverHold: Equatable {
        /// Left alone: not a kiosk, `--allow-blanking`, or released at exit.
        case untouched
        /// MIT-SCREEN-SAVER 1.1 `Suspend` holds it (released at exit).
        case suspended
        /// Reset at half its timeout (a server without `Suspend`).
        case resetting(ScreenSaverReset)
    }

    /// systemd's notification socket (nil: not run by systemd with `Type=notify`).
    let watchdog: WatchdogNotifier?
    /// Whether the window manager put the window on its monitor (`X11Shell+PlacementCheck.swift`).
    var placementCheck = PlacementCheck()
    /// The kiosk under a window manager: restores, the keyboard grab (`X11Shell+KioskGuard.swift`).
    var windowGuard = KioskGuardState()
    /// The first RandR event code (0: no RandR; `X11Shell+Monitors.swift`).
    var randrEventBase: UInt8 = 0
    /// How the screen is kept on.
    var screenSaver = ScreenSaverHold.untouched
    /// The admin exit (nil: not a kiosk).
    var admin: AdminExit?
    /// Two fingers held in opposite corners (nil: not a kiosk, or `--admin-corners 0`).
    var corners: CornerPress?
    /// The four corners tapped in order (nil: not a kiosk).
    var cornerTaps: CornerTaps?
    /// Touches that began on the PIN pad: they never reach the scene, to their end.
    var padTouches: Set<Int> = []

    /// A kiosk's services gets the admin exit (``ShellOptions/adminExit``, else the default
    /// chord without a PIN) and its corner gestures; any other window only the watchdog.
    init(options: ShellOptions, watchdog: WatchdogNotifier?) {
        self.watchdog = watchdog
        guard options.kiosk else { return }
        admin = options.adminExit ?? (try? AdminExit())
        if options.adminCornerHold > 0 { corners = CornerPress(hold: options.adminCornerHold) }
        cornerTaps = CornerTaps()
    }

    // MARK: Admin exit

    /// A real touch frame in a window of `size` points: the admin gestures see it; while the PIN
    /// pad is up, touches that begin on it press its keys and go no further, to their end. The
    /// rest of the frame for the scene (nil: nothing left), and what the shell does.
    mutating func routeTouches(_ frame: TouchFrame, in size: Size) -> (scene: TouchFrame?, actions: [AdminAction]) {
        guard admin != nil else { return (frame, []) }
        var actions: [AdminAction] = []
        corners?.handle(frame, size: size)
        if cornerTaps?.handle(frame, size: size) == true, let outcome = admin!.gestureCompleted(at: frame.timestamp) {
            actions.append(.outcome(outcome))
        }
        guard admin!.asksForPIN || !padTouches.isEmpty else { return (frame, actions) }
        let layout = PinPad.layout(in: size)
        var rest = frame
        rest.changes = []
        for c in frame.changes {
            switch c.phase {
            case .began where admin!.asksForPIN:
                padTouches.insert(c.id)
                if let key = layout.key(at: c.location), let outcome = admin!.padPressed(key, at: frame.timestamp) {
                    actions.append(.outcome(outcome))
                } else {
                    actions.append(.showPad)
                }
            case .ended where padTouches.contains(c.id), .cancelled where padTouches.contains(c.id):
                padTouches.remove(c.id)
            default:
                if !padTouches.contains(c.id) { rest.changes.append(c) }
            }
        }
        return (rest.changes.isEmpty ? nil : rest, actions)
    }

    /// A key press or release (after the simulated-finger modifier): whether the admin exit took
    /// it (it then goes nowhere else), and what the shell does. While the PIN is asked for,
    /// every key is the pad's.
    mutating func adminKey(
        keysym: UInt, pressed: Bool, modifiers: UInt32, repeated: Bool, at t: Double
    ) -> (taken: Bool, actions: [AdminAction]) {
        guard admin != nil else { return (false, []) }
        guard pressed else {
            admin!.keyReleased(keysym: keysym)
            return (admin!.asksForPIN, [])
        }
        let asked = admin!.asksForPIN
        let (taken, outcome) = admin!.keyPressed(keysym: keysym, modifiers: modifiers, repeated: repeated, at: t)
        if let outcome { return (taken, [.outcome(outcome)]) }
        return (taken, asked ? [.showPad] : [])
    }

    /// The admin exit's timers at `now`: the chord's hold, the pad's timeout and lockout
    /// countdown, the corner hold.
    mutating func advanceAdmin(to now: Double) -> [AdminAction] {
        var actions: [AdminAction] = []
        if let d = admin?.deadline, now >= d {
            if let outcome = admin!.advance(to: now) {
                actions.append(.outcome(outcome))
            } else {
                actions.append(.showPad)
            }
        }
        if corners?.advance(to: now) == true, admin != nil, let outcome = admin!.gestureCompleted(at: now) {
            actions.append(.outcome(outcome))
        }
        return actions
    }

    /// The PIN pad as it is at `time` (nil: not up).
    func pad(at time: Double) -> PinPad? { admin?.pad(at: time) }

    // MARK: Timers and events

    /// The next time the admin exit, the corner hold, the saver reset or the watchdog's ping
    /// need the loop (nil: none). The window guard's and the placement check's are their own
    /// (`X11Shell.kioskGuardDeadline`, `PlacementCheck.due`).
    var deadline: Double? {
        [admin?.deadline, corners?.deadline, saverResetDeadline, watchdog?.nextPing].compactMap { $0 }.min()
    }

    /// Whether `type` is a RandR screen-change or notify event.
    func isRandREvent(_ type: UInt8) -> Bool {
        randrEventBase != 0 && (type == randrEventBase || type == randrEventBase &+ 1)
    }

    // MARK: Screen saver

    /// Whether the server holds the screen on (MIT-SCREEN-SAVER 1.1 `Suspend`).
    var saverSuspended: Bool { screenSaver == .suspended }

    /// The server granted `Suspend` (it has MIT-SCREEN-SAVER 1.1).
    mutating func saverSuspendGranted() {
        screenSaver = .suspended
    }

    /// The server has no `Suspend`: the saver is reset from `now` on.
    mutating func saverSuspendRefused(at now: Double) {
        screenSaver = .resetting(ScreenSaverReset(due: now))
    }

    /// Leaves the saver to the server again; true when a `Suspend` must be released.
    mutating func releaseSaver() -> Bool {
        defer { screenSaver = .untouched }
        return saverSuspended
    }

    /// When the next saver reset is due (nil: resets are not used).
    var saverResetDeadline: Double? {
        guard case .resetting(let r) = screenSaver else { return nil }
        return r.due
    }

    /// Whether a saver reset is due at `now`.
    func saverResetDue(at now: Double) -> Bool {
        saverResetDeadline.map { now >= $0 } ?? false
    }

    /// The GetScreenSaver sent with a reset whose reply has not been read (nil: none).
    var pendingSaverQuery: UInt32? {
        guard case .resetting(let r) = screenSaver else { return nil }
        return r.pendingQuery
    }

    /// A reset was sent at `now`, with the GetScreenSaver `query` (nil: none sent, one is
    /// awaited already).
    mutating func saverResetSent(at now: Double, query: UInt32?) {
        updateReset { $0.sent(at: now, query: query) }
    }

    /// The awaited GetScreenSaver reply came: the saver's `timeout` in seconds (nil: no value).
    mutating func saverReplied(timeout: UInt16?) {
        updateReset { $0.replied(timeout: timeout) }
    }

    private mutating func updateReset(_ change: (inout ScreenSaverReset) -> Void) {
        guard case .resetting(var r) = screenSaver else { return }
        change(&r)
        screenSaver = .resetting(r)
    }
}
