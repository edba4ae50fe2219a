import GestureKit
import GestureTestSupport
import Testing

/// Recognizer subclasses written as for UIKit: Apple's check-mark sample ported line by line
/// (CheckmarkGestureRecognizer.swift), a subclass with no kind and no log override, actions that
/// receive the recognizer's own type, and requests UIKit would ignore. Whole logs.
@MainActor
@Suite struct CustomRecognizerTests {
    /// Down-right, then up-right above the start: recognized at the lift.
    private func checkMark(_ h: Harness, id: Int = 1, at t0: Double = 0) {
        h.frame(t0, Finger.down(id, 100, 100))
        for i in 1...5 { h.frame(t0 + Double(i) * 0.02, Finger.move(id, 100 + Double(i) * 10, 100 + Double(i) * 10)) }
        for i in 1...5 {
            h.frame(t0 + 0.1 + Double(i) * 0.02, Finger.move(id, 150 + Double(i) * 20, 150 - Double(i) * 20))
        }
        h.frame(t0 + 0.22, Finger.up(id, 250, 50))
    }

    @Test func theSampleRecognizesACheckMark() {
        let h = Harness()
        var phases: [CheckmarkPhases] = []
        // The action receives a CheckmarkGestureRecognizer: no cast.
        let check = h.add(CheckmarkGestureRecognizer(name: "check") { r in phases.append(r.strokePhase) })
        checkMark(h)
        #expect(h.log.lines == ["0.22 check ended (250,50) n=1"])
        #expect(phases == [.upStroke])
        #expect(check.kind.rawValue == "CheckmarkGestureRecognizer")
        #expect(check.state == .possible && check.strokePhase == .notStarted && check.trackedTouch == nil)
        // Reset: a second check mark is recognized again.
        checkMark(h, id: 2, at: 1)
        #expect(h.log.lines == ["0.22 check ended (250,50) n=1", "1.22 check ended (250,50) n=1"])
    }

    @Test func withoutANameItLogsItsTypeName() {
        let h = Harness()
        let check = h.add(CheckmarkGestureRecognizer())
        checkMark(h)
        #expect(check.name == "CheckmarkGestureRecognizer")
        #expect(h.log.lines == ["0.22 CheckmarkGestureRecognizer ended (250,50) n=1"])
    }

    @Test func aStraightLineFails() {
        let h = Harness()
        h.add(CheckmarkGestureRecognizer(name: "check"))
        h.stroke(from: Point(x: 100, y: 100), to: Point(x: 300, y: 100), duration: 0.2)
        #expect(h.log.lines == ["0.21 check failed (300,100) n=1"])
    }

    @Test func aStrokeGoingLeftFailsAtTheMove() {
        let h = Harness()
        h.add(CheckmarkGestureRecognizer(name: "check"))
        h.stroke(from: Point(x: 300, y: 100), to: Point(x: 100, y: 100), duration: 0.2)
        #expect(h.log.lines == ["0.02 check failed (280,100) n=1"])
    }

