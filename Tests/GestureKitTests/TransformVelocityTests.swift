import GestureKit
import GestureTestSupport
import Testing

/// ``TransformGestures`` reports the lift velocities at the end of a session (where an app
/// starts a fling): the recognizers have reset by then and read zero.
@MainActor
@Suite struct TransformVelocityTests {
    /// One finger, 10 pt every 10 ms (1000 pt/s to the right, 500 pt/s down), lifting with its
    /// last move.
    @Test func panLiftVelocityAtSessionEnd() {
        let h = Harness()
        let card = View(frame: Rect(x: 0, y: 0, width: 600, height: 600), name: "card")
        h.root.addSubview(card)
        let gestures = TransformGestures(view: card)
        var atEnd: [(Vector, Vector)] = []
        gestures.onSessionEnd = { g in atEnd.append((g.panVelocity, g.pan.velocity(in: nil))) }
        h.frame(0, Finger.down(1, 100, 100))
        for i in 1...10 { h.frame(Double(i) * 0.01, Finger.move(1, 100 + Double(i) * 10, 100 + Double(i) * 5)) }
        #expect(gestures.panVelocity == .zero)  // still active
        h.frame(0.11, Finger.move(1, 210, 155), Finger.up(1, 210, 155))
        #expect(atEnd.count == 1)
        let v = atEnd[0].0
        #expect(abs(v.dx - 1000) < 1e-6 && abs(v.dy - 500) < 1e-6)
        #expect(atEnd[0].1 == .zero)  // the pan itself has reset
        // A session that ends with the finger at rest: the velocity reads zero again.
        h.frame(1, Finger.down(2, 300, 300))
        for i in 1...3 { h.frame(1 + Double(i) * 0.01, Finger.move(2, 300 + Double(i) * 10, 300)) }
        h.frame(1.2, Finger.up(2, 330, 300))
        #expect(atEnd.count == 2 && atEnd.last?.0 == .zero, "\(atEnd)")
    }

    /// Two fingers spreading 0.1 scale per 10 ms: the pinch's lift velocity is 10 /s.
    @Test func pinchLiftVelocityAtSessionEnd() {
        let h = Harness()
        let card = View(frame: Rect(x: 0, y: 0, width: 1000, height: 700), name: "card")
        h.root.addSubview(card)
        let gestures = TransformGestures(view: card)
        var scaleVelocity: Double?
        gestures.onSessionEnd = { g in scaleVelocity = g.pinchVelocity }
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        for i in 1...4 {
            let d = Double(i) * 5
            h.frame(Double(i) * 0.01, Finger.move(1, 400 - d, 300), Finger.move(2, 500 + d, 300))
        }
        h.frame(
            0.05, Finger.move(1, 375, 300), Finger.move(2, 525, 300), Finger.up(1, 375, 300), Finger.up(2, 525, 300))
        #expect(abs((scaleVelocity ?? 0) - 10) < 1e-6)
    }
}
