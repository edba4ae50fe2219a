import GestureKit

/// How the X11 shell opens its window (the `gestures run` options that concern the shell).
public struct ShellOptions: Sendable {
    /// The X display name; nil uses `$DISPLAY`.
    public var display: String?
    /// The window's size in points (default 1024×768, clamped to the screen).
    public var size: Size?
    /// Asks the window manager for EWMH fullscreen (`_NET_WM_STATE_FULLSCREEN`); without a window
    /// manager the window simply covers the screen.
    public var fullscreen = false
    /// Kiosk mode, as far as the window goes: fullscreen, hidden cursor, no quit keys. (The idle
    /// reset and the tour are the demo's policy: GesturesDemo's `KioskDirector`.)
    public var kiosk = false
    /// Draw every touch point.
    public var showTouches = false
    /// The modifier that adds a simulated second finger to a mouse drag.
    public var simulateModifier: SimulateModifier = .ctrl
    /// Pixels per point; nil reads `Xft.dpi` (dpi / 96) from the X resources, else 1.
    public var scale: Double?
    /// Use XInput 2 when the server has it (false: core pointer and key events only, as on a
    /// server without XInput 2 — for tests of that path).
    public var useXInput2 = true
    /// A drag that draws nothing (every recognizer that saw its touches has failed, nothing to
    /// redraw) is read in batches: after such a wake-up the shell reads the X connection again
    /// only this many seconds later (default 0.1 s). Such motion cannot change the picture, and
    /// a wake-up per motion is most of its cost. Any press, release, key, expose or resize
    /// (heard on a second, listen-only connection) ends the batch at once, as does any frame to
    /// draw or any live gesture. Without XInput 2 the batch is at most one 60 Hz frame (a
    /// press would wait for its end). 0 never batches.
    public var inputBatchInterval = 0.1
    /// The most frames per second when the server reports no refresh rate (Xvfb): one frame per
    /// refresh interval otherwise (RandR).
    public var maximumFrameRate = 240.0
    /// Pace frames by the Present extension's vertical blanks where there is a display with a
    /// refresh rate (false: by a deadline of one refresh interval, as on Xvfb).
    public var usePresent = true
    /// Present frames through MIT-SHM when the server offers it (false: PutImage only, as on a
    /// remote display — for tests of that path).
    public var useSHM = true
    /// Who resamples a moving, enlarged picture (``ServerBackdrop``): the X server through RENDER,
    /// or the client; by default the server only where it renders on a GPU (see
    /// ``ServerResampling/auto``).
    public var serverResampling = ServerResampling.auto
    /// The window title.
    public var title = "Gestures"
    /// With `fullscreen` or `kiosk`: the monitor the window covers (nil: the whole X screen).
    /// The window follows the monitor and the screen when they change (RandR notify events).
    public var monitor: MonitorChoice?
    /// Kiosk: let the screen saver and DPMS blank the screen (default: held off with
    /// MIT-SCREEN-SAVER's suspend while the kiosk runs).
    public var allowBlanking = false
    /// Kiosk: hold the saver off with MIT-SCREEN-SAVER suspend when the server has 1.1 (false:
    /// reset it periodically, as on a server without it — for tests of that path).
    public var useSaverSuspend = true
    /// Kiosk: seconds two fingers are held in opposite corners for the admin exit
    /// (`CornerPress`; 0: off).
    public var adminCornerHold = 5.0
    /// Kiosk: the admin exit (nil: the default chord, no PIN).
    public var adminExit: AdminExit?
    /// The window's icon (`_NET_WM_ICON`); nil sets none.
    public var icon: WindowIcon?

    public init() {}

    /// The default window size in points.
    public static let defaultSize = Size(width: 1024, height: 768)
}

/// Why the shell could not start.
public enum ShellError: Error, CustomStringConvertible, Sendable {
    case cannotOpenDisplay(String)
    case cannotCreateWindow(String)
    /// Bad input found only once connected (an unknown `--monitor`): exit status 2.
    case badInput(String)