    /// The sample sets `.cancelled` in `touchesCancelled` while still possible: taken as
    /// failed, no trap; the next check mark is recognized.
    @Test func survivesACancelledTouch() {
        let h = Harness()
        let check = h.add(CheckmarkGestureRecognizer(name: "check"))
        var fired = 0
        check.addTarget { _ in fired += 1 }
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.02, Finger.move(1, 110, 110))
        h.frame(0.04, Finger.cancel(1))
        #expect(h.log.lines == ["0.04 check failed (110,110) n=1"])
        #expect(fired == 0)
        #expect(check.state == .possible && check.trackedTouch == nil)
        checkMark(h, id: 2, at: 1)
        #expect(h.log.lines == ["0.04 check failed (110,110) n=1", "1.22 check ended (250,50) n=1"])
        #expect(fired == 1)
    }

    /// A second finger landing later is ignored (`ignore(_:for:)`): the check mark of the first
    /// is still recognized, with one touch.
    @Test func aLaterSecondFingerIsIgnored() {
        let h = Harness()
        let check = h.add(CheckmarkGestureRecognizer(name: "check"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.01, Finger.down(2, 500, 500))
        #expect(check.numberOfTouches == 1)
        for i in 1...5 { h.frame(Double(i) * 0.02, Finger.move(1, 100 + Double(i) * 10, 100 + Double(i) * 10)) }
        h.frame(0.11, Finger.move(2, 400, 400))
        for i in 1...5 { h.frame(0.1 + Double(i) * 0.02, Finger.move(1, 150 + Double(i) * 20, 150 - Double(i) * 20)) }
        h.frame(0.22, Finger.up(1, 250, 50))
        h.frame(0.3, Finger.up(2, 400, 400))
        #expect(h.log.lines == ["0.22 check ended (250,50) n=1"])
    }

    /// Two fingers at once fail the sample at once.
    @Test func twoFingersAtOnceFail() {
        let h = Harness()
        h.add(CheckmarkGestureRecognizer(name: "check"))
        h.frame(0, Finger.down(1, 100, 100), Finger.down(2, 200, 100))
        #expect(h.log.lines == ["0 check failed (150,100) n=2"])
    }

    /// A continuous subclass with no kind: began, changed, ended, with the arena's rules
    /// (a pan on the same touches is excluded once it has begun).
    @Test func aContinuousSubclassWithNoKind() {
        final class Drag: GestureRecognizer {
            var moves = 0
            override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
                moves += 1
                state = moves == 1 ? .began : .changed
            }
            override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) { state = .ended }
            override func reset() { moves = 0 }
        }
        let h = Harness()
        var seen: [GestureState] = []
        let drag = h.add(Drag(name: "drag") { d in seen.append(d.state) })
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        h.stroke(from: Point(x: 100, y: 100), to: Point(x: 100, y: 130), duration: 0.03, steps: 3)
        #expect(
            h.log.lines == [
                "0.01 drag began (100,110) n=1",
                "0.01 pan failed (100,110) n=1 tr=[0,10] v=[0,0]",
                "0.02 drag changed (100,120) n=1",
                "0.03 drag changed (100,130) n=1",
                "0.04 drag ended (100,130) n=1",
            ])
        #expect(seen == [.began, .changed, .changed, .ended])
        #expect(drag.isContinuous == false && drag.state == .possible && pan.state == .possible)
    }

    /// Requests UIKit ignores are ignored (no trap, no log line): `changed` or `possible` from
    /// possible, anything after the end.
    @Test func illegalRequestsOfASubclassAreIgnored() {
        final class Wayward: GestureRecognizer {
            override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
                state = .changed
                state = .possible
                state = .ended
                state = .began
                state = .cancelled
                state = .failed
            }
        }
        let h = Harness()
        let w = h.add(Wayward(name: "w"))
        h.frame(0, Finger.down(1, 10, 10))
        h.frame(0.1, Finger.up(1, 10, 10))
        #expect(h.log.lines == ["0 w ended (10,10) n=1"])
        #expect(w.state == .possible)
    }

    /// A subclass that leaves its state alone when its touch is cancelled: possible fails, an
    /// active one is cancelled, once the touches are gone.
    @Test func aSubclassThatIgnoresCancellation() {
        final class Holder: GestureRecognizer {
            override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
                state = state == .possible ? .began : .changed
            }
        }
        let h = Harness()
        h.add(Holder(name: "holder"))
        h.frame(0, Finger.down(1, 10, 10))
        h.frame(0.1, Finger.cancel(1))
        h.frame(1, Finger.down(2, 10, 10))
        h.frame(1.1, Finger.move(2, 20, 10))
        h.frame(1.2, Finger.cancel(2))
        #expect(
            h.log.lines == [
                "0.1 holder failed (10,10) n=0", "1.1 holder began (20,10) n=1", "1.2 holder cancelled (20,10) n=0",
            ])
    }

    /// Actions typed by the recognizer: a pinch's reads its scale without a cast.
    @Test func typedActions() {
        let h = Harness()
        var scales: [Double] = []
        h.add(PinchGestureRecognizer(name: "pinch") { p in scales.append(p.scale) })
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        var taps: [Int] = []
        tap.addTarget { t in taps.append(t.numberOfTapsRequired) }
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        h.frame(0.01, Finger.move(1, 390, 300), Finger.move(2, 510, 300))
        h.frame(0.02, Finger.up(1, 390, 300), Finger.up(2, 510, 300))
        #expect(scales.map { LogRecorder.r($0) } == ["1.2", "1.2"])
        h.frame(1, Finger.down(3, 100, 100))
        h.frame(1.1, Finger.up(3, 100, 100))
        #expect(taps == [1])
    }

    /// Touches are Hashable by identity (UITouch's equality).
    @Test func touchesAreHashable() {
        let h = Harness()
        final class Collector: GestureRecognizer {
            var seen: Set<Touch> = []
            var all: [Int] = []
            override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
                seen.formUnion(touches)
                all = (event.allTouches ?? []).map(\.id).sorted()
            }
            override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) { seen.formUnion(touches) }
        }
        let c = h.add(Collector(name: "c"))
        h.frame(0, Finger.down(1, 10, 10), Finger.down(2, 20, 20))
        h.frame(0.1, Finger.move(1, 11, 10), Finger.move(2, 21, 20))
        #expect(c.seen.count == 2)
        #expect(c.all == [1, 2])
        #expect(Set(c.touches) == c.seen)
    }
}
