import GestureKit
import GestureTestSupport
import Testing

/// The least-squares velocity estimator (docs/DESIGN.md §3): samples of the last 100 ms, at most 20,
/// zero when the newest sample is older than 40 ms at query time. Expected slopes are worked out
/// by hand: slope = Σ(t−t̄)(x−x̄) / Σ(t−t̄)².
@Suite struct VelocityTrackerTests {
    private func tracker(_ samples: [(Double, Double, Double)]) -> VelocityTracker {
        var v = VelocityTracker()
        for (t, x, y) in samples { add(&v, t, x, y) }
        return v
    }

    // Through `inout`, so that the tests read the same whether VelocityTracker is a struct
    // (mutating methods) or a class.
    private func add(_ v: inout VelocityTracker, _ t: Double, _ x: Double, _ y: Double = 0) {
        v.add(time: t, x: x, y: y)
    }

    private func reset(_ v: inout VelocityTracker) { v.reset() }

    @Test func constants() {
        #expect(VelocityTracker.horizon == 0.1)
        #expect(VelocityTracker.capacity == 20)
        #expect(VelocityTracker.staleAfter == 0.04)
    }

    @Test func fewerThanTwoSamplesIsZero() {
        var v = VelocityTracker()
        #expect(v.velocity(at: 0) == (0, 0))
        add(&v, 1, 5, 5)
        #expect(v.velocity(at: 1) == (0, 0))
    }

    /// Constant speed: the fit is exact, on both axes, whatever the sample spacing.
    @Test(arguments: [0.004, 0.008, 0.016])
    func constantSpeedIsExact(dt: Double) {
        var v = VelocityTracker()
        for i in 0..<6 {
            let t = 10 + Double(i) * dt
            add(&v, t, 3 + 250 * Double(i) * dt, 7 - 80 * Double(i) * dt)
        }
        let e = v.velocity(at: 10 + 5 * dt)
        #expect(abs(e.x - 250) < 1e-6)
        #expect(abs(e.y + 80) < 1e-6)
    }

    /// (0, 0), (10 ms, 1), (20 ms, 4): t̄ = 10 ms, x̄ = 5/3; Σ(t−t̄)(x−x̄) = 0.01·(5/3) + 0.01·(7/3)
    /// = 0.04; Σ(t−t̄)² = 2·10⁻⁴ → 200. The y axis (0, 2, 1): Σ = 0.01·1 + 0.01·0 = 0.01 → 50.
    @Test func leastSquaresByHand() {
        let v = tracker([(0, 0, 0), (0.01, 1, 2), (0.02, 4, 1)])
        let e = v.velocity(at: 0.02)
        #expect(abs(e.x - 200) < 1e-9)
        #expect(abs(e.y - 50) < 1e-9)
    }

    /// Uneven times: (0, 0), (10 ms, 6), (30 ms, 6), (40 ms, 12): t̄ = 20 ms, x̄ = 6;
    /// Σ(t−t̄)(x−x̄) = (−0.02)(−6) + 0 + 0 + (0.02)(6) = 0.24; Σ(t−t̄)² = 4·10⁻⁴ + 10⁻⁴ + 10⁻⁴ + 4·10⁻⁴
    /// = 10⁻³ → 240.
    @Test func unevenSpacingByHand() {
        let v = tracker([(0, 0, 0), (0.01, 6, 0), (0.03, 6, 0), (0.04, 12, 0)])
        #expect(abs(v.velocity(at: 0.04).x - 240) < 1e-9)
    }

    /// Zero when the newest sample is older than 40 ms at the moment of the query.
    @Test(arguments: [(0.0, 200.0), (0.039, 200.0), (0.04, 200.0), (0.0401, 0.0), (1.0, 0.0)])
    func staleAfterFortyMilliseconds(age: Double, expected: Double) {
        let v = tracker([(1, 0, 0), (1.01, 1, 0), (1.02, 4, 0)])
        #expect(abs(v.velocity(at: 1.02 + age).x - expected) < 1e-9)
    }

    /// Samples more than 100 ms older than the newest are left out. Samples (0, 0), (50 ms, 0),
    /// (100 ms, 10): with all three, t̄ = 50 ms, x̄ = 10/3, Σ = 0.05·(10/3) + 0.05·(20/3) = 0.5,
    /// Σ(t−t̄)² = 0.005 → 100; without the first (it is 100.1 ms old) the slope is 10 / 0.05 = 200.
    @Test(arguments: [(0.0, 100.0), (-0.0001, 200.0)])
    func hundredMillisecondHorizon(first: Double, expected: Double) {
        let v = tracker([(first, 0, 0), (0.05, 0, 0), (0.1, 10, 0)])
        #expect(abs(v.velocity(at: 0.1).x - expected) < 1e-6)
    }

    /// An old, different motion does not leak into the estimate.
    @Test func oldMotionIsForgotten() {
        var v = VelocityTracker()
        for i in 0..<10 { add(&v, Double(i) * 0.01, -1000 * Double(i) * 0.01) }  // −1000 pt/s
        for i in 0..<10 { add(&v, 0.2 + Double(i) * 0.01, 50 * Double(i) * 0.01) }  // 50 pt/s
        #expect(abs(v.velocity(at: 0.29).x - 50) < 1e-6)
    }

    /// At most 20 samples: 30 samples 2 ms apart (all within 100 ms); the first 10 stand still,
    /// the last 20 move at 500 pt/s. Only the last 20 count, so the slope is exactly 500 (with
    /// all 30 it would be 359.288).
    @Test func twentySampleCap() {
        var v = VelocityTracker()
        for i in 0..<30 { add(&v, Double(i) * 0.002, i < 10 ? 0 : Double(i - 10)) }
        #expect(abs(v.velocity(at: 0.058).x - 500) < 1e-6)
        // Cross-check of the 359.288 above (what an uncapped fit would give).
        let ts = (0..<30).map { Double($0) * 0.002 }
        let xs = (0..<30).map { $0 < 10 ? 0.0 : Double($0 - 10) }
        let mt = ts.reduce(0, +) / 30
        let mx = xs.reduce(0, +) / 30
        let s = zip(ts, xs).reduce(0) { $0 + ($1.0 - mt) * ($1.1 - mx) } / ts.reduce(0) { $0 + ($1 - mt) * ($1 - mt) }
        #expect(abs(s - 359.288) < 0.001)
    }

    @Test func sameTimeSamplesHaveNoSlope() {
        let v = tracker([(1, 0, 0), (1, 10, 10)])
        #expect(v.velocity(at: 1) == (0, 0))
    }

    @Test func nonFiniteAndBackwardsSamplesAreIgnored() {
        var v = tracker([(0, 0, 0), (0.01, 1, 0)])
        add(&v, .nan, 5)
        add(&v, 0.015, .infinity)
        add(&v, 0.02, 2, .nan)
        add(&v, 0.005, 100)  // earlier than the newest
        #expect(abs(v.velocity(at: 0.01).x - 100) < 1e-9)
    }

    @Test func resetForgetsEverything() {
        var v = tracker([(0, 0, 0), (0.01, 1, 0)])
        reset(&v)
        #expect(v.velocity(at: 0.01) == (0, 0))
        add(&v, 0.02, 0)
        add(&v, 0.03, -3)
        #expect(abs(v.velocity(at: 0.03).x + 300) < 1e-9)
    }
}
