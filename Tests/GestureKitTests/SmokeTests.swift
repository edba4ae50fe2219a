import GestureKit
import Testing

@MainActor
@Suite struct SmokeTests {
    @Test func singleTap() {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 102, 101))
        #expect(h.log.lines == ["0.1 tap ended (102,101) n=1 taps=1 touches=1"])
    }

    @Test func pinchSpread() {
        let h = Harness()
        h.add(PinchGestureRecognizer(name: "pinch"))
        h.frame(0, Finger.down(1, 400, 300), Finger.down(2, 500, 300))
        for i in 1...10 {
            h.frame(
                Double(i) * 0.016, Finger.move(1, 400 - Double(i) * 5, 300), Finger.move(2, 500 + Double(i) * 5, 300))
        }
        h.frame(0.2, Finger.up(1, 350, 300), Finger.up(2, 550, 300))
        print(h.log.lines.joined(separator: "\n"))
        #expect(h.log.states(of: "pinch").first == .began)
        #expect(h.log.states(of: "pinch").last == .ended)
    }
}
