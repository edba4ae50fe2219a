import GestureKit
import GestureTestSupport
import Testing

/// TapGestureRecognizer against docs/DESIGN.md §3: 10 pt movement, 0.5 s hold, 0.3 s gap, 40 pt
/// between taps, touch counts. Times are virtual seconds; every test asserts the whole log.
@MainActor
@Suite struct TapTests {
    private func r(_ v: Double) -> String { LogRecorder.r(v) }

    @Test func singleTapRecognizedAtLiftWithActionAndReset() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        var fired: [GestureState] = []
        tap.addAction { fired.append($0.state) }
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, 103, 104))
        #expect(tap.state == .possible)
        h.frame(0.2, Finger.up(1, 103, 104))
        #expect(h.log.lines == ["0.2 tap ended (103,104) n=1 taps=1 touches=1"])
        #expect(fired == [.ended])
        // Reset once its touches have ended: a second tap is recognized again.
        #expect(tap.state == .possible)
        h.frame(1, Finger.down(2, 300, 300))
        h.frame(1.1, Finger.up(2, 300, 300))
        #expect(
            h.log.lines == [
                "0.2 tap ended (103,104) n=1 taps=1 touches=1",
                "1.1 tap ended (300,300) n=1 taps=1 touches=1",
            ])
        #expect(fired == [.ended, .ended])
    }

    /// Every touch stays within 10 pt of where it went down (10 is allowed, a hair more fails at
    /// the move that goes too far).
    @Test(arguments: [
        (6.0, 8.0, true),  // exactly 10 pt
        (6.0, 8.01, false),
        (0.0, -10.0, true),
        (-10.01, 0.0, false),
    ])
    func movementLimit(dx: Double, dy: Double, recognized: Bool) {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        let x = 100 + dx
        let y = 100 + dy
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, x, y))
        h.frame(0.2, Finger.up(1, x, y))
        if recognized {
            #expect(h.log.lines == ["0.2 tap ended (\(r(x)),\(r(y))) n=1 taps=1 touches=1"])
        } else {
            #expect(h.log.lines == ["0.1 tap failed (\(r(x)),\(r(y))) n=1 taps=0 touches=1"])
        }
    }

    /// Moving out of the 10 pt disc and back still fails (at the move out).
    @Test func movingOutAndBackFails() {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.05, Finger.move(1, 111, 100))
        h.frame(0.1, Finger.move(1, 100, 100))
        h.frame(0.15, Finger.up(1, 100, 100))
        #expect(h.log.lines == ["0.05 tap failed (111,100) n=1 taps=0 touches=1"])
    }

    /// The touch must lift within 0.5 s (inclusive); held longer, the tap fails when 0.5 s have
    /// passed, not at the lift.
    @Test(arguments: [(0.49, true), (0.5, true), (0.51, false)])
    func holdDuration(lift: Double, recognized: Bool) {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(lift, Finger.up(1, 100, 100))
        if recognized {
            #expect(h.log.lines == ["\(r(lift)) tap ended (100,100) n=1 taps=1 touches=1"])
        } else {
            #expect(h.log.lines == ["0.5 tap failed (100,100) n=1 taps=0 touches=1"])
        }
    }

    /// A double tap: the second tap must start within 0.3 s of the first lift (no minimum gap).
    @Test(arguments: [0.0, 0.1, 0.29])
    func doubleTapWithinGap(gap: Double) {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "double"))
        tap.numberOfTapsRequired = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        let t2 = 0.1 + gap
        h.frame(t2, Finger.down(2, 104, 103))
        h.frame(t2 + 0.1, Finger.up(2, 104, 103))
        h.wait(2)
        #expect(h.log.lines == ["\(r(t2 + 0.1)) double ended (104,103) n=1 taps=2 touches=1"])
    }

    @Test func doubleTapGapTooLongFailsAtTheDeadline() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "double"))
        tap.numberOfTapsRequired = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        h.frame(0.41, Finger.down(2, 100, 100))  // 0.31 s after the lift
        h.frame(0.51, Finger.up(2, 100, 100))
        h.wait(2)
        // The first sequence fails 0.3 s after its lift; the late tap starts a new sequence,
        // which in turn times out.
        #expect(
            h.log.lines == [
                "0.4 double failed (100,100) n=0 taps=1 touches=1",
                "0.81 double failed (100,100) n=0 taps=1 touches=1",
            ])
    }

    /// Later taps land within 40 pt of the first (its lift centroid).
    @Test(arguments: [
        (140.0, 100.0, true),  // 40 pt
        (124.0, 132.0, true),  // 40 pt diagonally (24, 32)
        (140.5, 100.0, false),
    ])
    func multiTapDistance(x: Double, y: Double, recognized: Bool) {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "double"))
        tap.numberOfTapsRequired = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        h.frame(0.2, Finger.down(2, x, y))
        h.frame(0.3, Finger.up(2, x, y))
        h.wait(2)
        if recognized {
            #expect(h.log.lines == ["0.3 double ended (\(r(x)),\(r(y))) n=1 taps=2 touches=1"])
        } else {
            // Fails at the touch-down of the second tap; the location is that of the first tap.
            #expect(h.log.lines == ["0.2 double failed (100,100) n=1 taps=1 touches=1"])
        }
    }

    /// A two-finger double tap with the fingers 200 pt apart: the second tap's centroid (where
    /// its fingers landed, taken when the second finger lands) must be within 40 pt of the first
    /// tap's (where its fingers lifted); the fingers' own distances from it do not matter.
    /// `second` is where the second tap's two fingers land, one after the other.
    @Test(arguments: [
        ([Point(x: 105, y: 300), Point(x: 305, y: 300)], true),  // 5 pt off
        ([Point(x: 140, y: 300), Point(x: 340, y: 300)], true),  // 40 pt
        ([Point(x: 124, y: 332), Point(x: 324, y: 332)], true),  // 40 pt diagonally (24, 32)
        ([Point(x: 300, y: 300), Point(x: 100, y: 300)], true),  // fingers swapped: same centroid
        ([Point(x: 150, y: 300), Point(x: 350, y: 300)], false),  // 50 pt off
        ([Point(x: 140.5, y: 300), Point(x: 340.5, y: 300)], false),  // 40.5 pt
        // The first finger on the first tap's centroid, the centroid 50 pt off.
        ([Point(x: 200, y: 300), Point(x: 300, y: 300)], false),
    ])
    func twoFingerDoubleTapComparesCentroids(second: [Point], recognized: Bool) {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "double"))
        tap.numberOfTouchesRequired = 2
        tap.numberOfTapsRequired = 2
        h.frame(0, Finger.down(1, 100, 300))
        h.frame(0.02, Finger.down(2, 300, 300))
        h.frame(0.1, Finger.up(1, 100, 300), Finger.up(2, 300, 300))
        h.frame(0.2, Finger.down(3, second[0].x, second[0].y))
        h.frame(0.22, Finger.down(4, second[1].x, second[1].y))
        h.frame(0.3, Finger.up(3, second[0].x, second[0].y), Finger.up(4, second[1].x, second[1].y))
        h.wait(2)
        if recognized {
            let c = "(\(r((second[0].x + second[1].x) / 2)),\(r((second[0].y + second[1].y) / 2)))"
            #expect(h.log.lines == ["0.3 double ended \(c) n=2 taps=2 touches=2"])
        } else {
            // Fails when the second finger of the second tap lands; the location is the first tap's.
            #expect(h.log.lines == ["0.22 double failed (200,300) n=2 taps=1 touches=2"])
        }
    }

    /// Three fingers 150 pt apart, a triple tap whose taps land in different finger orders.
    @Test func threeFingerTripleTapFarApart() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "triple"))
        tap.numberOfTouchesRequired = 3
        tap.numberOfTapsRequired = 3
        let xs: [[Double]] = [[100, 250, 400], [402, 252, 102], [250, 104, 398]]
        var id = 0
        for (k, order) in xs.enumerated() {
            let t = Double(k) * 0.25
            for (j, x) in order.enumerated() {
                id += 1
                h.frame(t + 0.01 * Double(j), Finger.down(id, x, 200))
            }
            h.frame(
                t + 0.1, Finger.up(id - 2, order[0], 200), Finger.up(id - 1, order[1], 200),
                Finger.up(id, order[2], 200))
        }
        h.wait(2)
        #expect(h.log.lines == ["0.6 triple ended (250.667,200) n=3 taps=3 touches=3"])
    }

    @Test func tripleTap() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "triple"))
        tap.numberOfTapsRequired = 3
        for i in 0..<3 {
            let t = Double(i) * 0.25
            h.frame(t, Finger.down(i + 1, 200, 200))
            h.frame(t + 0.125, Finger.up(i + 1, 201, 200))
        }
        h.wait(2)
        #expect(h.log.lines == ["0.625 triple ended (201,200) n=1 taps=3 touches=1"])
    }

    @Test func twoFingerTapLocationIsTheLiftCentroid() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "two"))
        tap.numberOfTouchesRequired = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.05, Finger.down(2, 140, 120))
        h.frame(0.2, Finger.up(1, 102, 100), Finger.up(2, 140, 122))
        #expect(h.log.lines == ["0.2 two ended (121,111) n=2 taps=1 touches=2"])
    }

    /// Fingers of one tap may lift one after the other: recognized at the last lift.
    @Test func twoFingerTapStaggeredLift() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "two"))
        tap.numberOfTouchesRequired = 2
        h.frame(0, Finger.down(1, 100, 100), Finger.down(2, 140, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        #expect(h.log.lines.isEmpty)
        h.frame(0.2, Finger.up(2, 140, 100))
        #expect(h.log.lines == ["0.2 two ended (120,100) n=1 taps=1 touches=2"])
    }

    /// More touches than required fails at once, at the touch-down of the extra one.
    @Test(arguments: [1, 2])
    func tooManyTouches(required: Int) {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        tap.numberOfTouchesRequired = required
        for i in 0..<required { h.frame(Double(i) * 0.01, Finger.down(i + 1, 100 + Double(i) * 30, 100)) }
        let extra = required + 1
        h.frame(0.1, Finger.down(extra, 100 + Double(required) * 30, 100))
        for i in 1...extra { h.frame(0.2, Finger.up(i, 100 + Double(i - 1) * 30, 100)) }
        let cx = 100 + Double(required) * 15  // centroid of 100, 130, … (extra) touches
        #expect(h.log.lines == ["0.1 tap failed (\(r(cx)),100) n=\(extra) taps=0 touches=\(extra)"])
    }

    /// Fewer touches than required fails at the last lift.
    @Test func tooFewTouches() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "two"))
        tap.numberOfTouchesRequired = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 101, 100))
        #expect(h.log.lines == ["0.1 two failed (101,100) n=1 taps=0 touches=1"])
    }

    /// A second finger landing after the first lifted is a new tap, so a two-finger tap done
    /// one finger at a time fails at the first lift.
    @Test func twoFingerTapWithoutOverlapFails() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "two"))
        tap.numberOfTouchesRequired = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        h.frame(0.15, Finger.down(2, 110, 100))
        h.frame(0.2, Finger.up(2, 110, 100))
        #expect(
            h.log.lines == [
                "0.1 two failed (100,100) n=1 taps=0 touches=1",
                "0.2 two failed (110,100) n=1 taps=0 touches=1",
            ])
    }

    /// A cancelled touch fails a tap (a discrete recognizer is never `cancelled`).
    @Test func cancelledTouchFails() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        var actions = 0
        tap.addAction { _ in actions += 1 }
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.cancel(1))
        #expect(h.log.lines == ["0.1 tap failed (100,100) n=1 taps=0 touches=1"])
        #expect(actions == 0)
        h.frame(0.5, Finger.down(2, 100, 100))
        h.frame(0.6, Finger.up(2, 100, 100))
        #expect(h.log.lines.last == "0.6 tap ended (100,100) n=1 taps=1 touches=1")
        #expect(actions == 1)
    }

    /// Disabling a tap mid-gesture drops it silently; enabled again, it recognizes new taps.
    @Test func disabledMidGesture() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        h.frame(0, Finger.down(1, 100, 100))
        tap.isEnabled = false
        h.frame(0.1, Finger.up(1, 100, 100))
        tap.isEnabled = true
        h.frame(0.2, Finger.down(2, 100, 100))
        h.frame(0.3, Finger.up(2, 100, 100))
        #expect(h.log.lines == ["0.3 tap ended (100,100) n=1 taps=1 touches=1"])
    }

    /// Disabled between the taps of a double tap, the sequence is forgotten: no failure at the
    /// gap deadline, and the next two taps make a double tap.
    @Test func disabledBetweenTaps() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "double"))
        tap.numberOfTapsRequired = 2
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        tap.isEnabled = false
        h.wait(1)
        tap.isEnabled = true
        h.frame(1, Finger.down(2, 100, 100))
        h.frame(1.1, Finger.up(2, 100, 100))
        h.frame(1.2, Finger.down(3, 100, 100))
        h.frame(1.3, Finger.up(3, 100, 100))
        #expect(h.log.lines == ["1.3 double ended (100,100) n=1 taps=2 touches=1"])
    }
}
