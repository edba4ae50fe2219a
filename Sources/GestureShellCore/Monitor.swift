/// A monitor: a rectangle of the X screen (RandR 1.5 `RRGetMonitors`; one per output, or set
/// with `xrandr --setmonitor`), in root-window pixels. (UIKit: `UIScreen`.)
public struct Monitor: Equatable, Sendable {
    /// The monitor's name (an output name such as `HDMI-1`, or the name given to `--setmonitor`).
    public var name: String
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// Whether it is the primary monitor (`xrandr --output … --primary`, or `*` in `--setmonitor`).
    public var primary: Bool
    /// The physical size RandR reports, millimetres (0 when unknown: Xinerama, Xwayland, many
    /// virtual outputs).
    public var widthMM: Int = 0
    public var heightMM: Int = 0

    public init(
        name: String, x: Int, y: Int, width: Int, height: Int, primary: Bool, widthMM: Int = 0, heightMM: Int = 0
    ) {
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.name = name
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.primary = primary
    }

    /// `WIDTHxHEIGHT+X+Y`, as xrandr writes geometry.
    public var geometry: String { "\(width)x\(height)+\(x)+\(y)" }

    /// This monitor clipped to a root window of `width`×`height` pixels (nil when nothing of it
    /// is on the root: a monitor left behind by `xrandr --fb` shrinking the screen).
    public func clipped(toWidth rootWidth: Int, height rootHeight: Int) -> Monitor? {
        let x0 = max(0, x)
        let y0 = max(0, y)
        let x1 = min(rootWidth, x + width)
        let y1 = min(rootHeight, y + height)
        guard x1 > x0, y1 > y0 else { return nil }
        return Monitor(
            name: name, x: x0, y: y0, width: x1 - x0, height: y1 - y0, primary: primary, widthMM: widthMM,
            heightMM: heightMM)
    }
}

/// Which monitor `--monitor` names: `primary`, an index of the server's list (as
/// `xrandr --listmonitors` numbers it: the primary monitor first), or a name.
public enum MonitorChoice: Equatable, Sendable, CustomStringConvertible {
    case primary
    case index(Int)
    case name(String)

    /// `primary`, a non-negative integer, or any other text as a name.
    public init(_ text: String) {
        if text == "primary" {
            self = .primary
        } else if let i = Int(text), i >= 0, text.allSatisfy(\.isNumber) {
            self = .index(i)
        } else {
            self = .name(text)
        }
    }

    public var description: String {
        switch self {
        case .primary: "primary"
        case .index(let i): "\(i)"
        case .name(let n): n
        }
    }

    /// The monitor this choice names in `monitors` (the server's order) and its index there,
    /// or nil. `primary` with no monitor marked primary is the first one (X's own rule: a
    /// screen without a primary output treats the first as primary).
    public func pick(from monitors: [Monitor]) -> (index: Int, monitor: Monitor)? {
        switch self {
        case .primary:
            guard !monitors.isEmpty else { return nil }
            let i = monitors.firstIndex(where: \.primary) ?? 0
            return (i, monitors[i])
        case .index(let i):
            return i < monitors.count ? (i, monitors[i]) : nil
        case .name(let n):
            return monitors.firstIndex { $0.name == n }.map { ($0, monitors[$0]) }
        }
    }

    /// The one line for a choice that names no monitor, listing what there is.
    public func notFound(in monitors: [Monitor]) -> String {
        let known = monitors.enumerated().map { "\($0.offset) \($0.element.name)" }.joined(separator: ", ")
        let what: String =
            switch self {
            case .primary: "there is no monitor"
            case .index(let i): "there is no monitor \(i)"
            case .name(let n): "there is no monitor named \"\(n)\""
            }
        return "--monitor: \(what) (monitors: \(known.isEmpty ? "none" : known); see gestures monitors)"
    }
}
