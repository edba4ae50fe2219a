import GestureKit
import GestureTestSupport
import Testing

/// `TouchDispatcher.onFailure`: called once per failure, before the failed transition is
/// reported, and for nothing else.
@MainActor
@Suite struct FailureHookTests {
    @Test("A tap held too long: the hook runs once, before the failed line")
    func beforeTheLine() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(name: "tap"))
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        var seen: [String] = []
        h.dispatcher.onFailure = { r in seen.append("\(r.name) failed, \(h.log.lines.count) lines before") }
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.7, Finger.up(1, 100, 100))
        #expect(seen == ["tap failed, 0 lines before", "pan failed, 1 lines before"])
        #expect(
            h.log.lines == [
                "0.5 tap failed (100,100) n=1 taps=0 touches=1", "0.7 pan failed (100,100) n=1 tr=[0,0] v=[0,0]",
            ])
        _ = (tap, pan)
    }
}
