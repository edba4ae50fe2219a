import GestureKit
import GestureTestSupport
import Testing

/// LongPressGestureRecognizer against docs/DESIGN.md §3: 0.5 s, 10 pt before began only, touch
/// counts, lifting early.
@MainActor
@Suite struct LongPressTests {
    private func r(_ v: Double) -> String { LogRecorder.r(v) }

    @Test func beganChangedEnded() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        var fired: [GestureState] = []
        lp.addAction { fired.append($0.state) }
        h.frame(0, Finger.down(1, 100, 100))
        h.wait(0.49)
        #expect(h.log.lines.isEmpty)
        h.wait(1)
        #expect(lp.state == .began)
        // After began the movement limit no longer applies.
        h.frame(1, Finger.move(1, 150, 100))
        h.frame(1.1, Finger.move(1, 150, 180))
        h.frame(1.2, Finger.up(1, 150, 180))
        #expect(
            h.log.lines == [
                "0.5 lp began (100,100) n=1",
                "1 lp changed (150,100) n=1",
                "1.1 lp changed (150,180) n=1",
                "1.2 lp ended (150,180) n=1",
            ])
        #expect(fired == [.began, .changed, .changed, .ended])
        #expect(lp.state == .possible)
    }

    /// The press must last 0.5 s: lifting before fails at the lift; after, it has begun at 0.5.
    @Test(arguments: [0.1, 0.49, 0.51, 0.8])
    func duration(lift: Double) {
        let h = Harness()
        h.add(LongPressGestureRecognizer(name: "lp"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(lift, Finger.up(1, 100, 100))
        if lift < 0.5 {
            #expect(h.log.lines == ["\(r(lift)) lp failed (100,100) n=1"])
        } else {
            #expect(h.log.lines == ["0.5 lp began (100,100) n=1", "\(r(lift)) lp ended (100,100) n=1"])
        }
    }

    @Test func customDuration() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        lp.minimumPressDuration = 1.25
        h.frame(0.25, Finger.down(1, 100, 100))
        h.wait(1.4)
        #expect(h.log.lines.isEmpty)
        h.wait(1.5)
        #expect(h.log.lines == ["1.5 lp began (100,100) n=1"])
    }

    /// Before began, a touch may move up to 10 pt from where it went down.
    @Test(arguments: [
        (6.0, 8.0, true),  // exactly 10 pt
        (6.0, 8.01, false),
        (-10.0, 0.0, true),
        (0.0, 10.01, false),
    ])
    func movementLimitBeforeBegan(dx: Double, dy: Double, begins: Bool) {
        let h = Harness()
        h.add(LongPressGestureRecognizer(name: "lp"))
        let x = 100 + dx
        let y = 100 + dy
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.2, Finger.move(1, x, y))
        h.frame(0.7, Finger.up(1, x, y))
        if begins {
            #expect(
                h.log.lines == [
                    "0.5 lp began (\(r(x)),\(r(y))) n=1", "0.7 lp ended (\(r(x)),\(r(y))) n=1",
                ])
        } else {
            #expect(h.log.lines == ["0.2 lp failed (\(r(x)),\(r(y))) n=1"])
        }
    }

    /// More touches than required fails at the extra touch-down.
    @Test func tooManyTouchesFails() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(name: "lp"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.2, Finger.down(2, 200, 100))
        h.wait(1)
        h.frame(1, Finger.up(1, 100, 100), Finger.up(2, 200, 100))
        #expect(h.log.lines == ["0.2 lp failed (150,100) n=2"])
    }

    /// Two touches required: the duration counts from the moment both are down.
    @Test func twoTouchesRequired() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        lp.numberOfTouchesRequired = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.25, Finger.down(2, 200, 100))
        h.wait(0.7)
        #expect(h.log.lines.isEmpty)
        h.wait(1)
        // Ended when the number of touches down falls below the requirement.
        h.frame(1, Finger.up(2, 200, 100))
        h.frame(1.1, Finger.up(1, 100, 100))
        #expect(h.log.lines == ["0.75 lp began (150,100) n=2", "1 lp ended (150,100) n=2"])
    }

    @Test func twoTouchesRequiredOneLiftsEarlyFails() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        lp.numberOfTouchesRequired = 2
        h.frame(0, Finger.down(1, 100, 100), Finger.down(2, 200, 100))
        h.frame(0.3, Finger.up(2, 200, 100))
        h.wait(1)
        h.frame(1, Finger.up(1, 100, 100))
        #expect(h.log.lines == ["0.3 lp failed (150,100) n=2"])
    }

    /// Too few touches: one finger held with two required never begins; it fails at its lift.
    @Test func tooFewTouchesNeverBegins() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        lp.numberOfTouchesRequired = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.wait(2)
        h.frame(2, Finger.up(1, 100, 100))
        #expect(h.log.lines == ["2 lp failed (100,100) n=1"])
    }

    /// A touch landing after began is ignored (the documented deviation).
    @Test func extraTouchAfterBeganIsIgnored() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(name: "lp"))
        h.frame(0, Finger.down(1, 100, 100))
        h.wait(0.6)
        h.frame(0.6, Finger.down(2, 300, 100))
        h.frame(0.7, Finger.up(2, 300, 100))
        h.frame(0.8, Finger.up(1, 100, 100))
        #expect(h.log.lines == ["0.5 lp began (100,100) n=1", "0.8 lp ended (100,100) n=1"])
    }

    /// `numberOfTapsRequired` 1: a quick tap, then the press.
    @Test func tapThenPress() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        lp.numberOfTapsRequired = 1
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        h.frame(0.2, Finger.down(2, 102, 100))
        h.wait(1)
        h.frame(1, Finger.up(2, 102, 100))
        #expect(h.log.lines == ["0.7 lp began (102,100) n=1", "1 lp ended (102,100) n=1"])
    }

    @Test
    func tapThenPressTooLateFails() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        lp.numberOfTapsRequired = 1
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        h.wait(0.45)
        #expect(h.log.lines == ["0.4 lp failed (100,100) n=0"])
    }

    /// The same path, on the states and times only: the tap-gap deadline (0.1 + 0.3 s) fails it.
    @Test func tapThenPressTooLateFailsAtTheGapDeadline() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        lp.numberOfTapsRequired = 1
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        h.wait(0.39)
        #expect(h.log.transitions.isEmpty)
        h.wait(0.45)
        #expect(h.log.states(of: "lp") == [.failed])
        #expect(abs((h.log.transitions.first?.time ?? 0) - 0.4) < 1e-9)
    }

    @Test func cancelledTouchBeforeBeganFails() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(name: "lp"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.2, Finger.cancel(1))
        h.wait(1)
        #expect(h.log.lines == ["0.2 lp failed (100,100) n=1"])
    }

    @Test func cancelledTouchAfterBeganCancels() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        var fired: [GestureState] = []
        lp.addAction { fired.append($0.state) }
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.6, Finger.move(1, 120, 100))
        h.frame(0.7, Finger.cancel(1))
        #expect(
            h.log.lines == [
                "0.5 lp began (100,100) n=1", "0.6 lp changed (120,100) n=1", "0.7 lp cancelled (120,100) n=1",
            ])
        #expect(fired == [.began, .changed, .cancelled])
        #expect(lp.state == .possible)
    }

    @Test func disabledAfterBeganCancels() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        h.frame(0, Finger.down(1, 100, 100))
        h.wait(0.6)
        lp.isEnabled = false
        h.frame(0.7, Finger.move(1, 130, 100))
        h.frame(0.8, Finger.up(1, 130, 100))
        #expect(h.log.lines == ["0.5 lp began (100,100) n=1", "0.6 lp cancelled (100,100) n=1"])
        #expect(lp.state == .possible)
    }

    @Test func disabledBeforeBeganIsSilent() {
        let h = Harness()
        let lp = h.add(LongPressGestureRecognizer(name: "lp"))
        h.frame(0, Finger.down(1, 100, 100))
        h.wait(0.3)
        lp.isEnabled = false
        h.wait(1)
        h.frame(1, Finger.up(1, 100, 100))
        lp.isEnabled = true
        h.frame(2, Finger.down(2, 100, 100))
        h.frame(3, Finger.up(2, 100, 100))
        #expect(h.log.lines == ["2.5 lp began (100,100) n=1", "3 lp ended (100,100) n=1"])
    }
}
