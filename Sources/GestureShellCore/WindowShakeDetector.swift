/// Detects "shaking the window": rapid back-and-forth moves of the window on the screen
/// (ConfigureNotify positions while the user drags it), the desktop counterpart of shaking an
/// iPhone (UIKit: `motionEnded(.motionShake, with:)`).
///
/// A shake is at least `reversals` reversals of the horizontal or the vertical direction of
/// motion within `window` seconds, each leg at least `minimumTravel` pixels long. After a
/// shake the detector starts afresh.
public struct WindowShakeDetector: Sendable {
    public var reversals = 4
    public var window = 1.0
    public var minimumTravel = 8.0

    private struct Axis {
        var anchor: Double?  // where the current leg started
        var extreme: Double = 0  // the farthest point of the current leg
        var direction = 0  // -1, 0, +1
        var times: [Double] = []  // times of the reversals
    }
    private var x = Axis()
    private var y = Axis()

    public init() {}

    /// Feeds a window position (root pixels) at `time` (seconds); true when it completes a shake.
    public mutating func move(toX px: Double, y py: Double, at time: Double) -> Bool {
        let shook = Self.feed(&x, px, time, self) || Self.feed(&y, py, time, self)
        if shook {
            x = Axis()
            y = Axis()
            x.anchor = px
            x.extreme = px
            y.anchor = py
            y.extreme = py
        }
        return shook
    }

    private static func feed(_ a: inout Axis, _ v: Double, _ t: Double, _ d: WindowShakeDetector) -> Bool {
        guard a.anchor != nil else {
            a.anchor = v
            a.extreme = v
            return false
        }
        let delta = v - a.extreme
        let sign = delta > 0 ? 1 : (delta < 0 ? -1 : 0)
        if sign == 0 { return false }
        if a.direction == 0 || sign == a.direction {
            a.direction = sign
            a.extreme = v
            return false
        }
        // Moving against the current leg: a reversal once it is long enough back from the extreme
        // and the leg that ended was long enough.
        guard abs(delta) >= d.minimumTravel else { return false }
        let leg = abs(a.extreme - a.anchor!)
        a.anchor = a.extreme
        a.extreme = v
        a.direction = sign
        if leg < d.minimumTravel {
            a.times.removeAll()
            return false
        }
        a.times.append(t)
        a.times.removeAll { $0 < t - d.window }
        return a.times.count >= d.reversals
    }
}
