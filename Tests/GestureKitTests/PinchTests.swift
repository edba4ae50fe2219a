import GestureKit
import GestureTestSupport
import Testing

/// PinchGestureRecognizer against docs/DESIGN.md §3: > 8 pt, scale = distance / distance at the
/// second touch-down, velocity in scale/s (least squares, worked by hand), re-basing when the
/// pair changes, frozen scale with one finger, third finger ignored, touchpad pinch input.
@MainActor
@Suite struct PinchTests {
    private func r(_ v: Double) -> String { LogRecorder.r(v) }

    /// Fingers 100 pt apart spreading 10 pt per 10 ms: scale +0.1 per 10 ms = 10 /s.
    @Test func spreadBeganChangedEnded() {
        let h = Harness()
        let p = h.add(PinchGestureRecognizer(name: "pinch"))
        var fired: [GestureState] = []
        p.addAction { fired.append($0.state) }
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        for i in 1...3 {
            let d = Double(i) * 5
            h.frame(Double(i) * 0.01, Finger.move(1, 400 - d, 300), Finger.move(2, 500 + d, 300))
        }
        #expect(abs(p.scale - 1.3) < 1e-12)
        #expect(abs(p.velocity - 10) < 1e-6)
        h.frame(0.04, Finger.up(1, 385, 300), Finger.up(2, 515, 300))
        #expect(
            h.log.lines == [
                "0.01 pinch began (450,300) n=2 scale=1.1 v=10",
                "0.02 pinch changed (450,300) n=2 scale=1.2 v=10",
                "0.03 pinch changed (450,300) n=2 scale=1.3 v=10",
                "0.04 pinch ended (450,300) n=2 scale=1.3 v=10",
            ])
        #expect(fired == [.began, .changed, .changed, .ended])
        #expect(p.state == .possible)
        #expect(p.scale == 1)
    }

    /// The base distance is taken when the second touch goes down, wherever the first one is.
    @Test func scaleIsRelativeToTheSecondTouchDown() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.05, Finger.move(1, 200, 100))
        h.frame(0.1, Finger.down(2, 200, 160))  // 60 pt apart (vertical)
        h.frame(0.11, Finger.move(2, 200, 130))  // 30 pt: scale 0.5
        h.frame(0.12, Finger.move(1, 200, 110))  // 20 pt: scale 1/3
        h.frame(0.13, Finger.up(1, 200, 110), Finger.up(2, 200, 130))
        // Samples (0.1, 1), (0.11, 0.5), (0.12, 1/3): t̄ = 1, x̄ = 11/18,
        // Σ(t−t̄)(x−x̄) = −(1 − 11/18) + (1/3 − 11/18) = −2/3, Σ(t−t̄)² = 2 → −1/3 per 10 ms.
        #expect(
            h.log.lines == [
                "0.11 pinch began (200,115) n=2 scale=0.5 v=-50",
                "0.12 pinch changed (200,120) n=2 scale=0.333 v=-33.333",
                "0.13 pinch ended (200,120) n=2 scale=0.333 v=-33.333",
            ])
    }

    /// Began once the distance has changed by more than 8 pt (out or in).
    @Test(arguments: [(8.0, false), (8.01, true), (-8.0, false), (-8.01, true)])
    func beganThreshold(change: Double, begins: Bool) {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        let x2 = 500 + change
        h.frame(0.1, Finger.move(2, x2, 300))
        h.frame(0.2, Finger.up(1, 400, 300), Finger.up(2, x2, 300))
        let s = (100 + change) / 100
        let mid = "(\(r((400 + x2) / 2)),300)"
        if begins {
            // Samples (0, 1) and (0.1, s): v = (s − 1) / 0.1; at the lift the newest is 100 ms old.
            #expect(
                h.log.lines == [
                    "0.1 pinch began \(mid) n=2 scale=\(r(s)) v=\(r((s - 1) / 0.1))",
                    "0.2 pinch ended \(mid) n=2 scale=\(r(s)) v=0",
                ])
        } else {
            // Fails when its touches are gone (no touch left: n=0), at the pair's last midpoint.
            #expect(h.log.lines == ["0.2 pinch failed \(mid) n=0 scale=\(r(s)) v=0"])
        }
    }

    /// One finger alone never begins; it fails at the lift.
    @Test func oneFingerFails() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 400, 300))
        h.frame(0.1, Finger.move(1, 500, 300))
        h.frame(0.2, Finger.up(1, 500, 300))
        #expect(h.log.states(of: "pinch") == [.failed])
        #expect(h.log.transitions.map(\.time) == [0.2])
        #expect(h.log.transitions.first?.values == .pinch(scale: 1, velocity: 0))
    }

    /// The same on the whole line: the location should be where the finger was.
    @Test
    func oneFingerFailsWhereTheFingerWas() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 400, 300))
        h.frame(0.1, Finger.move(1, 500, 300))
        h.frame(0.2, Finger.up(1, 500, 300))
        #expect(h.log.lines == ["0.2 pinch failed (500,300) n=0 scale=1 v=0"])
    }

    /// A tracked finger lifts (scale frozen, no line), another lands: the new pair is re-based so
    /// the scale carries on from where it was.
    @Test func fingerLiftsAndAnotherLandsWithoutJump() {
        let h = Harness()
        let p = h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        h.frame(0.01, Finger.move(2, 520, 300))  // 120 pt: 1.2
        h.frame(0.02, Finger.up(2, 520, 300))
        h.frame(0.03, Finger.move(1, 380, 300))  // alone: frozen
        #expect(abs(p.scale - 1.2) < 1e-12)
        #expect(p.state == .changed || p.state == .began)
        h.frame(0.04, Finger.down(3, 380, 400))  // new pair (1, 3), 100 pt apart: re-base
        #expect(abs(p.scale - 1.2) < 1e-12)
        h.frame(0.05, Finger.move(3, 380, 450))  // 150 pt: 1.2 × 1.5 = 1.8
        h.frame(0.06, Finger.up(1, 380, 300), Finger.up(3, 380, 450))
        // Samples (0, 1), (0.01, 1.2), (0.04, 1.2), (0.05, 1.8): in 10 ms units Σt = 10,
        // Σx = 5.2, Σt² = 42, Σtx = 15: (15 − 13) / (42 − 25) = 2/17 per 10 ms → 11.765 /s.
        #expect(
            h.log.lines == [
                "0.01 pinch began (460,300) n=2 scale=1.2 v=20",
                "0.05 pinch changed (380,375) n=2 scale=1.8 v=11.765",
                "0.06 pinch ended (380,375) n=2 scale=1.8 v=11.765",
            ])
    }

    /// A third finger is ignored while the pair is down; when a tracked finger lifts, the one
    /// already down takes its place, re-based.
    @Test func thirdFingerIgnoredThenTakesThePlace() {
        let h = Harness()
        let p = h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 520, 300), Finger.down(3, 520, 400))
        #expect(p.numberOfTouches == 2)
        h.frame(0.01, Finger.move(2, 540, 300))  // 140 / 120
        h.frame(0.02, Finger.move(3, 540, 500))  // ignored
        #expect(abs(p.scale - 140.0 / 120) < 1e-12)
        h.frame(0.03, Finger.up(1, 400, 300))  // pair becomes (2, 3), 200 pt apart
        #expect(abs(p.scale - 140.0 / 120) < 1e-12)
        h.frame(0.04, Finger.move(3, 540, 700))  // (2, 3) 400 pt apart: ×2
        h.frame(0.05, Finger.up(2, 540, 300), Finger.up(3, 540, 700))
        let s1 = 140.0 / 120
        // Samples 1, s1, s1, s1, 2·s1 at t 0…4 (×10 ms), t̄ = 2: Σ(t−t̄)x =
        // (−2)(1) + (−1)(s1) + 0 + (1)(s1) + (2)(2 s1) = 4 s1 − 2, over Σ(t−t̄)² = 10.
        let v = (4 * s1 - 2) / 10 * 100
        #expect(
            h.log.lines == [
                "0.01 pinch began (470,300) n=2 scale=\(r(s1)) v=\(r((s1 - 1) * 100))",
                "0.04 pinch changed (540,500) n=2 scale=\(r(2 * s1)) v=\(r(v))",
                "0.05 pinch ended (540,500) n=2 scale=\(r(2 * s1)) v=\(r(v))",
            ])
    }

    /// With one finger left the gesture stays active, its scale frozen, until the last lift.
    @Test func frozenScaleWithOneFinger() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        h.frame(0.01, Finger.move(2, 550, 300))
        h.frame(0.02, Finger.up(2, 550, 300))
        h.frame(0.03, Finger.move(1, 300, 300))
        h.frame(0.04, Finger.move(1, 100, 100))
        h.frame(0.06, Finger.up(1, 100, 100))
        // At 0.06 the newest sample (0.01) is 50 ms old: no velocity.
        #expect(
            h.log.lines == [
                "0.01 pinch began (475,300) n=2 scale=1.5 v=50",
                "0.06 pinch ended (475,300) n=1 scale=1.5 v=0",
            ])
    }

    /// Setting `scale` re-bases (the next distance change multiplies the new value) and zeroes
    /// the velocity.
    @Test func settingScaleRebases() {
        let h = Harness()
        let p = h.add(PinchGestureRecognizer(name: "pinch"))
        p.addAction { g in
            // The common idiom: apply the scale, then reset it to 1.
            if g.state == .began { (g as! PinchGestureRecognizer).scale = 1 }
        }
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        h.frame(0.01, Finger.move(2, 510, 300))  // 110: 1.1, then reset to 1 at base 110
        #expect(p.scale == 1)
        #expect(p.velocity == 0)
        h.frame(0.02, Finger.move(2, 521, 300))  // 121 / 110 = 1.1
        h.frame(0.03, Finger.move(2, 532, 300))  // 132 / 110 = 1.2
        p.scale = 2
        h.frame(0.04, Finger.move(2, 565, 300))  // 2 × 165 / 132 = 2.5
        h.frame(0.05, Finger.up(1, 400, 300), Finger.up(2, 565, 300))
        #expect(
            h.log.lines == [
                "0.01 pinch began (455,300) n=2 scale=1.1 v=10",
                "0.02 pinch changed (460.5,300) n=2 scale=1.1 v=0",
                "0.03 pinch changed (466,300) n=2 scale=1.2 v=10",
                "0.04 pinch changed (482.5,300) n=2 scale=2.5 v=0",
                "0.05 pinch ended (482.5,300) n=2 scale=2.5 v=0",
            ])
    }

    @Test func cancelledTouchCancels() {
        let h = Harness()
        let p = h.add(PinchGestureRecognizer(name: "pinch"))
        var fired: [GestureState] = []
        p.addAction { fired.append($0.state) }
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        h.frame(0.01, Finger.move(2, 480, 300))
        h.frame(0.02, Finger.cancel(2))
        h.frame(0.03, Finger.up(1, 400, 300))
        #expect(
            h.log.lines == [
                "0.01 pinch began (440,300) n=2 scale=0.8 v=-20",
                "0.02 pinch cancelled (440,300) n=2 scale=0.8 v=-20",
            ])
        #expect(fired == [.began, .cancelled])
    }

    @Test func cancelledTouchBeforeBeganFails() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        h.frame(0.01, Finger.move(2, 505, 300))
        h.frame(0.02, Finger.cancel(1))
        #expect(h.log.lines == ["0.02 pinch failed (452.5,300) n=2 scale=1.05 v=5"])
    }

    @Test func disabledMidGestureCancels() {
        let h = Harness()
        let p = h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        h.frame(0.01, Finger.move(2, 520, 300))
        p.isEnabled = false
        h.frame(0.02, Finger.move(2, 600, 300))
        h.frame(0.03, Finger.up(1, 400, 300), Finger.up(2, 600, 300))
        #expect(
            h.log.lines == [
                "0.01 pinch began (460,300) n=2 scale=1.2 v=20",
                "0.01 pinch cancelled (460,300) n=2 scale=1.2 v=20",
            ])
        #expect(p.state == .possible)
        #expect(p.scale == 1)
    }

    // MARK: Touchpad (XI 2.4) pinch

    private func pad(_ h: Harness, _ t: Double, _ phase: TouchpadPhase, scale: Double = 1, at p: Point? = nil) {
        h.dispatcher.handle(
            TouchpadPinch(timestamp: t, phase: phase, location: p ?? Point(x: 300, y: 200), scale: scale))
    }

    /// Absolute scale; begins at the first update that changes it; its end ends.
    @Test func touchpadPinch() {
        let h = Harness()
        let p = h.add(PinchGestureRecognizer(name: "pinch"))
        pad(h, 0, .begin)
        pad(h, 0.01, .update, scale: 1)
        #expect(h.log.lines.isEmpty)
        pad(h, 0.02, .update, scale: 1.25)
        pad(h, 0.03, .update, scale: 1.5, at: Point(x: 310, y: 205))
        pad(h, 0.04, .update, scale: 1.1, at: Point(x: 310, y: 205))  // absolute, not 1.5 × 1.1
        #expect(abs(p.scale - 1.1) < 1e-12)
        pad(h, 0.05, .end, scale: 1.1, at: Point(x: 310, y: 205))
        // Samples from the first update: 1, 1.25, 1.5, 1.1 at t 1…4 (×10 ms): t̄ 2.5,
        // x̄ 1.2125, Σ(t−t̄)(x−x̄) = 0.31875 − 0.01875 + 0.14375 − 0.16875 = 0.275, /5 → 5.5 /s.
        #expect(
            h.log.lines == [
                "0.02 pinch began (300,200) n=2 scale=1.25 v=25",
                "0.03 pinch changed (310,205) n=2 scale=1.5 v=25",
                "0.04 pinch changed (310,205) n=2 scale=1.1 v=5.5",
                "0.05 pinch ended (310,205) n=2 scale=1.1 v=5.5",
            ])
        #expect(p.state == .possible)
    }

    @Test func touchpadPinchWithoutChangeFails() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        pad(h, 0, .begin)
        pad(h, 0.01, .update, scale: 1)
        pad(h, 0.02, .end)
        #expect(h.log.lines == ["0.02 pinch failed (300,200) n=2 scale=1 v=0"])
    }

    /// A touchpad pinch that begins again without an end cancels the one under way — but a
    /// pinch that already failed in it (it requires another pinch to fail, and that one began)
    /// stays failed: no second failed transition (the arena's debug assertion traps on failed →
    /// failed; FuzzTests' random streams reach this case).
    @Test func touchpadPinchBeginAgainAfterFailing() {
        let h = Harness()
        let first = h.add(PinchGestureRecognizer(name: "first"))
        let second = h.add(PinchGestureRecognizer(name: "second"))
        second.require(toFail: first)
        pad(h, 0, .begin)
        pad(h, 0.01, .update, scale: 1.5)
        pad(h, 0.02, .begin)
        pad(h, 0.03, .end)
        #expect(
            h.log.lines == [
                "0.01 first began (300,200) n=2 scale=1.5 v=0",
                "0.01 second failed (300,200) n=2 scale=1 v=0",
                "0.02 first cancelled (300,200) n=2 scale=1.5 v=0",
                "0.03 first failed (300,200) n=2 scale=1 v=0",
                "0.03 second failed (300,200) n=2 scale=1 v=0",
            ])
        #expect(first.state == .possible && second.state == .possible)
    }

    @Test func touchpadPinchCancelCancels() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        pad(h, 0, .begin)
        pad(h, 0.01, .update, scale: 0.8)
        pad(h, 0.02, .cancel, scale: 0.8)
        #expect(
            h.log.lines == [
                "0.01 pinch began (300,200) n=2 scale=0.8 v=0",
                "0.02 pinch cancelled (300,200) n=2 scale=0.8 v=0",
            ])
        // Reset: touches work afterwards.
        h.frame(1, Finger.down(1, 300, 200), Finger.down(2, 400, 200))
        h.frame(1.01, Finger.move(2, 500, 200))
        #expect(h.log.lines.last == "1.01 pinch began (400,200) n=2 scale=2 v=100")
    }

    /// Setting `scale` re-bases touchpad input too: with the UIKit idiom (apply the scale, set it
    /// back to 1) the applied factors multiply up to the gesture's absolute scale, 2.
    @Test func touchpadPinchSettingScaleRebases() {
        let h = Harness()
        let p = h.add(PinchGestureRecognizer(name: "pinch"))
        var product = 1.0
        p.addAction { g in
            let pinch = g as! PinchGestureRecognizer
            product *= pinch.scale
            pinch.scale = 1
        }
        pad(h, 0, .begin)
        pad(h, 0.01, .update, scale: 1.25)
        pad(h, 0.02, .update, scale: 1.5)  // 1.5 / 1.25 = 1.2 since the reset
        pad(h, 0.03, .update, scale: 2)  // 2 / 1.5 = 1.333
        pad(h, 0.04, .end, scale: 2)
        #expect(abs(product - 2) < 1e-12)
        #expect(
            h.log.lines == [
                "0.01 pinch began (300,200) n=2 scale=1.25 v=0",
                "0.02 pinch changed (300,200) n=2 scale=1.2 v=0",
                "0.03 pinch changed (300,200) n=2 scale=1.333 v=0",
                "0.04 pinch ended (300,200) n=2 scale=1 v=0",
            ])
    }

    /// Touches landing during a touchpad gesture do not reach the pinch that has it.
    @Test func touchpadAndTouchesAreNotMixed() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        pad(h, 0, .begin)
        pad(h, 0.01, .update, scale: 1.5)
        h.frame(0.015, Finger.down(1, 100, 100), Finger.down(2, 200, 100))
        h.frame(0.02, Finger.move(2, 400, 100))
        pad(h, 0.03, .update, scale: 2)
        pad(h, 0.04, .end, scale: 2)
        h.frame(0.05, Finger.up(1, 100, 100), Finger.up(2, 400, 100))
        #expect(
            h.log.lines == [
                "0.01 pinch began (300,200) n=2 scale=1.5 v=0",
                "0.03 pinch changed (300,200) n=2 scale=2 v=25",
                "0.04 pinch ended (300,200) n=2 scale=2 v=25",
            ])
    }

    /// The touchpad gesture goes to the view under the pointer (and its ancestors).
    @Test func touchpadPinchGoesToTheViewUnderThePointer() {
        let h = Harness()
        let sub = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "sub")
        h.root.addSubview(sub)
        h.add(PinchGestureRecognizer(name: "sub"), to: sub)
        h.add(PinchGestureRecognizer(name: "root"))
        pad(h, 0, .begin, at: Point(x: 50, y: 50))
        pad(h, 0.01, .update, scale: 2, at: Point(x: 50, y: 50))
        pad(h, 0.02, .end, scale: 2, at: Point(x: 50, y: 50))
        pad(h, 1, .begin, at: Point(x: 500, y: 500))
        pad(h, 1.01, .update, scale: 0.5, at: Point(x: 500, y: 500))
        pad(h, 1.02, .end, scale: 0.5, at: Point(x: 500, y: 500))
        #expect(
            h.log.lines == [
                // Both are on the path; the deeper one begins first and the other, sharing the
                // gesture, fails (no simultaneous recognition by default).
                "0.01 sub began (50,50) n=2 scale=2 v=0",
                // root fails before it has seen the update: its scale is still 1.
                "0.01 root failed (50,50) n=2 scale=1 v=0",
                "0.02 sub ended (50,50) n=2 scale=2 v=0",
                "1.01 root began (500,500) n=2 scale=0.5 v=0",
                "1.02 root ended (500,500) n=2 scale=0.5 v=0",
            ])
    }
}
