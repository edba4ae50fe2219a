import RealModule

/// The motions of a ``ScrollView`` as pure functions of the time since they began (so a motion
/// lands on the same values whatever the frame rate, and a replay is repeatable).
enum ScrollMotion {
    /// The spring that brings content back to an edge or a zoom limit: critically damped, this
    /// many radians per second (it settles within about 0.6 s, as UIScrollView's bounce does).
    static let stiffness = 15.0
    /// A motion rests once it is within this many points of its end (and slower than
    /// ``restingSpeed``); it then lands exactly on its end.
    static let restingDistance = 0.25
    static let restingSpeed = 5.0
    /// The pace of the animations of ``ScrollView/setContentOffset(_:animated:)`` and the zooms.
    static let animationDuration = 0.3
    /// The animation frames a motion schedules on the dispatcher's clock, per second (frame n
    /// is at n/60 s from the start, counted, not summed, so a 0.3 s animation ends at frame 18).
    static let framesPerSecond = 60.0

    /// A critically damped spring: the displacement `a` from its rest with velocity `v`, after
    /// `t` seconds: (a + (v + ωa)·t)·e^(−ωt). Done when near rest and slow.
    static func spring(displacement a: Double, velocity v: Double, at t: Double) -> (value: Double, done: Bool) {
        guard t.isFinite else { return (0, true) }
        let w = stiffness
        let b = v + w * a
        let e = Double.exp(-w * t)
        let x = (a + b * t) * e
        let speed = (b - w * (a + b * t)) * e
        return abs(x) < restingDistance && abs(speed) < restingSpeed ? (0, true) : (x, false)
    }
}

/// One axis of the content's motion after a drag ends: UIScrollView's deceleration (the
/// velocity keeps `rate` of itself every millisecond), a bounce past an edge it reaches, or a
/// spring back to the edge it was released past.
struct Glide {
    var start: Double
    /// Points per second, the way the offset moves (against the finger).
    var velocity: Double
    var lower: Double
    var upper: Double
    var rate: Double
    var bounces: Bool

    func position(at t: Double) -> (value: Double, done: Bool) {
        if start < lower || start > upper {
            let edge = start < lower ? lower : upper
            let s = ScrollMotion.spring(displacement: start - edge, velocity: velocity, at: t)
            return (edge + s.value, s.done)
        }
        let k = ScrollPhysics.decay(rate: rate)
        guard velocity != 0, velocity.isFinite, k < 0 else { return (start, true) }
        let edge = velocity > 0 ? upper : lower
        if let reached = ScrollPhysics.momentumTime(velocity: velocity, from: start, to: edge, rate: rate) {
            if t < reached {
                return (start + ScrollPhysics.momentumDistance(velocity: velocity, elapsed: t, rate: rate), false)
            }
            guard bounces else { return (edge, true) }
            let v = velocity * Double.exp(k * reached)
            let s = ScrollMotion.spring(displacement: 0, velocity: v, at: t - reached)
            return (edge + s.value, s.done)
        }
        // Rests where it tends to, v₀/|k| away, once what is left of the way is under a quarter point.
        if abs(velocity * Double.exp(k * t) / k) < ScrollMotion.restingDistance { return (start - velocity / k, true) }
        return (start + ScrollPhysics.momentumDistance(velocity: velocity, elapsed: t, rate: rate), false)
    }
}

/// A change of zoom scale and content offset together, about the one point of the view that
/// stays put (so a zoom looks like a zoom about a point, not a slide): an eased animation or the
/// spring back from past a zoom limit.
struct ZoomTransition {
    enum Curve {
        case easeOut(duration: Double)
        case spring
    }
    var fromScale: Double
    var toScale: Double
    var fromOffset: Point
    var toOffset: Point
    var curve: Curve

    /// The share of the way done at `t` (0…1), and whether it is all done.
    private func progress(at t: Double) -> (Double, Bool) {
        switch curve {
        case .easeOut(let d):
            let x = d > 0 ? min(max(t / d, 0), 1) : 1
            let r = 1 - x
            return (1 - r * r * r, x >= 1)
        case .spring:
            guard t.isFinite else { return (1, true) }
            let w = ScrollMotion.stiffness * max(t, 0)
            let left = (1 + w) * Double.exp(-w)
            return (1 - left, left < 0.001)
        }
    }

    func state(at t: Double) -> (scale: Double, offset: Point, done: Bool) {
        let (p, done) = progress(at: t)
        if done { return (toScale, toOffset, true) }
        let ds = toScale - fromScale
        guard abs(ds) > 1e-12 * max(abs(fromScale), 1) else {
            let o = fromOffset + (toOffset - fromOffset) * p
            return (fromScale, o, false)
        }
        // The content point u (unscaled) and view point v with u·s − v = offset at both ends.
        let u = (toOffset - fromOffset) * (1 / ds)
        let v = Vector(dx: u.dx * fromScale - fromOffset.x, dy: u.dy * fromScale - fromOffset.y)
        let s = ScrollPhysics.interpolateScale(from: fromScale, to: toScale, fraction: p)
        return (s, Point(x: u.dx * s - v.dx, y: u.dy * s - v.dy), false)
    }
}
