import Foundation
import GestureKit
import GestureTestSupport
import Testing

/// ``ScrollPhysics``: UIScrollView's deceleration and rubber band as functions of time, and
/// ``TransformGestures``' scale limits built on them.
@MainActor
@Suite("ScrollPhysics: deceleration and rubber band; TransformGestures' scale limits")
struct ScrollPhysicsTests {
    @Test("A fling decelerates by 0.998 a millisecond: speed, distance, duration and bound times agree")
    func deceleration() {
        let v = 2000.0
        // After 1 ms the speed is 0.998 × v: the distance's slope there.
        let h = 1e-6
        let slope =
            (ScrollPhysics.momentumDistance(velocity: v, elapsed: 0.001 + h)
                - ScrollPhysics.momentumDistance(velocity: v, elapsed: 0.001 - h)) / (2 * h)
        #expect(abs(slope - v * 0.998) < 1e-3)
        // It carries v / (1000 ln(1/0.998)) ≈ 999 pt in all.
        let total = ScrollPhysics.momentumDistance(velocity: v, elapsed: 100)
        #expect(abs(total - v / (1000 * log(1 / 0.998))) < 1e-6)
        // Down to 10 pt/s: ln(200) / (1000 ln(1/0.998)) s.
        let d = ScrollPhysics.momentumDuration(speed: v, minimumSpeed: 10)
        #expect(abs(d - log(200) / (1000 * log(1 / 0.998))) < 1e-9)
        #expect(abs(v * pow(0.998, d * 1000) - 10) < 1e-9)
        // It reaches 412 pt at the time the distance says, never reaches 1000 pt, nor goes backwards.
        let t = ScrollPhysics.momentumTime(velocity: v, from: 600, to: 1012)
        #expect(t.map { abs(ScrollPhysics.momentumDistance(velocity: v, elapsed: $0) - 412) < 1e-9 } == true)
        #expect(ScrollPhysics.momentumTime(velocity: v, from: 0, to: 1000) == nil)
        #expect(ScrollPhysics.momentumTime(velocity: v, from: 0, to: -5) == nil)
        #expect(ScrollPhysics.momentumDuration(speed: 5, minimumSpeed: 10) == 0)
    }

    @Test(
        "The rubber band: one for one at first, never past twice the maximum or half the minimum",
        arguments: [(1.0, 1.0), (10.0, 10.0), (0.1, 0.1), (10.01, 10.0055), (1000.0, 17.234), (0.001, 0.058025)])
    func rubberBand(raw: Double, shown: Double) {
        let s = ScrollPhysics.rubberBandScale(raw, minimum: 0.1, maximum: 10)
        #expect(abs(s - shown) < 0.005 * shown, "\(raw) shows as \(s)")
        #expect(s <= 20 && s >= 0.05)
    }

    @Test("TransformGestures past maximumScale: rubber band while pinching, the raw scale kept when a rotation joins")
    func transformLimits() {
        let h = Harness()
        let card = View(frame: Rect(x: 400, y: 300, width: 200, height: 200), name: "card")
        h.root.addSubview(card)
        let g = TransformGestures(view: card)
        g.maximumScale = 2
        g.minimumScale = 0.5
        // Spread ×4 about (500, 400): shown 2 × 2^band(1) ≈ 2.70.
        h.frame(0, Finger.down(1, 480, 400), Finger.down(2, 520, 400))
        for i in 1...20 {
            let r = 20 + 60 * Double(i) / 20
            h.frame(0.016 * Double(i), Finger.move(1, 500 - r, 400), Finger.move(2, 500 + r, 400))
        }
        let band = 2 * pow(2, (1 - 1 / (0.55 + 1)))
        #expect(abs(card.transform.scale - band) < 1e-9)
        #expect(g.isOutsideScaleLimits)
        // The fingers turn 0.1 rad at the same spread: the rotation joins the session, which
        // starts again from the banded view but keeps the raw ×4, so the scale does not jump.
        let a = 0.1
        for (i, t) in [0.35, 0.4].enumerated() {
            let k = a * Double(i + 1) / 2
            h.frame(
                t, Finger.move(1, 500 - 80 * cos(k), 400 - 80 * sin(k)),
                Finger.move(2, 500 + 80 * cos(k), 400 + 80 * sin(k)))
        }
        #expect(h.log.states(of: g.rotation.name).contains(.began))
        #expect(abs(card.transform.scale - band) < 1e-9)
        #expect(abs(card.transform.rotationAngle - a) < 1e-9)
        // Without limits the same fingers read ×4.
        g.maximumScale = .infinity
        h.frame(
            0.45, Finger.move(1, 500 - 80 * cos(a), 400 - 80 * sin(a) + 0.001),
            Finger.move(2, 500 + 80 * cos(a), 400 + 80 * sin(a)))
        #expect(abs(card.transform.scale - 4) < 1e-4)
        #expect(!g.isOutsideScaleLimits)
    }
}
