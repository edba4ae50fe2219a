import GestureKit
import GestureTestSupport
import Testing

/// SwipeGestureRecognizer against docs/DESIGN.md §3: ≥ 50 pt, ≥ 300 pt/s average since touch-down,
/// along ≥ 1.5 × across, no reversal, within 0.5 s; directions and option sets; two fingers.
@MainActor
@Suite struct SwipeTests {
    private func r(_ v: Double) -> String { LogRecorder.r(v) }

    /// One move of (dx, dy) at `t`, then a lift 10 ms later at the same place.
    private func swipe(
        _ direction: SwipeDirection, dx: Double, dy: Double, at t: Double = 0.1
    ) -> Harness {
        let h = Harness()
        let s = h.add(SwipeGestureRecognizer(name: "swipe"))
        s.direction = direction
        h.frame(0, Finger.down(1, 200, 200))
        h.frame(t, Finger.move(1, 200 + dx, 200 + dy))
        h.frame(t + 0.01, Finger.up(1, 200 + dx, 200 + dy))
        return h
    }

    @Test(arguments: [
        ("right", 60.0, 0.0), ("left", -60.0, 0.0), ("up", 0.0, -60.0), ("down", 0.0, 60.0),
    ])
    func eachDirection(name: String, dx: Double, dy: Double) {
        let h = swipe(SwipeDirection(name: name)!, dx: dx, dy: dy)
        #expect(h.log.lines == ["0.1 swipe ended (\(r(200 + dx)),\(r(200 + dy))) n=1 dir=\(name)"])
    }

    /// A stroke against the only allowed direction fails at the lift.
    @Test(arguments: [("right", -60.0, 0.0), ("up", 0.0, 60.0), ("left", 0.0, -60.0)])
    func wrongDirectionFails(name: String, dx: Double, dy: Double) {
        let h = swipe(SwipeDirection(name: name)!, dx: dx, dy: dy)
        #expect(h.log.lines == ["0.11 swipe failed (\(r(200 + dx)),\(r(200 + dy))) n=1 dir=\(name)"])
    }

    /// Several allowed directions: the one the stroke went is reported; a failure reports the set.
    @Test func optionSets() {
        var h = swipe([.left, .right], dx: -60, dy: 0)
        #expect(h.log.lines == ["0.1 swipe ended (140,200) n=1 dir=left"])
        h = swipe([.left, .right], dx: 60, dy: 10)
        #expect(h.log.lines == ["0.1 swipe ended (260,210) n=1 dir=right"])
        h = swipe([.up, .down], dx: 5, dy: -60)
        #expect(h.log.lines == ["0.1 swipe ended (205,140) n=1 dir=up"])
        h = swipe([.right, .left, .up, .down], dx: 20, dy: 60)
        #expect(h.log.lines == ["0.1 swipe ended (220,260) n=1 dir=down"])
        h = swipe([.right, .down], dx: -60, dy: 0)
        #expect(h.log.lines == ["0.11 swipe failed (140,200) n=1 dir=right down"])
        h = swipe([.up, .down], dx: 60, dy: 0)
        #expect(h.log.lines == ["0.11 swipe failed (260,200) n=1 dir=up down"])
    }

    /// Distance: at least 50 pt along the direction (speed and ratio satisfied).
    @Test(arguments: [(50.0, true), (49.9, false)])
    func minimumDistance(dx: Double, recognized: Bool) {
        let h = swipe(.right, dx: dx, dy: 0, at: 0.125)
        if recognized {
            #expect(h.log.lines == ["0.125 swipe ended (250,200) n=1 dir=right"])
        } else {
            #expect(h.log.lines == ["0.135 swipe failed (\(r(200 + dx)),200) n=1 dir=right"])
        }
    }

    /// Speed: 75 pt in 0.25 s is exactly 300 pt/s; in 0.26 s it is 288 pt/s.
    @Test(arguments: [(0.25, true), (0.26, false)])
    func minimumSpeed(t: Double, recognized: Bool) {
        let h = swipe(.right, dx: 75, dy: 0, at: t)
        if recognized {
            #expect(h.log.lines == ["0.25 swipe ended (275,200) n=1 dir=right"])
        } else {
            #expect(h.log.lines == ["0.27 swipe failed (275,200) n=1 dir=right"])
        }
    }

