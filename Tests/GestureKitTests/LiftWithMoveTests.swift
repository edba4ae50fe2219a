import GestureKit
import GestureTestSupport
import Testing

/// A frame that carries a touch's last move and its lift (or cancel), as real Android and evemu
/// recordings do: the recognizers see the move, then the lift, at that time (the frame is
/// handled as two), also after frames of moves only (which take a shortcut that reuses the last
/// frame's grouping of touches by phase). Every test asserts the whole log.
@MainActor
@Suite struct LiftWithMoveTests {
    /// The trace: the pan ends with the whole translation, (100, 0).
    @Test func panEndsWithTheMoveThatSharesTheLiftsFrame() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var ends: [Vector] = []
        pan.addAction { r in if r.state == .ended { ends.append((r as! PanGestureRecognizer).translation(in: nil)) } }
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, 150, 100))
        h.frame(0.2, Finger.move(1, 200, 100), Finger.up(1, 200, 100))
        #expect(
            h.log.lines == [
                "0.1 pan began (150,100) n=1 tr=[50,0] v=[500,0]",
                "0.2 pan changed (200,100) n=1 tr=[100,0] v=[500,0]",
                "0.2 pan ended (200,100) n=1 tr=[100,0] v=[500,0]",
            ])
        #expect(ends == [Vector(dx: 100, dy: 0)])
        #expect(pan.state == .possible)
    }

    /// The same after several frames of moves (the reuse of the last frame's grouping is in
    /// force), with the lift's location beyond the last move's.
    @Test func panAfterASteadyStreamOfMoves() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100))
        for i in 1...4 { h.frame(Double(i) * 0.01, Finger.move(1, 100 + Double(i) * 10, 100)) }
        h.frame(0.05, Finger.move(1, 150, 100), Finger.up(1, 160, 100))
        #expect(
            h.log.lines == [
                "0.02 pan began (120,100) n=1 tr=[20,0] v=[1000,0]",
                "0.03 pan changed (130,100) n=1 tr=[30,0] v=[1000,0]",
                "0.04 pan changed (140,100) n=1 tr=[40,0] v=[1000,0]",
                "0.05 pan changed (150,100) n=1 tr=[50,0] v=[1000,0]",
                // The lift's own location counts for the translation; a lift is no sample.
                "0.05 pan ended (160,100) n=1 tr=[60,0] v=[1000,0]",
            ])
    }

    /// A 50 ms tap whose lift comes with a (small) move is recognized at that lift.
    @Test func tapWhoseLiftComesWithAMove() {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.02, Finger.move(1, 101, 100))
        h.frame(0.05, Finger.move(1, 102, 100), Finger.up(1, 102, 100))
        #expect(h.log.lines == ["0.05 tap ended (102,100) n=1 taps=1 touches=1"])
    }

    /// A pinch ends at its true last scale: 1.4, not the 1.2 of the frame before.
    @Test func pinchEndsAtItsLastScale() {
        let h = Harness()
        let pinch = h.add(PinchGestureRecognizer(name: "pinch"))
        var last = 0.0
        pinch.addAction { r in last = (r as! PinchGestureRecognizer).scale }
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        h.frame(0.01, Finger.move(1, 390, 300), Finger.move(2, 510, 300))
        h.frame(0.02, Finger.move(1, 380, 300), Finger.move(2, 520, 300))
        h.frame(
            0.03, Finger.move(1, 370, 300), Finger.move(2, 530, 300), Finger.up(1, 370, 300),
            Finger.up(2, 530, 300))
        #expect(
            h.log.lines == [
                "0.01 pinch began (450,300) n=2 scale=1.2 v=20",
                "0.02 pinch changed (450,300) n=2 scale=1.4 v=20",
                "0.03 pinch changed (450,300) n=2 scale=1.6 v=20",
                "0.03 pinch ended (450,300) n=2 scale=1.6 v=20",
            ])
        #expect(abs(last - 1.6) < 1e-12)
    }

    /// A move and a cancel at the same instant end the pan as cancelled, not ended.
    @Test func moveAndCancelInOneFrameCancel() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, 150, 100))
        h.frame(0.2, Finger.move(1, 200, 100))
        h.frame(0.3, Finger.move(1, 250, 100), Finger.cancel(1))
        #expect(
            h.log.lines == [
                "0.1 pan began (150,100) n=1 tr=[50,0] v=[500,0]",
                "0.2 pan changed (200,100) n=1 tr=[100,0] v=[500,0]",
                "0.3 pan changed (250,100) n=1 tr=[150,0] v=[500,0]",
                "0.3 pan cancelled (250,100) n=1 tr=[150,0] v=[500,0]",
            ])
    }

    /// One finger lifts with its move while the other keeps moving: the lifting one is ended,
    /// the other moved, in the same frame; the pan follows the finger left down.
    @Test func oneOfTwoFingersLiftsWithItsMove() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var n: [Int] = []
        pan.addAction { n.append($0.numberOfTouches) }
        h.frame(0, Finger.down(1, 100, 100), Finger.down(2, 200, 100))
        h.frame(0.1, Finger.move(1, 100, 150), Finger.move(2, 200, 150))
        h.frame(0.2, Finger.move(1, 100, 200), Finger.move(2, 200, 200))
        h.frame(0.3, Finger.move(1, 100, 250), Finger.up(1, 100, 250), Finger.move(2, 200, 250))
        h.frame(0.4, Finger.up(2, 200, 250))
        // 0.3: the move, then the lift of finger 1 (a re-base: the translation does not jump).
        #expect(h.log.states(of: "pan") == [.began, .changed, .changed, .changed, .ended])
        #expect(n == [2, 2, 2, 2, 1])
        #expect(h.log.lines.last?.hasPrefix("0.4 pan ended (200,250) n=1 tr=[0,150]") == true, "\(h.log.lines)")
    }

    /// A move listed after the lift of the same touch in one frame is ignored: the touch ended
    /// (where the lift says; a lift records no velocity sample).
    @Test func aMoveAfterTheLiftIsIgnored() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.move(1, 150, 100))
        h.frame(0.2, Finger.up(1, 200, 100), Finger.move(1, 900, 900))
        #expect(
            h.log.lines == [
                "0.1 pan began (150,100) n=1 tr=[50,0] v=[500,0]",
                "0.2 pan ended (200,100) n=1 tr=[100,0] v=[0,0]",
            ])
    }
}
