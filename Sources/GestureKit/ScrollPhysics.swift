import RealModule

/// The arithmetic of UIScrollView's feel, as pure functions of time (so an animation driven by
/// them lands on the same values whatever its frame rate, and a replay is repeatable):
/// deceleration after a fling, and the rubber band past a limit.
///
/// UIKit counterparts: `UIScrollView.DecelerationRate.normal` (0.998: the velocity is multiplied
/// by it every millisecond), `bounces` / `bouncesZoom` (the content follows the fingers past a
/// limit with growing resistance, and springs back on release).
public enum ScrollPhysics {
    /// UIKit: `UIScrollView.DecelerationRate.normal`: the velocity keeps this share every ms.
    public static let normalDecelerationRate = 0.998
    /// UIKit: `UIScrollView.DecelerationRate.fast`.
    public static let fastDecelerationRate = 0.99

    /// The decay constant per second of `rate` (per ms): v(t) = v₀·e^(k·t), k < 0.
    @inlinable public static func decay(rate: Double = normalDecelerationRate) -> Double {
        1000 * Double.log(rate)
    }

    /// How far a fling of `velocity` (units/s) has carried after `elapsed` seconds:
    /// v₀·(e^(k·t) − 1)/k, which tends to −v₀/k (≈ v₀ × 0.4995 s at the normal rate).
    public static func momentumDistance(
        velocity: Double, elapsed: Double, rate: Double = normalDecelerationRate
    ) -> Double {
        let k = decay(rate: rate)
        guard k < 0, elapsed > 0 else { return 0 }
        return velocity * (Double.exp(k * elapsed) - 1) / k
    }

    /// How long a fling of `speed` (units/s) lasts until it has slowed to `minimumSpeed`
    /// (0 when it is that slow already).
    public static func momentumDuration(
        speed: Double, minimumSpeed: Double, rate: Double = normalDecelerationRate
    ) -> Double {
        let k = decay(rate: rate)
        guard k < 0, speed > minimumSpeed, minimumSpeed > 0 else { return 0 }
        return Double.log(minimumSpeed / speed) / k
    }

    /// The time after which a fling of `velocity` from `start` reaches `bound` (nil if it never
    /// does: it goes the other way or stops short).
    public static func momentumTime(
        velocity: Double, from start: Double, to bound: Double, rate: Double = normalDecelerationRate
    ) -> Double? {
        let k = decay(rate: rate)
        guard k < 0, velocity != 0 else { return nil }
        let e = 1 + k * (bound - start) / velocity
        guard e > 0, e <= 1 else { return nil }
        return Double.log(e) / k
    }

    /// The rubber band: `x` units past a limit are shown as `(1 − 1/(x·c/d + 1))·d`, which
    /// follows the fingers one for one at first (slope c) and never reaches `d`. (The formula
    /// UIScrollView is commonly measured to use, c = 0.55.)
    public static func rubberBand(_ x: Double, dimension d: Double, coefficient c: Double = 0.55) -> Double {
        guard x > 0, d > 0 else { return x }
        return (1 - 1 / (x * c / d + 1)) * d
    }

    /// A scale held in `minimum`…`maximum` with a rubber band past either end, in log space:
    /// past the maximum it reads `maximum × 2^rubberBand(log₂(s/maximum), 1)`, so a pinch can
    /// stretch at most to twice the maximum (or half the minimum). Inside the limits it is `s`.
    public static func rubberBandScale(_ s: Double, minimum: Double, maximum: Double) -> Double {
        guard s.isFinite, s > 0 else { return s }
        if s > maximum, maximum > 0 {
            return maximum * Double.exp2(rubberBand(Double.log2(s / maximum), dimension: 1))
        }
        if s < minimum, minimum > 0 {
            return minimum / Double.exp2(rubberBand(Double.log2(minimum / s), dimension: 1))
        }
        return s
    }

    /// The scale `fraction` (0…1) of the way from `a` to `b`, geometrically (a zoom animation
    /// moves at a steady pace to the eye): a·(b/a)^fraction.
    public static func interpolateScale(from a: Double, to b: Double, fraction: Double) -> Double {
        guard a > 0, b > 0, a.isFinite, b.isFinite else { return b }
        return a * Double.exp(Double.log(b / a) * fraction)
    }
}
