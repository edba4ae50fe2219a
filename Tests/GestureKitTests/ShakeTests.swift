import GestureKit
import GestureTestSupport
import Testing

/// ShakeGestureRecognizer: one `ended` line per shake, for every enabled shake recognizer in the
/// tree; it takes no touches.
@MainActor
@Suite struct ShakeTests {
    @Test func shakeIsOneEndedLine() {
        let h = Harness()
        let shake = h.add(ShakeGestureRecognizer(name: "shake"))
        var fired: [GestureState] = []
        shake.addAction { fired.append($0.state) }
        h.dispatcher.handleShake(at: 1.5)
        #expect(h.log.lines == ["1.5 shake ended (0,0) n=0"])
        #expect(fired == [.ended])
        #expect(shake.state == .possible)
        // Again: it was reset.
        h.dispatcher.handle(.shake(timestamp: 2))
        #expect(h.log.lines == ["1.5 shake ended (0,0) n=0", "2 shake ended (0,0) n=0"])
        #expect(fired == [.ended, .ended])
    }

    @Test func everyShakeRecognizerInTheTree() {
        let h = Harness()
        let sub = View(frame: Rect(x: 10, y: 10, width: 100, height: 100), name: "sub")
        let deep = View(frame: Rect(x: 10, y: 10, width: 50, height: 50), name: "deep")
        h.root.addSubview(sub)
        sub.addSubview(deep)
        h.add(ShakeGestureRecognizer(name: "a"))
        h.add(ShakeGestureRecognizer(name: "b"), to: deep)
        let off = h.add(ShakeGestureRecognizer(name: "off"), to: sub)
        off.isEnabled = false
        h.dispatcher.handleShake(at: 3)
        #expect(h.log.lines == ["3 a ended (0,0) n=0", "3 b ended (0,0) n=0"])
    }

    @Test func shakeTakesNoTouchesAndLeavesAPanAlone() {
        let h = Harness()
        h.add(ShakeGestureRecognizer(name: "shake"))
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.01, Finger.move(1, 112, 100))
        h.dispatcher.handleShake(at: 0.015)
        h.frame(0.02, Finger.move(1, 124, 100))
        h.frame(0.03, Finger.up(1, 124, 100))
        #expect(
            h.log.lines == [
                "0.01 pan began (112,100) n=1 tr=[12,0] v=[1200,0]",
                "0.015 shake ended (0,0) n=0",
                "0.02 pan changed (124,100) n=1 tr=[24,0] v=[1200,0]",
                "0.03 pan ended (124,100) n=1 tr=[24,0] v=[1200,0]",
            ])
    }

    @Test func disabledShakeIsSilent() {
        let h = Harness()
        let shake = h.add(ShakeGestureRecognizer(name: "shake"))
        shake.isEnabled = false
        h.dispatcher.handleShake(at: 1)
        shake.isEnabled = true
        h.dispatcher.handleShake(at: 2)
        #expect(h.log.lines == ["2 shake ended (0,0) n=0"])
    }
}