    public var description: String {
        switch self {
        case .cannotOpenDisplay(let name): "cannot open display \(name.isEmpty ? "(DISPLAY is not set)" : name)"
        case .cannotCreateWindow(let why): "cannot create the window: \(why)"
        case .badInput(let why): why
        }
    }
}

/// What the shell reports once its first frame is on screen (`ready` in the event log).
public struct ShellReady: Sendable {
    /// The shell time of the first frame, seconds.
    public var time: Double
    /// The X window id.
    public var window: UInt
    /// The window's size in points.
    public var size: Size
    /// Pixels per point.
    public var scale: Double
    /// The XInput version in use (e.g. 2.4), or 0 when only core events are used.
    public var xinputVersion: Double
    /// The longest a dead drag is left unread, seconds (``ShellOptions/inputBatchInterval``, or
    /// at most one 60 Hz frame when nothing can wake the loop earlier: no XInput 2).
    public var inputBatchInterval: Double
    /// How frames are paced: "present" (the Present extension's vertical blanks) or
    /// "deadline" (one ``frameInterval`` apart).
    public var pacing: String
    /// One refresh interval, seconds.
    public var frameInterval: Double

    public init(
        time: Double, window: UInt, size: Size, scale: Double, xinputVersion: Double, inputBatchInterval: Double = 0,
        pacing: String = "deadline", frameInterval: Double = 0
    ) {
        self.pacing = pacing
        self.frameInterval = frameInterval
        self.time = time
        self.window = window
        self.size = size
        self.scale = scale
        self.xinputVersion = xinputVersion
        self.inputBatchInterval = inputBatchInterval
    }
}

/// The HiDPI scale (pixels per point) from an X resource database string: `Xft.dpi` / 96,
/// or nil when the string has no usable `Xft.dpi`. (GTK and Qt read the same resource.)
public func scaleFromXResources(_ resources: String) -> Double? {
    xftDPI(fromXResources: resources).map { min(max($0 / 96, 0.5), 8) }
}

/// The `Xft.dpi` value of an X resource database string, or nil when it has no usable one.
public func xftDPI(fromXResources resources: String) -> Double? {
    for line in resources.split(whereSeparator: { $0 == "\n" }) {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { continue }
        let key = parts[0].trimmingSpaces
        guard key == "Xft.dpi" else { continue }
        if let dpi = Double(parts[1].trimmingSpaces), dpi.isFinite, dpi > 0 { return dpi }
    }
    return nil
}

extension Substring {
    /// Without leading spaces and tabs, and trailing spaces, tabs and CRs (X resources, the
    /// kiosk configuration file).
    package var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return s
    }
}

/// What the shell tells a kiosk's operator log (`X11Shell.onKioskEvent`).
public enum ShellKioskEvent: Equatable, Sendable {
    /// A close request refused (`WM_DELETE_WINDOW`, `_NET_CLOSE_WINDOW`).
    case closeRefused(String)
    /// The admin exit: the PIN asked for, refused, or the exit itself.
    case admin(AdminExit.Outcome)
    /// The window was placed on `monitor` (its index in the server's list; nil: the whole
    /// screen), at start and after every monitor or screen change.
    case placed(Monitor, index: Int?)
    /// The chosen monitor is gone: the window covers the whole screen until it is back.
    case monitorMissing(String)
    /// The window manager left the window somewhere other than the monitor asked for
    /// (`wanted`) after the shell asked twice: `window` is the window's geometry
    /// (`1280x800+0+0`), `on` the monitor under its centre (nil: none). A compositor that
    /// places X windows itself (X11Shell's `PlacementCheck`).
    case placedElsewhere(wanted: Monitor, window: String, on: String?)
    /// The kiosk put its window back under a window manager (it was iconified, unmapped, moved
    /// to another desktop, covered, or lost the focus): the reasons seen since the last restore,
    /// e.g. "the window was unmapped (iconified or hidden)". One event per restore.
    case restored(String)
}
