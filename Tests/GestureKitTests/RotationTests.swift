import GestureKit
import GestureTestSupport
import RealModule
import Testing

/// RotationGestureRecognizer against docs/DESIGN.md §3: > 0.05 rad, clockwise positive with y down,
/// unwrapped through ±π and past 2π, re-basing, setting `rotation`, rad/s, touchpad angles.
@MainActor
@Suite struct RotationTests {
    private func r(_ v: Double) -> String { LogRecorder.r(v) }

    /// Two fingers 100 pt apart, symmetric about (450, 300); the line 1 → 2 at angle `a`.
    private func pair(_ a: Double) -> (TouchChange, TouchChange) {
        let c = Double.cos(a) * 50
        let s = Double.sin(a) * 50
        return (Finger.move(1, 450 - c, 300 - s), Finger.move(2, 450 + c, 300 + s))
    }

    private func turn(_ h: Harness, _ t: Double, _ a: Double) {
        let (f1, f2) = pair(a)
        h.frame(t, f1, f2)
    }

    private func down(_ h: Harness) {
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
    }

    private func lift(_ h: Harness, _ t: Double, _ a: Double) {
        let (f1, f2) = pair(a)
        h.frame(t, Finger.up(1, f1.location.x, f1.location.y), Finger.up(2, f2.location.x, f2.location.y))
    }

