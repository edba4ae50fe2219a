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
    /// only this many seconds later (default: one 60 Hz frame). Such motion cannot change the
    /// picture, and a wake-up per motion is most of its cost. Any frame to draw or any live
    /// gesture reads at once. 0 never batches.
    public var inputBatchInterval = 1.0 / 60
    /// The most frames per second when the server reports no refresh rate (Xvfb): one frame per
    /// refresh interval otherwise (RandR).
    public var maximumFrameRate = 240.0
    /// Present frames through MIT-SHM when the server offers it (false: PutImage only, as on a
    /// remote display — for tests of that path).
    public var useSHM = true
    /// The window title.
    public var title = "Gestures"
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

    public var description: String {
        switch self {
        case .cannotOpenDisplay(let name): "cannot open display \(name.isEmpty ? "(DISPLAY is not set)" : name)"
        case .cannotCreateWindow(let why): "cannot create the window: \(why)"
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

    public init(time: Double, window: UInt, size: Size, scale: Double, xinputVersion: Double) {
        self.time = time
        self.window = window
        self.size = size
        self.scale = scale
        self.xinputVersion = xinputVersion
    }
}

/// The HiDPI scale (pixels per point) from an X resource database string: `Xft.dpi` / 96,
/// or nil when the string has no usable `Xft.dpi`. (GTK and Qt read the same resource.)
public func scaleFromXResources(_ resources: String) -> Double? {
    for line in resources.split(whereSeparator: { $0 == "\n" }) {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { continue }
        let key = parts[0].trimmingSpaces
        guard key == "Xft.dpi" else { continue }
        if let dpi = Double(parts[1].trimmingSpaces), dpi.isFinite, dpi > 0 {
            return min(max(dpi / 96, 0.5), 8)
        }
    }
    return nil
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return s
    }
}
