import GestureKit
import GestureTestSupport
import Testing

/// `TouchDispatcher.hasLiveGestures`: whether the next move could change a recognizer's state
/// (a shell reads a drag that is not live in batches: no frame can come of it).
@MainActor
@Suite("hasLiveGestures: which touches a move could matter to")
struct LiveGesturesTests {
    @Test("No touch: not live")
    func idle() {
        let h = Harness()
        h.add(PanGestureRecognizer())
        #expect(!h.dispatcher.hasLiveGestures)
    }

    @Test("One finger on a rotation (or pinch) waits for a second: not live; the second makes it live")
    func twoTouchWaits() {
        for r in [RotationGestureRecognizer(), PinchGestureRecognizer()] as [GestureRecognizer] {
            let h = Harness()
            h.add(r)
            h.frame(0, Finger.down(1, 100, 100))
            h.frame(0.016, Finger.move(1, 104, 100))
            #expect(!h.dispatcher.hasLiveGestures, "\(r.kind)")
            h.frame(0.032, Finger.down(2, 200, 100))
            #expect(h.dispatcher.hasLiveGestures, "\(r.kind)")
        }
    }

    @Test("A possible pan with a finger down is live; once it has begun too; after the lift not")
    func pan() {
        let h = Harness()
        h.add(PanGestureRecognizer())
        h.frame(0, Finger.down(1, 100, 100))
        #expect(h.dispatcher.hasLiveGestures)
        h.frame(0.016, Finger.move(1, 130, 100))
        #expect(h.dispatcher.hasLiveGestures)
        h.frame(0.032, Finger.up(1, 130, 100))
        #expect(!h.dispatcher.hasLiveGestures)
    }

    @Test("A tap that failed (moved too far) leaves nothing live while its finger stays down")
    func failedTap() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer())
        h.frame(0, Finger.down(1, 100, 100))
        #expect(h.dispatcher.hasLiveGestures)
        h.frame(0.016, Finger.move(1, 150, 100))
        #expect(tap.state == .failed)
        #expect(!h.dispatcher.hasLiveGestures)
    }
}
