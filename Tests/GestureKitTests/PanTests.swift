import GestureKit
import GestureTestSupport
import Testing

/// PanGestureRecognizer against docs/DESIGN.md §3. Velocities are the least-squares slopes of the
/// translation samples (one per frame) of the last 100 ms, worked out by hand in the comments
/// (times in units of 10 ms: slope = Σ(t−t̄)(x−x̄) / Σ(t−t̄)², then × 100 for pt/s); the log
/// rounds to 3 decimals.
@MainActor
@Suite struct PanTests {
    private func r(_ v: Double) -> String { LogRecorder.r(v) }

    /// Finger 1 down at (100,100), then 6 pt right per 10 ms to (112,100) at 0.02 s: the move
    /// that begins a pan with translation [12,0] and velocity [600,0] pt/s.
    private func dragRight12(_ h: Harness) {
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.01, Finger.move(1, 106, 100))
        h.frame(0.02, Finger.move(1, 112, 100))
    }

    /// 6 pt every 10 ms to the right (600 pt/s): began at the first move beyond 10 pt, with the
    /// translation measured from the touch-down point.
    @Test func beganChangedEndedAtConstantSpeed() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var fired: [GestureState] = []
        pan.addAction { fired.append($0.state) }
        dragRight12(h)
        h.frame(0.03, Finger.move(1, 118, 100))
        h.frame(0.04, Finger.move(1, 124, 100))
        h.frame(0.05, Finger.up(1, 124, 100))
        #expect(
            h.log.lines == [
                "0.02 pan began (112,100) n=1 tr=[12,0] v=[600,0]",
                "0.03 pan changed (118,100) n=1 tr=[18,0] v=[600,0]",
                "0.04 pan changed (124,100) n=1 tr=[24,0] v=[600,0]",
                // The lift 10 ms after the last move keeps the fling (600 pt/s).
                "0.05 pan ended (124,100) n=1 tr=[24,0] v=[600,0]",
            ])
        #expect(fired == [.began, .changed, .changed, .ended])
        #expect(pan.state == .possible)
    }

    /// A finger that stopped has no fling: the newest sample is 80 ms old at the lift.
    @Test func stoppedFingerHasNoFling() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        dragRight12(h)
        h.frame(0.1, Finger.up(1, 112, 100))
        #expect(
            h.log.lines == [
                "0.02 pan began (112,100) n=1 tr=[12,0] v=[600,0]",
                "0.1 pan ended (112,100) n=1 tr=[12,0] v=[0,0]",
            ])
    }

    /// Began once the centroid has moved more than 10 pt: exactly 10 does not begin.
    @Test(arguments: [(8.0, false), (8.01, true)])
    func beganThreshold(dy: Double, begins: Bool) {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, 106, 100 + dy))
        h.frame(0.2, Finger.up(1, 106, 100 + dy))
        let y = r(100 + dy)
        if begins {
            // Two samples, (0, 0) and (0.1 s, (6, dy)): v = (60, 10·dy) pt/s. At the lift the
            // newest sample is 100 ms old: no fling.
            #expect(
                h.log.lines == [
                    "0.1 pan began (106,\(y)) n=1 tr=[6,\(r(dy))] v=[60,\(r(10 * dy))]",
                    "0.2 pan ended (106,\(y)) n=1 tr=[6,\(r(dy))] v=[0,0]",
                ])
        } else {
            #expect(h.log.lines == ["0.2 pan failed (106,\(y)) n=1 tr=[6,\(r(dy))] v=[0,0]"])
        }
    }

    /// Several fingers: the centroid moves; translation from the touch-down centroid.
    @Test func twoFingerPanMeasuresTheCentroid() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100), Finger.down(2, 200, 100))
        h.frame(0.01, Finger.move(1, 100, 106))  // centroid moves 3
        h.frame(0.02, Finger.move(2, 200, 118))  // centroid at +12 in y
        h.frame(0.03, Finger.up(1, 100, 106), Finger.up(2, 200, 118))
        // Samples (0, 0), (1, 3), (2, 12): t̄ = 1, ȳ = 5, Σ(t−t̄)(y−ȳ) = 5 + 7 = 12, Σ(t−t̄)² = 2
        // → 6 per 10 ms = 600 pt/s.
        #expect(
            h.log.lines == [
                "0.02 pan began (150,112) n=2 tr=[0,12] v=[0,600]",
                "0.03 pan ended (150,112) n=2 tr=[0,12] v=[0,600]",
            ])
    }

    /// A second finger landing and then lifting re-bases the centroid: the translation never
    /// jumps although the centroid does (by 94 pt).
    @Test func fingerCountChangeRebasesWithoutJump() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        dragRight12(h)
        h.frame(0.03, Finger.down(2, 300, 100))
        #expect(pan.translation(in: nil) == Vector(dx: 12, dy: 0))
        h.frame(0.04, Finger.move(1, 118, 100), Finger.move(2, 306, 100))
        h.frame(0.05, Finger.up(2, 306, 100))
        h.frame(0.06, Finger.move(1, 124, 100))
        h.frame(0.07, Finger.up(1, 124, 100))
        #expect(
            h.log.lines == [
                "0.02 pan began (112,100) n=1 tr=[12,0] v=[600,0]",
                // Samples 0,6,12,12,18 at t 0…4: t̄ 2, x̄ 9.6, Σ = 19.2+3.6+2.4+16.8 = 42, /10 → 420.
                "0.04 pan changed (212,100) n=2 tr=[18,0] v=[420,0]",
                // The lift moves the location, not the translation; no new sample.
                "0.05 pan changed (118,100) n=2 tr=[18,0] v=[420,0]",
                // Samples 0,6,12,12,18,24 at t 0,1,2,3,4,6: Σt=16, Σx=72, Σt²=66, Σtx=282:
                // (282 − 16·72/6) / (66 − 16²/6) = 90 / 23.333 = 3.857142 → 385.714.
                "0.06 pan changed (124,100) n=1 tr=[24,0] v=[385.714,0]",
                "0.07 pan ended (124,100) n=1 tr=[24,0] v=[385.714,0]",
            ])
    }

    /// `minimumNumberOfTouches` 2: one finger never begins; with two it begins, and it ends when
    /// one of them lifts.
    @Test func minimumTouches() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan2"))
        pan.minimumNumberOfTouches = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, 150, 100))
        h.frame(0.2, Finger.up(1, 150, 100))
        h.frame(1, Finger.down(1, 100, 100), Finger.down(2, 100, 200))
        h.frame(1.01, Finger.move(1, 112, 100), Finger.move(2, 112, 200))
        h.frame(1.02, Finger.up(2, 112, 200))
        h.frame(1.03, Finger.move(1, 150, 100))
        h.frame(1.04, Finger.up(1, 150, 100))
        #expect(
            h.log.lines == [
                // Samples (0, 0) and (0.1, 50); at 0.2 the newest is 100 ms old.
                "0.2 pan2 failed (150,100) n=1 tr=[50,0] v=[0,0]",
                "1.01 pan2 began (112,150) n=2 tr=[12,0] v=[1200,0]",
                "1.02 pan2 ended (112,100) n=2 tr=[12,0] v=[1200,0]",
            ])
    }

    /// `maximumNumberOfTouches` 1: two fingers down never begin.
    @Test func maximumTouchesKeepsItFromBeginning() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan1"))
        pan.maximumNumberOfTouches = 1
        h.frame(0, Finger.down(1, 100, 100), Finger.down(2, 100, 200))
        h.frame(0.1, Finger.move(1, 150, 100), Finger.move(2, 150, 200))
        h.frame(0.2, Finger.up(1, 150, 100), Finger.up(2, 150, 200))
        #expect(h.log.lines == ["0.2 pan1 failed (150,150) n=2 tr=[50,0] v=[0,0]"])
    }

    /// `maximumNumberOfTouches` 1: a finger landing after began is not counted.
    @Test func maximumTouchesIgnoresALaterFinger() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan1"))
        pan.maximumNumberOfTouches = 1
        dragRight12(h)
        h.frame(0.03, Finger.down(2, 500, 500))
        h.frame(0.04, Finger.move(2, 600, 500))
        h.frame(0.05, Finger.move(1, 118, 100))
        h.frame(0.06, Finger.up(2, 600, 500))
        h.frame(0.07, Finger.up(1, 118, 100))
        #expect(
            h.log.lines == [
                "0.02 pan1 began (112,100) n=1 tr=[12,0] v=[600,0]",
                // Samples 0,6,12,12,12 at t 0…4: x̄ 8.4, Σ = 16.8+2.4+3.6+7.2 = 30, /10 → 300.
                "0.04 pan1 changed (112,100) n=2 tr=[12,0] v=[300,0]",
                // Samples 0,6,12,12,12,18 at t 0…5: x̄ 10, Σ = 25+6−1+1+3+20 = 54, /17.5 → 308.571.
                "0.05 pan1 changed (118,100) n=2 tr=[18,0] v=[308.571,0]",
                // Finger 2 lifting changes nothing that is reported (no line at 0.06, no sample);
                // at 0.07 the newest sample is 20 ms old: the same fit as at 0.05.
                "0.07 pan1 ended (118,100) n=1 tr=[18,0] v=[308.571,0]",
            ])
    }

    /// `setTranslation` re-bases the translation and zeroes the velocity.
    @Test func setTranslationRebasesAndZeroesVelocity() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        dragRight12(h)
        expectClose(pan.velocity(in: nil), Vector(dx: 600, dy: 0), tolerance: 1e-6)
        pan.setTranslation(Vector(dx: 0, dy: 0), in: nil)
        #expect(pan.translation(in: nil) == .zero)
        #expect(pan.velocity(in: nil) == .zero)
        h.frame(0.03, Finger.move(1, 118, 100))
        h.frame(0.04, Finger.move(1, 124, 100))
        pan.setTranslation(Vector(dx: 100, dy: -50), in: nil)
        h.frame(0.05, Finger.move(1, 130, 103))
        h.frame(0.06, Finger.up(1, 130, 103))
        #expect(
            h.log.lines == [
                "0.02 pan began (112,100) n=1 tr=[12,0] v=[600,0]",
                "0.03 pan changed (118,100) n=1 tr=[6,0] v=[0,0]",
                "0.04 pan changed (124,100) n=1 tr=[12,0] v=[600,0]",
                "0.05 pan changed (130,103) n=1 tr=[106,-47] v=[0,0]",
                "0.06 pan ended (130,103) n=1 tr=[106,-47] v=[0,0]",
            ])
    }

    /// The UIKit idiom: the action consumes the translation and sets it back to zero; the log
    /// reports the values as they were when the transition happened.
    @Test func setTranslationInsideTheAction() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var total = Vector.zero
        pan.addAction { g in
            let p = g as! PanGestureRecognizer
            total = total + p.translation(in: nil)
            p.setTranslation(.zero, in: nil)
        }
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.01, Finger.move(1, 111, 100))
        h.frame(0.02, Finger.move(1, 115, 102))
        h.frame(0.03, Finger.move(1, 130, 110))
        h.frame(0.04, Finger.up(1, 130, 110))
        #expect(
            h.log.lines == [
                "0.01 pan began (111,100) n=1 tr=[11,0] v=[1100,0]",
                "0.02 pan changed (115,102) n=1 tr=[4,2] v=[0,0]",
                "0.03 pan changed (130,110) n=1 tr=[15,8] v=[0,0]",
                "0.04 pan ended (130,110) n=1 tr=[0,0] v=[0,0]",
            ])
        #expect(total == Vector(dx: 30, dy: 10))
    }

    /// `translation(in:)` and `velocity(in:)` convert through the view's transform (vectors:
    /// rotation and scale, no translation); `setTranslation(_:in:)` takes view coordinates.
    @Test func translationAndVelocityInARotatedScaledView() {
        let h = Harness()
        let sub = View(frame: Rect(x: 200, y: 200, width: 200, height: 200), name: "sub")
        // Scale 2 then a quarter turn clockwise: a view vector (x, y) is (−2y, 2x) in the window.
        sub.transform = AffineTransform(rotationAngle: .pi / 2).scaledBy(x: 2, y: 2)
        h.root.addSubview(sub)
        let pan = h.add(PanGestureRecognizer(name: "pan"), to: sub)
        h.frame(0, Finger.down(1, 300, 300))
        h.frame(0.01, Finger.move(1, 306, 300))
        h.frame(0.02, Finger.move(1, 312, 300))
        // Window (12, 0) is view (0, −6); window (600, 0) pt/s is view (0, −300).
        #expect(h.log.lines == ["0.02 pan began (312,300) n=1 tr=[12,0] v=[600,0]"])
        expectClose(pan.translation(in: sub), Vector(dx: 0, dy: -6))
        expectClose(pan.velocity(in: sub), Vector(dx: 0, dy: -300))
        expectClose(pan.translation(in: h.root), Vector(dx: 12, dy: 0))
        expectClose(pan.translation(in: nil), Vector(dx: 12, dy: 0))
        // The location converts points: window (312, 300) is (100, 94) in the view.
        let p = pan.location(in: sub)
        #expect(abs(p.x - 100) < 1e-9 && abs(p.y - 94) < 1e-9)
        // Set in view coordinates: (10, 0) in the view is (0, 20) in the window.
        pan.setTranslation(Vector(dx: 10, dy: 0), in: sub)
        expectClose(pan.translation(in: sub), Vector(dx: 10, dy: 0))
        expectClose(pan.translation(in: nil), Vector(dx: 0, dy: 20))
        h.frame(0.03, Finger.move(1, 312, 304))
        expectClose(pan.translation(in: nil), Vector(dx: 0, dy: 24))
        expectClose(pan.translation(in: sub), Vector(dx: 12, dy: 0))
    }

    @Test func cancelledTouchCancelsAnActivePan() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var fired: [GestureState] = []
        pan.addAction { fired.append($0.state) }
        dragRight12(h)
        h.frame(0.03, Finger.cancel(1))
        #expect(
            h.log.lines == [
                "0.02 pan began (112,100) n=1 tr=[12,0] v=[600,0]",
                "0.03 pan cancelled (112,100) n=1 tr=[12,0] v=[600,0]",
            ])
        #expect(fired == [.began, .cancelled])
        #expect(pan.state == .possible)
    }

    @Test func cancelledTouchFailsAPossiblePan() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.01, Finger.move(1, 105, 100))
        h.frame(0.02, Finger.cancel(1))
        #expect(h.log.lines == ["0.02 pan failed (105,100) n=1 tr=[5,0] v=[500,0]"])
    }

    @Test func disabledMidGestureCancels() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        dragRight12(h)
        pan.isEnabled = false
        h.frame(0.03, Finger.move(1, 118, 100))
        h.frame(0.04, Finger.up(1, 118, 100))
        #expect(
            h.log.lines == [
                "0.02 pan began (112,100) n=1 tr=[12,0] v=[600,0]",
                "0.02 pan cancelled (112,100) n=1 tr=[12,0] v=[600,0]",
            ])
        #expect(pan.state == .possible)
        // Enabled again, the next pan starts from zero.
        pan.isEnabled = true
        h.frame(1, Finger.down(2, 100, 100))
        h.frame(1.01, Finger.move(2, 100, 89))
        #expect(h.log.lines.last == "1.01 pan began (100,89) n=1 tr=[0,-11] v=[0,-1100]")
    }
}