    /// Speed is the average since touch-down: a slow start is not redeemed by a fast finish.
    @Test func speedIsAveragedSinceTouchDown() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(name: "swipe"))
        h.frame(0, Finger.down(1, 200, 200))
        h.frame(0.2, Finger.move(1, 205, 200))
        h.frame(0.21, Finger.move(1, 255, 200))  // 50 pt in 10 ms, but 55 pt in 0.21 s = 262 pt/s
        h.frame(0.22, Finger.move(1, 267, 200))  // 67 pt in 0.22 s = 304.5 pt/s
        h.frame(0.3, Finger.up(1, 267, 200))
        #expect(h.log.lines == ["0.22 swipe ended (267,200) n=1 dir=right"])
    }

    /// Axis ratio: along ≥ 1.5 × across.
    @Test(arguments: [(40.0, true), (-40.0, true), (40.1, false), (-40.1, false)])
    func axisRatio(dy: Double, recognized: Bool) {
        let h = swipe(.right, dx: 60, dy: dy)
        if recognized {
            #expect(h.log.lines == ["0.1 swipe ended (260,\(r(200 + dy))) n=1 dir=right"])
        } else {
            #expect(h.log.lines == ["0.11 swipe failed (260,\(r(200 + dy))) n=1 dir=right"])
        }
    }

    /// Reversal: coming back more than 10 pt from the furthest point along the axis fails.
    @Test(arguments: [(20.0, true), (19.9, false)])
    func reversal(back: Double, recognized: Bool) {
        let h = Harness()
        h.add(SwipeGestureRecognizer(name: "swipe"))
        h.frame(0, Finger.down(1, 200, 200))
        h.frame(0.05, Finger.move(1, 230, 200))
        h.frame(0.1, Finger.move(1, 200 + back, 200))
        h.frame(0.15, Finger.move(1, 270, 200))
        h.frame(0.2, Finger.up(1, 270, 200))
        if recognized {
            #expect(h.log.lines == ["0.15 swipe ended (270,200) n=1 dir=right"])
        } else {
            #expect(h.log.lines == ["0.1 swipe failed (\(r(200 + back)),200) n=1 dir=right"])
        }
    }

    @Test func verticalReversalFails() {
        let h = Harness()
        let s = h.add(SwipeGestureRecognizer(name: "swipe"))
        s.direction = .up
        h.frame(0, Finger.down(1, 200, 200))
        h.frame(0.05, Finger.move(1, 200, 160))
        h.frame(0.1, Finger.move(1, 200, 175))
        h.frame(0.15, Finger.move(1, 200, 100))
        #expect(h.log.lines == ["0.1 swipe failed (200,175) n=1 dir=up"])
    }

    /// 0.5 s since touch-down: a qualifying move at 0.5 s still counts (input at a deadline
    /// wins); after it the swipe has failed at 0.5 s, before the move.
    @Test(arguments: [(0.5, true), (0.51, false)])
    func maximumDuration(t: Double, recognized: Bool) {
        let h = swipe(.right, dx: 200, dy: 0, at: t)
        if recognized {
            #expect(h.log.lines == ["0.5 swipe ended (400,200) n=1 dir=right"])
        } else {
            #expect(h.log.lines == ["0.5 swipe failed (200,200) n=1 dir=right"])
        }
    }

    @Test func stillFingerFailsAtTheDeadline() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(name: "swipe"))
        h.frame(0.25, Finger.down(1, 200, 200))
        h.wait(2)
        h.frame(2, Finger.up(1, 200, 200))
        #expect(h.log.lines == ["0.75 swipe failed (200,200) n=1 dir=right"])
    }

    @Test func twoFingerSwipe() {
        let h = Harness()
        let s = h.add(SwipeGestureRecognizer(name: "swipe2"))
        s.numberOfTouchesRequired = 2
        s.direction = .left
        h.frame(0, Finger.down(1, 300, 200), Finger.down(2, 300, 240))
        h.frame(0.05, Finger.move(1, 270, 200), Finger.move(2, 270, 240))
        h.frame(0.1, Finger.move(1, 240, 200), Finger.move(2, 240, 240))
        h.frame(0.15, Finger.up(1, 240, 200), Finger.up(2, 240, 240))
        #expect(h.log.lines == ["0.1 swipe2 ended (240,220) n=2 dir=left"])
    }

    /// The centroid is what moves: one finger of two going 100 pt moves the centroid 50 pt.
    @Test func twoFingerSwipeMeasuresTheCentroid() {
        let h = Harness()
        let s = h.add(SwipeGestureRecognizer(name: "swipe2"))
        s.numberOfTouchesRequired = 2
        h.frame(0, Finger.down(1, 300, 200), Finger.down(2, 300, 240))
        h.frame(0.1, Finger.move(1, 398, 200))
        h.frame(0.12, Finger.move(1, 400, 200))
        #expect(h.log.lines == ["0.12 swipe2 ended (350,220) n=2 dir=right"])
    }

    @Test func twoFingerSwipeWithOneFingerFails() {
        let h = Harness()
        let s = h.add(SwipeGestureRecognizer(name: "swipe2"))
        s.numberOfTouchesRequired = 2
        h.frame(0, Finger.down(1, 200, 200))
        h.frame(0.1, Finger.move(1, 300, 200))
        h.frame(0.15, Finger.up(1, 300, 200))
        #expect(h.log.lines == ["0.15 swipe2 failed (300,200) n=1 dir=right"])
    }

    @Test func tooManyTouchesFails() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(name: "swipe"))
        h.frame(0, Finger.down(1, 200, 200))
        h.frame(0.02, Finger.down(2, 200, 260))
        h.frame(0.1, Finger.move(1, 300, 200), Finger.move(2, 300, 260))
        #expect(h.log.lines == ["0.02 swipe failed (200,230) n=2 dir=right"])
    }

    @Test func cancelledTouchFails() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(name: "swipe"))
        h.frame(0, Finger.down(1, 200, 200))
        h.frame(0.05, Finger.move(1, 230, 200))
        h.frame(0.06, Finger.cancel(1))
        #expect(h.log.lines == ["0.06 swipe failed (230,200) n=1 dir=right"])
    }

    @Test func disabledMidGestureIsSilent() {
        let h = Harness()
        let s = h.add(SwipeGestureRecognizer(name: "swipe"))
        h.frame(0, Finger.down(1, 200, 200))
        h.frame(0.05, Finger.move(1, 230, 200))
        s.isEnabled = false
        h.frame(0.1, Finger.move(1, 300, 200))
        h.frame(0.15, Finger.up(1, 300, 200))
        s.isEnabled = true
        h.frame(1, Finger.down(2, 200, 200))
        h.frame(1.1, Finger.move(1, 200, 200), Finger.move(2, 260, 200))
        #expect(h.log.lines == ["1.1 swipe ended (260,200) n=1 dir=right"])
        #expect(s.recognizedDirection == .right)
        h.frame(1.2, Finger.up(2, 260, 200))
        #expect(s.recognizedDirection == [])  // reset after the touches ended
    }
}
