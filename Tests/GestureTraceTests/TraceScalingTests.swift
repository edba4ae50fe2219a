import GestureKit
import GestureTestSupport
import GestureTrace
import Testing

@MainActor
@Suite struct TraceScalingTests {
    @Test func locationsScalePerAxisAndNothingElseChanges() {
        let events: [InputEvent] = [
            .touches(
                TouchFrame(
                    timestamp: 0.5,
                    changes: [Finger.down(7, 512, 384)])),
            .touchpadPinch(
                TouchpadPinch(
                    timestamp: 1, phase: .update, location: Point(x: 100, y: 200), scale: 1.5, angleDelta: 3)),
            .shake(timestamp: 2),
            .wait(timestamp: 3),
        ]
        let out = Trace.scaled(events, from: Size(width: 1024, height: 768), to: Size(width: 1280, height: 800))
        #expect(
            out == [
                .touches(
                    TouchFrame(
                        timestamp: 0.5,
                        changes: [Finger.down(7, 640, 400)])),
                .touchpadPinch(
                    TouchpadPinch(
                        timestamp: 1, phase: .update, location: Point(x: 125, y: 200 * 800 / 768), scale: 1.5,
                        angleDelta: 3)),
                .shake(timestamp: 2),
                .wait(timestamp: 3),
            ])
    }

    @Test func sameSizeIsIdentity() {
        let events: [InputEvent] = [
            .touches(
                TouchFrame(timestamp: 0, changes: [Finger.down(1, 1, 2)]))
        ]
        let s = Size(width: 1024, height: 768)
        #expect(Trace.scaled(events, from: s, to: s) == events)
    }
}
