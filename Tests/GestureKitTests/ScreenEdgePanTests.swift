import GestureKit
import GestureTestSupport
import Testing

/// ScreenEdgePanGestureRecognizer against docs/DESIGN.md §3, in the harness's 1024×768 window:
/// within 20 pt of an allowed edge, first 10 pt mostly away from it, later touches ignored.
@MainActor
@Suite struct ScreenEdgePanTests {
    private func r(_ v: Double) -> String { LogRecorder.r(v) }

    nonisolated struct Case: Sendable, CustomTestStringConvertible {
        var edge: String
        var x: Double
        var y: Double
        /// Unit vector pointing away from the edge.
        var ax: Double
        var ay: Double
        var testDescription: String { "\(edge) at (\(x), \(y))" }
    }

    /// Just inside each edge (20 pt away from it).
    nonisolated static let inside: [Case] = [
        Case(edge: "left", x: 20, y: 300, ax: 1, ay: 0),
        Case(edge: "right", x: 1004, y: 300, ax: -1, ay: 0),
        Case(edge: "top", x: 500, y: 20, ax: 0, ay: 1),
        Case(edge: "bottom", x: 500, y: 748, ax: 0, ay: -1),
    ]

    /// Just outside (20.5 pt away).
    nonisolated static let outside: [Case] = [
        Case(edge: "left", x: 20.5, y: 300, ax: 1, ay: 0),
        Case(edge: "right", x: 1003.5, y: 300, ax: -1, ay: 0),
        Case(edge: "top", x: 500, y: 20.5, ax: 0, ay: 1),
        Case(edge: "bottom", x: 500, y: 747.5, ax: 0, ay: -1),
    ]

    @discardableResult
    private func edgePan(_ edges: RectEdge, _ h: Harness) -> ScreenEdgePanGestureRecognizer {
        let e = h.add(ScreenEdgePanGestureRecognizer(name: "edge"))
        e.edges = edges
        return e
    }

