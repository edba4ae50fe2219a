import GestureKit
import GestureTestSupport
import Testing

/// A delegate allowing simultaneous recognition between named recognizers.
@MainActor
final class SimultaneousDelegate: GestureRecognizerDelegate {
    var pairs: Set<[String]> = []
    var refuseBegin: Set<String> = []
    var refuseTouches: Set<String> = []
    init(_ pairs: [(String, String)] = []) {
        for (a, b) in pairs { self.pairs.insert([a, b].sorted()) }
    }
    func gestureRecognizer(_ r: GestureRecognizer, shouldRecognizeSimultaneouslyWith o: GestureRecognizer) -> Bool {
        pairs.contains([r.name, o.name].sorted())
    }
    func gestureRecognizerShouldBegin(_ r: GestureRecognizer) -> Bool { !refuseBegin.contains(r.name) }
    func gestureRecognizer(_ r: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        !refuseTouches.contains(r.name)
    }
}

@MainActor
@Suite struct ArbitrationTests {
    /// single requires double to fail, double requires triple to fail.
    func tapChain() -> Harness {
        let h = Harness()
        let triple = TapGestureRecognizer(name: "triple")
        triple.numberOfTapsRequired = 3
        let double = TapGestureRecognizer(name: "double")
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer(name: "single")
        single.require(toFail: double)
        double.require(toFail: triple)
        h.add(single)
        h.add(double)
        h.add(triple)
        return h
    }

    func taps(_ h: Harness, count: Int) {
        for i in 0..<count {
            let t = Double(i) * 0.2
            h.frame(t, Finger.down(i + 1, 100, 100))
            h.frame(t + 0.05, Finger.up(i + 1, 100, 100))
        }
        h.wait(5)
    }

