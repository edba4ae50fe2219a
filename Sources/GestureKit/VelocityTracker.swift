/// Estimates the velocity of a value (a point, a scale, an angle) from timestamped samples:
/// a least-squares line fit over the samples of the last ``horizon`` seconds (at most
/// ``capacity`` of them); zero when the newest sample is older than ``staleAfter`` at the moment
/// of the query (a finger that stopped has no fling). Needs two samples at distinct times.
///
/// Learnt from Flutter's `VelocityTracker` (least squares over a 100 ms horizon, at most 20
/// samples, 40 ms "assume pointer stopped"); UIKit does not document its estimator.
///
/// A class over one ring buffer allocated at creation: recording and querying never allocate
/// and never copy the buffer.
public final class VelocityTracker {
    /// Samples older than this (relative to the newest) are ignored: 100 ms.
    public static let horizon = 0.100
    /// At most this many samples: 20.
    public static let capacity = 20
    /// The velocity is zero when the newest sample is older than this at query time: 40 ms.
    public static let staleAfter = 0.040

    /// (t, x, y) triples.
    private let buffer: UnsafeMutablePointer<Double>
    @exclusivity(unchecked) private var head = 0
    @exclusivity(unchecked) private var count = 0

    public init() {
        buffer = .allocate(capacity: Self.capacity * 3)
        buffer.initialize(repeating: 0, count: Self.capacity * 3)
    }

    deinit {
        buffer.deallocate()
    }

    /// Forgets every sample (after a re-base: `setTranslation`, setting `scale`…).
    public func reset() {
        head = 0
        count = 0
    }

    /// The number of samples held.
    public var sampleCount: Int { count }

    /// Records a 2-D sample. Non-finite samples and samples older than the newest are ignored.
    public func add(time: Double, x: Double, y: Double = 0) {
        guard time.isFinite, x.isFinite, y.isFinite else { return }
        if count > 0 && time < buffer[(head == 0 ? Self.capacity - 1 : head - 1) * 3] { return }
        let k = head * 3
        buffer[k] = time
        buffer[k + 1] = x
        buffer[k + 2] = y
        head = head == Self.capacity - 1 ? 0 : head + 1
        if count < Self.capacity { count += 1 }
    }

    /// The velocity (units per second) at `now`: per axis, the slope of the least-squares line
    /// through the recent samples.
    public func velocity(at now: Double) -> (x: Double, y: Double) {
        fit(at: now, withY: true)
    }

    /// The x part of ``velocity(at:)`` alone (the same value), for one-dimensional values.
    func xVelocity(at now: Double) -> Double {
        fit(at: now, withY: false).x
    }

    /// The fit; without `withY` the y sums are skipped and y reads 0.
    @inline(__always)
    private func fit(at now: Double, withY: Bool) -> (x: Double, y: Double) {
        guard count >= 2 else { return (0, 0) }
        let cap = Self.capacity
        var k = head == 0 ? cap - 1 : head - 1
        let tNew = buffer[k * 3]
        let xNew = buffer[k * 3 + 1]
        let yNew = buffer[k * 3 + 2]
        guard now - tNew <= Self.staleAfter + 1e-9 else { return (0, 0) }
        // One pass over the samples inside the horizon, newest first. Times and values are taken
        // relative to the newest sample, so the closed-form sums do not lose precision.
        var n = 0.0
        var st = 0.0
        var sx = 0.0
        var sy = 0.0
        var stt = 0.0
        var stx = 0.0
        var sty = 0.0
        // The ring holds at most two runs of consecutive slots (newest down to slot 0, then the
        // top of the buffer down): walk each with a pointer, no index arithmetic per sample.
        let limit = Self.horizon + 1e-9
        var remaining = count
        scan: while remaining > 0 {
            let run = min(remaining, k + 1)
            var p = buffer + k * 3
            var left = run
            while left > 0 {
                let dt = p[0] - tNew
                if -dt > limit { break scan }
                let x = p[1] - xNew
                n += 1
                st += dt
                sx += x
                stt += dt * dt
                stx += dt * x
                if withY {
                    let y = p[2] - yNew
                    sy += y
                    sty += dt * y
                }
                p -= 3
                left -= 1
            }
            remaining -= run
            k = cap - 1
        }
        guard n >= 2 else { return (0, 0) }
        let denominator = n * stt - st * st
        guard denominator > 0 else { return (0, 0) }
        let vx = (n * stx - st * sx) / denominator
        let vy = withY ? (n * sty - st * sy) / denominator : 0
        return (vx.isFinite ? vx : 0, vy.isFinite ? vy : 0)
    }
}