    @Test(arguments: inside)
    func withinTwentyPointsOfEachEdge(c: Case) {
        let h = Harness()
        let e = edgePan(RectEdge(name: c.edge)!, h)
        h.frame(0, Finger.down(1, c.x, c.y))
        h.frame(0.01, Finger.move(1, c.x + 12 * c.ax, c.y + 12 * c.ay))
        #expect(e.recognizedEdge == RectEdge(name: c.edge)!)
        h.frame(0.02, Finger.up(1, c.x + 12 * c.ax, c.y + 12 * c.ay))
        let loc = "(\(r(c.x + 12 * c.ax)),\(r(c.y + 12 * c.ay)))"
        let tr = "tr=[\(r(12 * c.ax)),\(r(12 * c.ay))] v=[\(r(1200 * c.ax)),\(r(1200 * c.ay))]"
        #expect(
            h.log.lines == [
                "0.01 edge began \(loc) n=1 \(tr) edge=\(c.edge)",
                "0.02 edge ended \(loc) n=1 \(tr) edge=\(c.edge)",
            ])
    }

    @Test(arguments: outside)
    func justOutsideFailsAtTouchDown(c: Case) {
        let h = Harness()
        edgePan(RectEdge(name: c.edge)!, h)
        h.frame(0, Finger.down(1, c.x, c.y))
        h.frame(0.01, Finger.move(1, c.x + 12 * c.ax, c.y + 12 * c.ay))
        h.frame(0.02, Finger.up(1, c.x + 12 * c.ax, c.y + 12 * c.ay))
        #expect(h.log.lines == ["0 edge failed (\(r(c.x)),\(r(c.y))) n=1 tr=[0,0] v=[0,0] edge=\(c.edge)"])
    }

    /// An edge that is not allowed does not count (the log names the nearest allowed edge).
    @Test func otherEdgeFails() {
        let h = Harness()
        edgePan(.left, h)
        h.frame(0, Finger.down(1, 1010, 300))
        h.frame(0.01, Finger.move(1, 990, 300))
        #expect(h.log.lines == ["0 edge failed (1010,300) n=1 tr=[0,0] v=[0,0] edge=left"])
    }

    /// With several edges allowed, `edge` is the nearest one the touch went down at.
    @Test(arguments: [
        (5.0, 10.0, "left", 12.0, 0.0),
        (10.0, 5.0, "top", 0.0, 12.0),
        (1019.0, 760.0, "right", -12.0, 0.0),
        (1016.0, 763.0, "bottom", 0.0, -12.0),
    ])
    func nearestAllowedEdge(x: Double, y: Double, edge: String, dx: Double, dy: Double) {
        let h = Harness()
        edgePan(.all, h)
        h.frame(0, Finger.down(1, x, y))
        h.frame(0.01, Finger.move(1, x + dx, y + dy))
        h.frame(0.02, Finger.up(1, x + dx, y + dy))
        let loc = "(\(r(x + dx)),\(r(y + dy)))"
        let tr = "tr=[\(r(dx)),\(r(dy))] v=[\(r(100 * dx)),\(r(100 * dy))]"
        #expect(
            h.log.lines == [
                "0.01 edge began \(loc) n=1 \(tr) edge=\(edge)",
                "0.02 edge ended \(loc) n=1 \(tr) edge=\(edge)",
            ])
    }

    /// The first 10 pt of movement: (8, 6) is mostly away from the left edge, (6, 8) is not.
    @Test func firstTenPointsMostlyAway() {
        let h = Harness()
        edgePan(.left, h)
        h.frame(0, Finger.down(1, 10, 300))
        h.frame(0.01, Finger.move(1, 18, 306))  // 10 pt: checked, not yet > 10
        h.frame(0.02, Finger.move(1, 26, 312))
        h.frame(0.03, Finger.up(1, 26, 312))
        #expect(
            h.log.lines == [
                "0.02 edge began (26,312) n=1 tr=[16,12] v=[800,600] edge=left",
                "0.03 edge ended (26,312) n=1 tr=[16,12] v=[800,600] edge=left",
            ])
    }

    @Test func firstTenPointsAlongTheEdgeFails() {
        let h = Harness()
        edgePan(.left, h)
        h.frame(0, Finger.down(1, 10, 300))
        h.frame(0.01, Finger.move(1, 16, 308))
        h.frame(0.02, Finger.move(1, 40, 308))
        h.frame(0.03, Finger.up(1, 40, 308))
        #expect(h.log.lines == ["0.01 edge failed (16,308) n=1 tr=[6,8] v=[0,0] edge=left"])
    }

    /// Same for the bottom edge, where "away" is up.
    @Test func bottomEdgeDirection() {
        let h = Harness()
        edgePan(.bottom, h)
        h.frame(0, Finger.down(1, 500, 760))
        h.frame(0.01, Finger.move(1, 512, 760))  // along the edge
        #expect(h.log.lines == ["0.01 edge failed (512,760) n=1 tr=[12,0] v=[0,0] edge=bottom"])
    }

    /// Only the first touch counts: later touches neither move it, nor count, nor cancel it.
    @Test func laterTouchesAreIgnored() {
        let h = Harness()
        edgePan(.left, h)
        h.frame(0, Finger.down(1, 20, 300))
        h.frame(0.01, Finger.move(1, 26, 300))
        h.frame(0.02, Finger.move(1, 32, 300))
        h.frame(0.03, Finger.down(2, 500, 500))
        h.frame(0.04, Finger.move(1, 38, 300), Finger.move(2, 600, 500))
        h.frame(0.05, Finger.cancel(2))
        h.frame(0.06, Finger.up(1, 38, 300))
        #expect(
            h.log.lines == [
                "0.02 edge began (32,300) n=1 tr=[12,0] v=[600,0] edge=left",
                // Samples 0,6,12,18 at t 0,1,2,4 (×10 ms): Σt=7, Σx=36, Σt²=21, Σtx=102:
                // (102 − 7·36/4) / (21 − 49/4) = 39 / 8.75 = 4.457143 → 445.714 pt/s.
                "0.04 edge changed (38,300) n=1 tr=[18,0] v=[445.714,0] edge=left",
                "0.06 edge ended (38,300) n=1 tr=[18,0] v=[445.714,0] edge=left",
            ])
    }

    /// A second finger, and what it does, per case (times in seconds; merged into the first
    /// finger's frames, after the first finger's change when they share a time).
    nonisolated struct SecondFinger: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var events: [(t: Double, change: TouchChange)]
    }

    nonisolated static let secondFingers: [SecondFinger] = [
        SecondFinger(testDescription: "none", events: []),
        SecondFinger(
            testDescription: "lands with the first and rests",
            events: [
                (0, .init(id: 2, phase: .began, location: Point(x: 500, y: 400))),
                (0.05, .init(id: 2, phase: .ended, location: Point(x: 500, y: 400))),
            ]),
        SecondFinger(
            testDescription: "lands before it began and rests, lifts after it ended",
            events: [
                (0.005, .init(id: 2, phase: .began, location: Point(x: 500, y: 400))),
                (0.05, .init(id: 2, phase: .ended, location: Point(x: 500, y: 400))),
            ]),
        SecondFinger(
            testDescription: "lands at the same edge before it began and rests",
            events: [
                (0.01, .init(id: 2, phase: .began, location: Point(x: 5, y: 500))),
                (0.05, .init(id: 2, phase: .ended, location: Point(x: 5, y: 500))),
            ]),
        SecondFinger(
            testDescription: "lands before it began and moves far",
            events: [
                (0.005, .init(id: 2, phase: .began, location: Point(x: 500, y: 400))),
                (0.01, .init(id: 2, phase: .moved, location: Point(x: 600, y: 450))),
                (0.02, .init(id: 2, phase: .moved, location: Point(x: 700, y: 500))),
                (0.03, .init(id: 2, phase: .moved, location: Point(x: 800, y: 550))),
                (0.035, .init(id: 2, phase: .ended, location: Point(x: 800, y: 550))),
            ]),
        SecondFinger(
            testDescription: "lands before it began and is cancelled",
            events: [
                (0.005, .init(id: 2, phase: .began, location: Point(x: 500, y: 400))),
                (0.025, .init(id: 2, phase: .cancelled, location: .zero)),
            ]),
        SecondFinger(
            testDescription: "lands after it began and moves",
            events: [
                (0.025, .init(id: 2, phase: .began, location: Point(x: 500, y: 400))),
                (0.03, .init(id: 2, phase: .moved, location: Point(x: 300, y: 400))),
                (0.05, .init(id: 2, phase: .ended, location: Point(x: 300, y: 400))),
            ]),
    ]

    /// Feeds `first` (a list of frames of finger 1) merged with `second`'s events.
    private func play(_ h: Harness, _ first: [(Double, TouchChange)], _ second: SecondFinger) {
        var times = Set(first.map(\.0))
        for e in second.events { times.insert(e.t) }
        for t in times.sorted() {
            let changes = first.filter { $0.0 == t }.map(\.1) + second.events.filter { $0.t == t }.map(\.change)
            h.dispatcher.handle(TouchFrame(timestamp: t, changes: changes))
        }
    }

    /// Later touches are ignored entirely, whenever they land (with the first, before the edge
    /// pan began, after): the log is that of the first finger alone. (A second finger resting
    /// before the gesture began must not keep it from beginning, nor make it fail at the lift.)
    @Test(arguments: secondFingers)
    func secondFingerIsIgnoredWheneverItLands(second: SecondFinger) {
        let h = Harness()
        edgePan(.left, h)
        play(
            h,
            [
                (0, Finger.down(1, 10, 300)), (0.01, Finger.move(1, 16, 300)), (0.02, Finger.move(1, 22, 300)),
                (0.03, Finger.move(1, 28, 300)), (0.04, Finger.up(1, 28, 300)),
            ], second)
        // 6 pt every 10 ms from t = 0: 600 pt/s; began at the move past 10 pt.
        #expect(
            h.log.lines == [
                "0.02 edge began (22,300) n=1 tr=[12,0] v=[600,0] edge=left",
                "0.03 edge changed (28,300) n=1 tr=[18,0] v=[600,0] edge=left",
                "0.04 edge ended (28,300) n=1 tr=[18,0] v=[600,0] edge=left",
            ])
    }

    /// The first finger lifting before the gesture began fails it at that lift, whether or not
    /// a second finger is still down (the recognizer does not wait for ignored touches).
    @Test(arguments: secondFingers.prefix(3))
    func firstFingerLiftingEarlyFailsAtItsLift(second: SecondFinger) {
        let h = Harness()
        edgePan(.left, h)
        play(h, [(0, Finger.down(1, 10, 300)), (0.02, Finger.move(1, 14, 300)), (0.03, Finger.up(1, 14, 300))], second)
        // Samples (0, 0) and (0.02, 4): 200 pt/s.
        #expect(h.log.lines == ["0.03 edge failed (14,300) n=1 tr=[4,0] v=[200,0] edge=left"])
    }

    /// An ignored touch is not the edge pan's to claim: a tap that got only the second finger
    /// (on a subview) is not failed when the edge pan begins.
    @Test func ignoredTouchIsNotClaimed() {
        let h = Harness()
        edgePan(.left, h)
        let v = View(frame: Rect(x: 400, y: 300, width: 200, height: 200), name: "v")
        h.root.addSubview(v)
        h.add(TapGestureRecognizer(name: "tap"), to: v)
        h.frame(0, Finger.down(1, 10, 300))
        h.frame(0.01, Finger.down(2, 500, 400))
        h.frame(0.02, Finger.move(1, 22, 300))
        h.frame(0.03, Finger.up(2, 500, 400))
        h.frame(0.04, Finger.up(1, 22, 300))
        #expect(
            h.log.lines == [
                "0.02 edge began (22,300) n=1 tr=[12,0] v=[600,0] edge=left",
                "0.03 tap ended (500,400) n=1 taps=1 touches=1",
                "0.04 edge ended (22,300) n=1 tr=[12,0] v=[600,0] edge=left",
            ])
    }

    /// A later touch does not rescue a first touch that was not at the edge.
    @Test func laterTouchAtTheEdgeDoesNotCount() {
        let h = Harness()
        edgePan(.left, h)
        h.frame(0, Finger.down(1, 500, 300))
        h.frame(0.01, Finger.down(2, 5, 300))
        h.frame(0.02, Finger.move(2, 50, 300))
        #expect(h.log.lines == ["0 edge failed (500,300) n=1 tr=[0,0] v=[0,0] edge=left"])
    }

    @Test func cancelledTouchCancels() {
        let h = Harness()
        edgePan(.right, h)
        h.frame(0, Finger.down(1, 1010, 300))
        h.frame(0.01, Finger.move(1, 998, 300))
        h.frame(0.02, Finger.cancel(1))
        #expect(
            h.log.lines == [
                "0.01 edge began (998,300) n=1 tr=[-12,0] v=[-1200,0] edge=right",
                "0.02 edge cancelled (998,300) n=1 tr=[-12,0] v=[-1200,0] edge=right",
            ])
    }

    @Test func disabledMidGestureCancels() {
        let h = Harness()
        let e = edgePan(.top, h)
        h.frame(0, Finger.down(1, 300, 0))
        h.frame(0.01, Finger.move(1, 300, 12))
        e.isEnabled = false
        h.frame(0.02, Finger.move(1, 300, 40))
        h.frame(0.03, Finger.up(1, 300, 40))
        #expect(
            h.log.lines == [
                "0.01 edge began (300,12) n=1 tr=[0,12] v=[0,1200] edge=top",
                "0.01 edge cancelled (300,12) n=1 tr=[0,12] v=[0,1200] edge=top",
            ])
        #expect(e.state == .possible)
        #expect(e.recognizedEdge == [])
    }
}