    /// 0.1 rad per 10 ms = 10 rad/s.
    @Test func beganChangedEnded() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        var fired: [GestureState] = []
        rot.addAction { fired.append($0.state) }
        down(h)
        for i in 1...3 { turn(h, Double(i) * 0.01, Double(i) * 0.1) }
        #expect(abs(rot.rotation - 0.3) < 1e-12)
        #expect(abs(rot.velocity - 10) < 1e-6)
        lift(h, 0.04, 0.3)
        #expect(
            h.log.lines == [
                "0.01 rot began (450,300) n=2 rot=0.1 v=10",
                "0.02 rot changed (450,300) n=2 rot=0.2 v=10",
                "0.03 rot changed (450,300) n=2 rot=0.3 v=10",
                "0.04 rot ended (450,300) n=2 rot=0.3 v=10",
            ])
        #expect(fired == [.began, .changed, .changed, .ended])
        #expect(rot.rotation == 0)
    }

    /// Began once |rotation| > 0.05 rad, either way.
    @Test(arguments: [(0.049, false), (0.051, true), (-0.049, false), (-0.051, true)])
    func beganThreshold(angle: Double, begins: Bool) {
        let h = Harness()
        h.add(RotationGestureRecognizer(name: "rot"))
        down(h)
        turn(h, 0.1, angle)
        lift(h, 0.2, angle)
        if begins {
            #expect(
                h.log.lines == [
                    "0.1 rot began (450,300) n=2 rot=\(r(angle)) v=\(r(angle * 10))",
                    "0.2 rot ended (450,300) n=2 rot=\(r(angle)) v=0",
                ])
        } else {
            #expect(h.log.lines == ["0.2 rot failed (450,300) n=0 rot=\(r(angle)) v=0"])
        }
    }

    /// Clockwise on screen (y down) is positive: the right-hand finger moving down.
    @Test func clockwiseIsPositive() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        h.frame(0.1, Finger.move(2, 500, 310))
        #expect(abs(rot.rotation - Double.atan(0.1)) < 1e-12)  // 0.0997
        h.frame(0.2, Finger.move(2, 500, 290))
        #expect(abs(rot.rotation + Double.atan(0.1)) < 1e-12)
        // The first finger moving down turns the line counterclockwise.
        h.frame(0.3, Finger.move(1, 400, 320), Finger.move(2, 500, 300))
        #expect(abs(rot.rotation + Double.atan(0.2)) < 1e-12)
    }

    /// Steps of 0.25 rad every 10 ms from 0 to 7 rad: through +π (where atan2 jumps to −π) and
    /// past a full turn, the rotation reads the unwrapped angle, and the velocity stays 25 rad/s.
    @Test(arguments: [1.0, -1.0])
    func throughPiAndPastAFullTurn(sign: Double) {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        down(h)
        var expected: [String] = []
        for i in 1...28 {
            let t = Double(i) * 0.01
            let a = sign * Double(i) * 0.25
            turn(h, t, a)
            let state = i == 1 ? "began" : "changed"
            expected.append("\(r(t)) rot \(state) (450,300) n=2 rot=\(r(a)) v=\(r(sign * 25))")
        }
        #expect(abs(rot.rotation - sign * 7) < 1e-9)
        lift(h, 0.29, sign * 7)
        expected.append("0.29 rot ended (450,300) n=2 rot=\(r(sign * 7)) v=\(r(sign * 25))")
        #expect(h.log.lines == expected)
        #expect(expected.contains("0.13 rot changed (450,300) n=2 rot=\(r(sign * 3.25)) v=\(r(sign * 25))"))
    }

    /// Exactly one full turn reads 2π (not 0), and going back reads 0 again.
    @Test func fullTurnReadsTwoPi() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        down(h)
        for i in 1...8 { turn(h, Double(i) * 0.01, Double(i) * .pi / 4) }
        #expect(abs(rot.rotation - 2 * .pi) < 1e-12)
        for i in 1...8 { turn(h, 0.08 + Double(i) * 0.01, 2 * .pi - Double(i) * .pi / 4) }
        #expect(abs(rot.rotation) < 1e-12)
        #expect(h.log.lines[7] == "0.08 rot changed (450,300) n=2 rot=6.283 v=78.54")
    }

    /// A tracked finger lifts and another lands: the rotation carries on without a jump.
    @Test func fingerLiftsAndAnotherLandsWithoutJump() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        // Finger 1 stays at (400, 300); finger 2 orbits it at 100 pt.
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        let p2 = Point(x: 400 + 100 * Double.cos(0.2), y: 300 + 100 * Double.sin(0.2))
        h.frame(0.01, Finger.move(2, p2.x, p2.y))
        h.frame(0.02, Finger.up(2, p2.x, p2.y))
        h.frame(0.03, Finger.down(3, 400, 400))  // straight below: the line 1 → 3 is at π/2
        #expect(abs(rot.rotation - 0.2) < 1e-12)
        let p3 = Point(x: 400 + 100 * Double.cos(.pi / 2 + 0.3), y: 300 + 100 * Double.sin(.pi / 2 + 0.3))
        h.frame(0.04, Finger.move(3, p3.x, p3.y))
        #expect(abs(rot.rotation - 0.5) < 1e-12)
        h.frame(0.05, Finger.up(1, 400, 300), Finger.up(3, p3.x, p3.y))
        // Samples (0, 0), (0.01, 0.2), (0.03, 0.2), (0.04, 0.5), in 10 ms units: Σt 8, Σx 0.9,
        // Σt² 26, Σtx 2.8: (2.8 − 1.8) / (26 − 16) = 0.1 per 10 ms = 10 rad/s.
        let m1 = "(\(r((400 + p2.x) / 2)),\(r((300 + p2.y) / 2)))"
        let m2 = "(\(r((400 + p3.x) / 2)),\(r((300 + p3.y) / 2)))"
        #expect(
            h.log.lines == [
                "0.01 rot began \(m1) n=2 rot=0.2 v=20",
                "0.04 rot changed \(m2) n=2 rot=0.5 v=10",
                "0.05 rot ended \(m2) n=2 rot=0.5 v=10",
            ])
    }

    /// The first finger of the pair lifts and a third one, already down, takes its place.
    @Test func firstFingerLiftsAndOneAlreadyDownTakesItsPlace() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300), Finger.down(3, 500, 200))
        h.frame(0.01, Finger.move(1, 400, 310))  // line 1 → 2 turns counterclockwise
        let a1 = -Double.atan(0.1)
        #expect(abs(rot.rotation - a1) < 1e-12)
        h.frame(0.02, Finger.move(3, 600, 200))  // ignored
        #expect(abs(rot.rotation - a1) < 1e-12)
        h.frame(0.03, Finger.up(1, 400, 310))  // pair (2, 3): the line 2 → 3 at atan2(−100, 100)
        #expect(abs(rot.rotation - a1) < 1e-12)
        h.frame(0.04, Finger.move(3, 500, 200))  // 2 → 3 straight up: a further −π/4
        #expect(abs(rot.rotation - (a1 - .pi / 4)) < 1e-12)
        #expect(h.log.states(of: "rot") == [.began, .changed])
    }

    /// Setting `rotation` re-bases and zeroes the velocity.
    @Test func settingRotationRebases() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        down(h)
        turn(h, 0.01, 0.1)
        rot.rotation = 0
        #expect(rot.velocity == 0)
        turn(h, 0.02, 0.25)
        turn(h, 0.03, 0.35)
        rot.rotation = 1
        turn(h, 0.04, 0.45)
        lift(h, 0.05, 0.45)
        #expect(
            h.log.lines == [
                "0.01 rot began (450,300) n=2 rot=0.1 v=10",
                "0.02 rot changed (450,300) n=2 rot=0.15 v=0",
                "0.03 rot changed (450,300) n=2 rot=0.25 v=10",
                "0.04 rot changed (450,300) n=2 rot=1.1 v=0",
                "0.05 rot ended (450,300) n=2 rot=1.1 v=0",
            ])
    }

    /// A third finger moving does not turn the pair; one finger left freezes the rotation.
    @Test func thirdFingerIgnoredAndFrozenWithOne() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        down(h)
        h.frame(0.005, Finger.down(3, 450, 500))
        turn(h, 0.01, 0.1)
        h.frame(0.02, Finger.move(3, 100, 100))
        #expect(abs(rot.rotation - 0.1) < 1e-12)
        let (_, f2) = pair(0.1)
        h.frame(0.03, Finger.up(2, f2.location.x, f2.location.y), Finger.up(3, 100, 100))
        h.frame(0.04, Finger.move(1, 200, 600))
        #expect(abs(rot.rotation - 0.1) < 1e-12)
        h.frame(0.1, Finger.up(1, 200, 600))
        #expect(h.log.states(of: "rot") == [.began, .ended])
        #expect(h.log.lines.last == "0.1 rot ended (450,300) n=1 rot=0.1 v=0")
    }

    @Test func cancelledTouchCancels() {
        let h = Harness()
        h.add(RotationGestureRecognizer(name: "rot"))
        down(h)
        turn(h, 0.01, -0.2)
        h.frame(0.02, Finger.cancel(1))
        #expect(
            h.log.lines == [
                "0.01 rot began (450,300) n=2 rot=-0.2 v=-20",
                "0.02 rot cancelled (450,300) n=2 rot=-0.2 v=-20",
            ])
    }

    @Test func cancelledTouchBeforeBeganFails() {
        let h = Harness()
        h.add(RotationGestureRecognizer(name: "rot"))
        down(h)
        turn(h, 0.01, 0.04)
        h.frame(0.02, Finger.cancel(2))
        #expect(h.log.lines == ["0.02 rot failed (450,300) n=2 rot=0.04 v=4"])
    }

    @Test func disabledMidGestureCancels() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        down(h)
        turn(h, 0.01, 0.3)
        rot.isEnabled = false
        turn(h, 0.02, 0.6)
        lift(h, 0.03, 0.6)
        #expect(
            h.log.lines == [
                "0.01 rot began (450,300) n=2 rot=0.3 v=30",
                "0.01 rot cancelled (450,300) n=2 rot=0.3 v=30",
            ])
        #expect(rot.rotation == 0)
    }

    // MARK: Touchpad (XI 2.4)

    private func pad(_ h: Harness, _ t: Double, _ phase: TouchpadPhase, angle: Double = 0, scale: Double = 1) {
        h.dispatcher.handle(
            TouchpadPinch(timestamp: t, phase: phase, location: Point(x: 300, y: 200), scale: scale, angleDelta: angle))
    }

    /// Angle deltas in degrees, accumulated, in radians; begins at the first update that turns.
    @Test func touchpadAngles() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        pad(h, 0, .begin)
        pad(h, 0.01, .update, angle: 0, scale: 1.2)  // a pinch only: no rotation
        #expect(h.log.lines.isEmpty)
        pad(h, 0.02, .update, angle: 9)  // π/20 = 0.15708
        pad(h, 0.03, .update, angle: -4.5)  // π/40 = 0.07854
        #expect(abs(rot.rotation - .pi / 40) < 1e-12)
        pad(h, 0.04, .end)
        // Samples 0, π/20, π/40 at t 1…3 (×10 ms): slope (π/40 − 0) / 2 per 10 ms = 3.927 rad/s.
        #expect(
            h.log.lines == [
                "0.02 rot began (300,200) n=2 rot=0.157 v=15.708",
                "0.03 rot changed (300,200) n=2 rot=0.079 v=3.927",
                "0.04 rot ended (300,200) n=2 rot=0.079 v=3.927",
            ])
    }

    /// 36 updates of 10° make a full turn: 2π, unwrapped.
    @Test func touchpadFullTurn() {
        let h = Harness()
        let rot = h.add(RotationGestureRecognizer(name: "rot"))
        pad(h, 0, .begin)
        for i in 1...36 { pad(h, Double(i) * 0.01, .update, angle: 10) }
        #expect(abs(rot.rotation - 2 * .pi) < 1e-12)
        pad(h, 0.37, .end)
        #expect(h.log.lines.count == 37)
        // 10° per 10 ms = 17.453 rad/s.
        #expect(h.log.lines.last == "0.37 rot ended (300,200) n=2 rot=6.283 v=17.453")
    }

    @Test func touchpadWithoutTurnFailsAndCancelCancels() {
        let h = Harness()
        h.add(RotationGestureRecognizer(name: "rot"))
        pad(h, 0, .begin)
        pad(h, 0.01, .update, scale: 1.5)
        pad(h, 0.02, .end, scale: 1.5)
        pad(h, 1, .begin)
        pad(h, 1.01, .update, angle: -90)
        pad(h, 1.02, .cancel)
        #expect(
            h.log.lines == [
                "0.02 rot failed (300,200) n=2 rot=0 v=0",
                "1.01 rot began (300,200) n=2 rot=-1.571 v=0",
                "1.02 rot cancelled (300,200) n=2 rot=-1.571 v=0",
            ])
    }
}
