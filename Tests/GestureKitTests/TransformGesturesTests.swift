import GestureKit
import GestureTestSupport
import Testing

/// ``TransformGestures``: pan, pinch and rotation at once keep the content under the fingers.
@MainActor
@Suite("TransformGestures: the content stays under the fingers")
struct TransformGesturesTests {
    /// Two fingers from `a0`/`b0` to `a1`/`b1` in `steps` frames; optionally a third gesture
    /// phase later (fingers lift and land again).
    static func twoFingers(_ h: Harness, from a0: Point, _ b0: Point, to a1: Point, _ b1: Point, start: Double) {
        h.frame(start, Finger.down(1, a0.x, a0.y), Finger.down(2, b0.x, b0.y))
        let steps = 20
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            let a = Point(x: a0.x + (a1.x - a0.x) * f, y: a0.y + (a1.y - a0.y) * f)
            let b = Point(x: b0.x + (b1.x - b0.x) * f, y: b0.y + (b1.y - b0.y) * f)
            h.frame(start + 0.016 * Double(i), Finger.move(1, a.x, a.y), Finger.move(2, b.x, b.y))
        }
        h.frame(start + 0.016 * Double(steps) + 0.05, Finger.up(1, a1.x, a1.y), Finger.up(2, b1.x, b1.y))
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var a0: Point
        var b0: Point
        var a1: Point
        var b1: Point
        var description: String { name }
    }

    nonisolated static let cases = [
        // The card: spread ×1.68 while turning and moving.
        Case(
            name: "spread 1.68 with a turn and a move", a0: Point(x: 450, y: 300), b0: Point(x: 550, y: 300),
            a1: Point(x: 420, y: 340), b1: Point(x: 580, y: 440)),
        Case(
            name: "pinch in and turn back", a0: Point(x: 400, y: 250), b0: Point(x: 600, y: 350),
            a1: Point(x: 480, y: 330), b1: Point(x: 540, y: 290)),
        Case(
            name: "two-finger pan", a0: Point(x: 450, y: 280), b0: Point(x: 520, y: 320),
            a1: Point(x: 550, y: 380), b1: Point(x: 620, y: 420)),
    ]

    @Test("Each finger's touch-down point of the card ends under that finger", arguments: cases)
    func anchored(c: Case) throws {
        let h = Harness()
        let card = View(frame: Rect(x: 350, y: 200, width: 300, height: 200), name: "card")
        h.root.addSubview(card)
        let gestures = TransformGestures(view: card)
        var changes = 0
        gestures.onChange = { _ in changes += 1 }
        let before = card.localToWindow.inverted()
        let localA = c.a0.applying(before)
        let localB = c.b0.applying(before)
        Self.twoFingers(h, from: c.a0, c.b0, to: c.a1, c.b1, start: 0)
        let after = card.localToWindow
        let a = localA.applying(after)
        let b = localB.applying(after)
        // The recognizers begin after their thresholds (10 pt, 8 pt, 0.05 rad): the content
        // follows the fingers exactly from then on, so the end points match to rounding.
        #expect(abs(a.x - c.a1.x) < 1e-6 && abs(a.y - c.a1.y) < 1e-6, "finger 1 at \(c.a1), content at \(a)")
        #expect(abs(b.x - c.b1.x) < 1e-6 && abs(b.y - c.b1.y) < 1e-6, "finger 2 at \(c.b1), content at \(b)")
        #expect(changes > 10)
        let expectedScale = hypot(c.b1.x - c.a1.x, c.b1.y - c.a1.y) / hypot(c.b0.x - c.a0.x, c.b0.y - c.a0.y)
        #expect(abs(card.transform.scale - expectedScale) < 1e-9)
    }

    @Test("A second session goes on from where the first left the card")
    func twoSessions() throws {
        let h = Harness()
        let card = View(frame: Rect(x: 350, y: 200, width: 300, height: 200), name: "card")
        h.root.addSubview(card)
        _ = TransformGestures(view: card)
        Self.twoFingers(
            h, from: Point(x: 450, y: 300), Point(x: 550, y: 300), to: Point(x: 430, y: 300), Point(x: 570, y: 300),
            start: 0)
        let first = card.transform.scale
        let before = card.localToWindow.inverted()
        let p0 = Point(x: 480, y: 320)
        let q0 = Point(x: 560, y: 280)
        let (lp, lq) = (p0.applying(before), q0.applying(before))
        let p1 = Point(x: 470, y: 360)
        let q1 = Point(x: 600, y: 250)
        Self.twoFingers(h, from: p0, q0, to: p1, q1, start: 2)
        #expect(abs(lp.applying(card.localToWindow).x - p1.x) < 1e-6)
        #expect(abs(lq.applying(card.localToWindow).y - q1.y) < 1e-6)
        #expect(card.transform.scale > first)
    }
}

private func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }
