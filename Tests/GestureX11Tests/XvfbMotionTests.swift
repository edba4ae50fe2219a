import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The flower's motion, live: the animations run on the event loop's deadlines and stop (no CPU
    /// once they end); `u` undoes, a double click sends the flower home.
    @Suite("gestures run on Xvfb: momentum, undo, double click")
    struct XvfbMotion {
        /// The `animation` lines of `kind` from log index `start`, waiting for its end.
        static func waitForAnimation(_ app: GesturesApp, _ kind: String, from start: Int) throws -> LogLine {
            try app.log.waitFor("\(kind) animation ended", from: start, timeout: 5) {
                $0.type == "animation" && $0.object["animation"] as? String == kind && $0.state == "ended"
            }.line
        }

        static func matrix(_ line: LogLine) -> [Double] {
            (line.object["matrix"] as? [NSNumber])?.map(\.doubleValue) ?? []
        }

        @Test("A fling carries the flower on, then the app idles; u brings it back; a double click resets")
        func flingUndoDoubleClick() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let image = try app.region("image")
            let home = [1, 0, 0, 1, image.x, image.y]
            // A flick of 100 pt in 50 ms, released at once: ~2000 pt/s.
            try app.drag(straightPath(from: image.center, to: image.center + (100, 0), steps: 10), interval: 0.005)
            let momentum = try Self.waitForAnimation(app, "momentum", from: 0)
            let m = Self.matrix(momentum)
            #expect(m.count == 6 && m[4] > image.x + 150, "the fling carried the flower on: \(momentum)")
            // Idle once it ended: the loop sleeps.
            pause(0.1)
            let pid = app.process.pid
            let cpu0 = ProcessProbe.cpuSeconds(pid) ?? 0
            pause(1)
            let idle = (ProcessProbe.cpuSeconds(pid) ?? .infinity) - cpu0
            #expect(idle < 0.01, "\(idle) s of CPU in 1 s after the animation ended")

            // u: undo the drag (animated back home).
            var start = app.log.count
            app.keyChord([], 0x75)
            let undo = try Self.waitForAnimation(app, "undo", from: start)
            #expect(zip(Self.matrix(undo), home).allSatisfy { abs($0 - $1) < 1e-6 }, "\(undo)")

            // Moved by a key, then a double click on the flower: home again, animated.
            app.keyChord([], 0xFF53)  // Right
            start = app.log.count
            app.click(at: image.center)
            pause(0.05)
            app.click(at: image.center)
            let reset = try Self.waitForAnimation(app, "reset", from: start)
            #expect(zip(Self.matrix(reset), home).allSatisfy { abs($0 - $1) < 1e-6 }, "\(reset)")
            #expect(app.lines(of: "imageDoubleTap", from: start).last?.label == "Double tapped")
        }
    }
}