func expectClose(_ a: Vector, _ b: Vector, tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation)
{
    #expect(
        abs(a.dx - b.dx) <= tolerance && abs(a.dy - b.dy) <= tolerance, "\(a) ≉ \(b)", sourceLocation: sourceLocation)
}

@MainActor
@Suite struct PanLiftPositionTests {
    /// docs/DESIGN.md §4.1's own example lifts 5.5 pt further than the last move: the ended translation
    /// includes the lift position.
    @Test func liftPositionCounts() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 200))
        h.frame(0.016, Finger.move(1, 120, 200))
        h.frame(0.1, Finger.up(1, 135, 200))
        #expect(h.log.lines.first == "0.016 pan began (120,200) n=1 tr=[20,0] v=[1250,0]")
        #expect(h.log.lines.last?.hasPrefix("0.1 pan ended (135,200) n=1 tr=[35,0]") == true)
    }

    /// One of two fingers lifts elsewhere than its last move: the translation takes that
    /// position, then re-bases on the remaining finger without a jump.
    @Test func oneOfTwoLiftsElsewhere() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100), Finger.down(2, 200, 100))
        h.frame(0.02, Finger.move(1, 120, 100), Finger.move(2, 220, 100))  // centroid +20
        h.frame(0.04, Finger.up(2, 240, 100))  // centroid of (120, 240) = 180: +30 in all
        #expect(abs(pan.translation(in: nil).dx - 30) < 1e-9)
        h.frame(0.06, Finger.move(1, 130, 100))  // one finger, +10 more
        #expect(abs(pan.translation(in: nil).dx - 40) < 1e-9)
    }
}
