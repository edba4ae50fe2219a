/// Estimates the velocity of a value (a point, a scale, an angle) from timestamped samples:
/// a least-squares line fit over the samples of the last ``horizon`` seconds (at most
/// ``capacity`` of them); zero when the newest sample is older than ``staleAfter`` at the moment
/// of the query (a finger that stopped has no fling). Needs two samples at distinct times.
///
/// Learnt from Flutter's `VelocityTracker` (least squares over a 100 ms horizon, at most 20
/// samples, 40 ms "assume pointer stopped"); UIKit does not document its estimator.
/// A fixed ring buffer: recording never allocates.
public struct VelocityTracker: Sendable {
    /// Samples older than this (relative to the newest) are ignored: 100 ms.
    public static let horizon = 0.100
    /// At most this many samples: 20.
    public static let capacity = 20
    /// The velocity is zero when the newest sample is older than this at query time: 40 ms.
    public static let staleAfter = 0.040

    private var xs = Ring()
    private var ys = Ring()
    private var ts = Ring()
    private var head = 0
    private var count = 0

    public init() {}

    /// Forgets every sample (after a re-base: `setTranslation`, setting `scale`…).
    public mutating func reset() {
        head = 0
        count = 0
    }

    /// Records a 2-D sample. Non-finite samples are ignored.
    public mutating func add(time: Double, x: Double, y: Double = 0) {
        guard time.isFinite, x.isFinite, y.isFinite else { return }
        if count > 0 {
            let last = ts[(head + Self.capacity - 1) % Self.capacity]
            if time < last { return }
        }
        ts[head] = time
        xs[head] = x
        ys[head] = y
        head = (head + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
    }

    /// The velocity (units per second) at `now`: per axis, the slope of the least-squares line
    /// through the recent samples.
    public func velocity(at now: Double) -> (x: Double, y: Double) {
        guard count >= 2 else { return (0, 0) }
        let newest = (head + Self.capacity - 1) % Self.capacity
        let tNew = ts[newest]
        guard now - tNew <= Self.staleAfter + 1e-9 else { return (0, 0) }
        var n = 0.0
        var st = 0.0
        var sx = 0.0
        var sy = 0.0
        var i = 0
        while i < count {
            let k = (newest + Self.capacity - i) % Self.capacity
            let dt = ts[k] - tNew
            if -dt > Self.horizon + 1e-9 { break }
            n += 1
            st += dt
            sx += xs[k]
            sy += ys[k]
            i += 1
        }
        guard n >= 2 else { return (0, 0) }
        let mt = st / n
        let mx = sx / n
        let my = sy / n
        var stt = 0.0
        var stx = 0.0
        var sty = 0.0
        for j in 0..<Int(n) {
            let k = (newest + Self.capacity - j) % Self.capacity
            let dt = ts[k] - tNew - mt
            stt += dt * dt
            stx += dt * (xs[k] - mx)
            sty += dt * (ys[k] - my)
        }
        guard stt > 0 else { return (0, 0) }
        let vx = stx / stt
        let vy = sty / stt
        return (vx.isFinite ? vx : 0, vy.isFinite ? vy : 0)
    }
}

/// 20 doubles inline (no heap).
struct Ring: Sendable {
    private var storage:
        (
            Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
            Double, Double, Double, Double, Double, Double, Double, Double, Double, Double
        ) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    subscript(i: Int) -> Double {
        get { withUnsafeBytes(of: storage) { $0.load(fromByteOffset: i * 8, as: Double.self) } }
        set {
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: i * 8, as: Double.self) }
        }
    }
}