    @Test func singleTapWaitsForDoubleAndTripleToFail() {
        let h = tapChain()
        taps(h, count: 1)
        #expect(
            h.log.lines == [
                // single requires only double: it succeeds as soon as double fails.
                "0.35 double failed (100,100) n=0 taps=1 touches=1",
                "0.35 single ended (100,100) n=0 taps=1 touches=1",
                "0.35 triple failed (100,100) n=0 taps=1 touches=1",
            ])
    }

    @Test func doubleTapWaitsForTripleAndFailsSingle() {
        let h = tapChain()
        taps(h, count: 2)
        #expect(
            h.log.lines == [
                "0.55 triple failed (100,100) n=0 taps=2 touches=1",
                "0.55 double ended (100,100) n=0 taps=2 touches=1",
                "0.55 single failed (100,100) n=0 taps=1 touches=1",
            ])
    }

    @Test func tripleTapWinsAtOnce() {
        let h = tapChain()
        taps(h, count: 3)
        #expect(
            h.log.lines == [
                "0.45 triple ended (100,100) n=1 taps=3 touches=1",
                "0.45 single failed (100,100) n=1 taps=1 touches=1",
                "0.45 double failed (100,100) n=1 taps=2 touches=1",
            ])
    }

    func twoFingerTwist(_ h: Harness) {
        // Fingers 200 pt apart around (500,400); they spread to 300 pt and turn by 0.5 rad.
        let c = Point(x: 500, y: 400)
        func at(_ r: Double, _ a: Double) -> (Point, Point) {
            let dx = r * _cos(a)
            let dy = r * _sin(a)
            return (Point(x: c.x - dx, y: c.y - dy), Point(x: c.x + dx, y: c.y + dy))
        }
        let (a0, b0) = at(100, 0)
        h.frame(0, Finger.down(1, a0.x, a0.y), Finger.down(2, b0.x, b0.y))
        for i in 1...10 {
            let f = Double(i) / 10
            let (a, b) = at(100 + 50 * f, 0.5 * f)
            h.frame(0.02 * Double(i), Finger.move(1, a.x, a.y), Finger.move(2, b.x, b.y))
        }
        let (a, b) = at(150, 0.5)
        h.frame(0.25, Finger.up(1, a.x, a.y), Finger.up(2, b.x, b.y))
    }

    @Test func pinchAndRotationSimultaneous() {
        let h = Harness()
        let d = SimultaneousDelegate([("pinch", "rotation")])
        let p = h.add(PinchGestureRecognizer(name: "pinch"))
        let r = h.add(RotationGestureRecognizer(name: "rotation"))
        p.delegate = d
        r.delegate = d
        twoFingerTwist(h)
        #expect(h.log.states(of: "pinch").first == .began)
        #expect(h.log.states(of: "pinch").last == .ended)
        #expect(h.log.states(of: "rotation").first == .began)
        #expect(h.log.states(of: "rotation").last == .ended)
        guard case .pinch(let scale, _) = h.log.transitions.last(where: { $0.name == "pinch" })!.values,
            case .rotation(let rot, _) = h.log.transitions.last(where: { $0.name == "rotation" })!.values
        else {
            Issue.record("values")
            return
        }
        #expect(abs(scale - 1.5) < 1e-9)
        #expect(abs(rot - 0.5) < 1e-9)
    }

    @Test func pinchAndRotationExclusive() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.add(RotationGestureRecognizer(name: "rotation"))
        twoFingerTwist(h)
        // The first move changes the distance by 5 pt (not yet a pinch) and the angle by 0.05
        // rad (not more than the threshold); the second move begins the pinch, which fails the
        // rotation.
        #expect(h.log.states(of: "rotation") == [.failed])
        #expect(h.log.states(of: "pinch").first == .began)
        #expect(h.log.states(of: "pinch").last == .ended)
        let began = h.log.transitions.first { $0.name == "pinch" }!
        let failed = h.log.transitions.first { $0.name == "rotation" }!
        #expect(began.time == failed.time)
    }

    @Test func panBeatsSwipeOnSlowDrag() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(name: "swipe"))
        h.add(PanGestureRecognizer(name: "pan"))
        // 100 pt in 1 s: too slow for a swipe. The pan begins at the second move (> 10 pt).
        h.stroke(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), duration: 1, steps: 10)
        #expect(h.log.states(of: "swipe") == [.failed])
        #expect(h.log.states(of: "pan").first == .began)
        #expect(h.log.states(of: "pan").last == .ended)
        #expect(h.log.lines[0] == "0.2 pan began (120,100) n=1 tr=[20,0] v=[100,0]")
        #expect(h.log.lines[1] == "0.2 swipe failed (120,100) n=1 dir=right")
    }

    @Test func swipeBeatsPanWhenPanRequiresSwipeToFail() {
        let h = Harness()
        let swipe = h.add(SwipeGestureRecognizer(name: "swipe"))
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.require(toFail: swipe)
        // 100 pt in 0.1 s: a swipe as soon as it has gone 50 pt (the threshold is inclusive).
        h.stroke(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), duration: 0.1, steps: 10)
        #expect(h.log.states(of: "swipe") == [.ended])
        #expect(h.log.states(of: "pan") == [.failed])
        #expect(h.log.lines[0].hasPrefix("0.05 swipe ended (150,100)"))
    }

    @Test func panPendingOnSwipeBeginsWhenSwipeFails() {
        let h = Harness()
        let swipe = h.add(SwipeGestureRecognizer(name: "swipe"))
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.require(toFail: swipe)
        h.stroke(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), duration: 1, steps: 10, lift: false)
        // The pan wanted to begin at 0.2 (20 pt) but waited; the swipe times out at 0.5.
        #expect(h.log.lines[0] == "0.5 swipe failed (150,100) n=1 dir=right")
        #expect(h.log.lines[1].hasPrefix("0.5 pan began (150,100) n=1 tr=[50,0]"))
        #expect(h.log.states(of: "pan").dropFirst().allSatisfy { $0 == .changed })
    }

    func rotatedTapTarget() -> (Harness, View) {
        let h = Harness()
        // 200×100 at (100,100), turned 90° clockwise about its centre (200,150): it now covers
        // x 150…250, y 50…250.
        let v = View(frame: Rect(x: 100, y: 100, width: 200, height: 100), name: "target")
        v.transform = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
        h.root.addSubview(v)
        h.add(TapGestureRecognizer(name: "tap"), to: v)
        return (h, v)
    }

    @Test(arguments: [
        (Point(x: 200, y: 60), true),  // inside the turned view, outside its untransformed frame
        (Point(x: 240, y: 240), true),
        (Point(x: 120, y: 150), false),  // inside the untransformed frame only
        (Point(x: 280, y: 120), false),
    ])
    func tapOnRotatedSubview(point: Point, hit: Bool) {
        let (h, v) = rotatedTapTarget()
        h.frame(0, Finger.down(1, point.x, point.y))
        h.frame(0.1, Finger.up(1, point.x, point.y))
        #expect(h.log.states(of: "tap") == (hit ? [.ended] : []))
        #expect((h.root.hitTest(point) === v) == hit)
    }

    @Test func activeRecognizerBlocksLaterOne() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        let pinch = h.add(PinchGestureRecognizer(name: "pinch"))
        _ = (pan, pinch)
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, 130, 100))  // pan begins; pinch fails (shares touch 1)
        h.frame(0.2, Finger.down(2, 300, 100))
        h.frame(0.3, Finger.move(2, 400, 100))
        h.frame(0.4, Finger.up(1, 130, 100), Finger.up(2, 400, 100))
        #expect(h.log.states(of: "pinch") == [.failed])
        #expect(h.log.states(of: "pan").first == .began)
    }

    @Test func shouldBeginFalseFails() {
        let h = Harness()
        let d = SimultaneousDelegate()
        d.refuseBegin = ["pan"]
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.delegate = d
        h.stroke(from: Point(x: 100, y: 100), to: Point(x: 200, y: 100), duration: 0.5)
        #expect(h.log.states(of: "pan") == [.failed])
    }

    @Test func shouldReceiveFalseHidesTouches() {
        let h = Harness()
        let d = SimultaneousDelegate()
        d.refuseTouches = ["tap"]
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        tap.delegate = d
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        #expect(h.log.lines.isEmpty)
    }

    @MainActor
    final class RequireDelegate: GestureRecognizerDelegate {
        let viaRequire: Bool
        init(viaRequire: Bool) { self.viaRequire = viaRequire }
        func gestureRecognizer(_ r: GestureRecognizer, shouldRequireFailureOf o: GestureRecognizer) -> Bool {
            viaRequire && r.name == "single" && o.name == "double"
        }
        func gestureRecognizer(_ r: GestureRecognizer, shouldBeRequiredToFailBy o: GestureRecognizer) -> Bool {
            !viaRequire && r.name == "double" && o.name == "single"
        }
    }

    @Test(arguments: [true, false])
    func failureRequirementThroughDelegate(viaRequire: Bool) {
        let h = Harness()
        let d = RequireDelegate(viaRequire: viaRequire)
        let single = h.add(TapGestureRecognizer(name: "single"))
        let double = h.add(TapGestureRecognizer(name: "double"))
        double.numberOfTapsRequired = 2
        single.delegate = d
        double.delegate = d
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.05, Finger.up(1, 100, 100))
        h.wait(2)
        #expect(
            h.log.lines == [
                "0.35 double failed (100,100) n=0 taps=1 touches=1",
                "0.35 single ended (100,100) n=0 taps=1 touches=1",
            ])
    }

    final class TouchView: View {
        var events: [String] = []
        override func touchesBegan(_ touches: [Touch]) { events.append("began \(touches.map(\.id))") }
        override func touchesMoved(_ touches: [Touch]) { events.append("moved \(touches.map(\.id))") }
        override func touchesEnded(_ touches: [Touch]) { events.append("ended \(touches.map(\.id))") }
        override func touchesCancelled(_ touches: [Touch]) { events.append("cancelled \(touches.map(\.id))") }
    }

    @Test(arguments: [true, false])
    func cancelsTouchesInView(cancels: Bool) {
        let h = Harness()
        let v = TouchView(frame: Rect(x: 0, y: 0, width: 500, height: 500))
        h.root.addSubview(v)
        let pan = h.add(PanGestureRecognizer(name: "pan"), to: v)
        pan.cancelsTouchesInView = cancels
        h.stroke(from: Point(x: 100, y: 100), to: Point(x: 150, y: 100), duration: 0.5, steps: 5)
        if cancels {
            // The first move (10 pt) does not begin the pan yet: the view sees it.
            #expect(v.events == ["began [1]", "moved [1]", "cancelled [1]"])
        } else {
            #expect(v.events == ["began [1]"] + Array(repeating: "moved [1]", count: 5) + ["ended [1]"])
        }
    }

    @Test func disablingCancelsActiveGesture() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, 130, 100))
        pan.isEnabled = false
        h.frame(0.2, Finger.move(1, 160, 100))
        h.frame(0.3, Finger.up(1, 160, 100))
        pan.isEnabled = true
        h.stroke(from: Point(x: 100, y: 100), to: Point(x: 150, y: 100), start: 1, duration: 0.5, steps: 5)
        #expect(h.log.states(of: "pan") == [.began, .cancelled, .began, .changed, .changed, .changed, .ended])
    }

    /// Removing a recognizer from its view mid-gesture cancels it (it stays enabled) and it
    /// hears nothing more of those touches.
    @Test func removingActiveRecognizerCancelsIt() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, 130, 100))
        h.root.removeGestureRecognizer(pan)
        h.frame(0.2, Finger.move(1, 160, 100))
        h.frame(0.3, Finger.up(1, 160, 100))
        #expect(h.log.states(of: "pan") == [.began, .cancelled])
        #expect(pan.isEnabled && pan.state == .possible && pan.view == nil)
    }

    @Test func gestureKeepsTouchesThatLeaveItsView() {
        let h = Harness()
        let v = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        h.root.addSubview(v)
        h.add(PanGestureRecognizer(name: "pan"), to: v)
        h.stroke(from: Point(x: 100, y: 100), to: Point(x: 600, y: 100), duration: 0.5, steps: 5)
        #expect(h.log.lines.last == "0.51 pan ended (600,100) n=1 tr=[500,0] v=[1000,0]")
    }
}

func _cos(_ x: Double) -> Double { AffineTransform(rotationAngle: x).a }
func _sin(_ x: Double) -> Double { AffineTransform(rotationAngle: x).b }
