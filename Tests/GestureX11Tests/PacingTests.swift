import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// Frame pacing: at most one frame per refresh interval, by the Present
    /// extension's vertical blanks where there is a display with a refresh rate (Xorg + dummy:
    /// a 60 Hz mode, Present's MSC clock), by a deadline where there is none (Xvfb).
    @Suite("gestures run: frames paced by Present's vertical blanks, or by a deadline on Xvfb")
    struct Pacing {
        /// Drags the flower with the core pointer for `seconds`, a motion every 4 ms (250 Hz,
        /// faster than any refresh here), and returns the frames drawn meanwhile: runs of
        /// DamageNotify events less than 3 ms apart.
        func framesDuringDrag(
            _ session: AppSession, seconds: Double
        ) throws -> (frames: Int, motions: Int, elapsed: Double) {
            let app = session.app
            let watch = try DamageWatch(display: session.display, window: app.window)
            defer { watch.close() }
            let image = try app.region("image")
            let motions = Int(seconds / 0.004)
            // A circle of 40 pt about the flower's centre: every motion moves it.
            let path = (0...motions).map { i -> LayoutPoint in
                let a = Double(i) / Double(motions) * 4 * Double.pi
                return image.center + (40 * cos(a) - 40, 40 * sin(a))
            }
            watch.waitQuiet(0.1, limit: 3)
            var times: [Double] = []
            // Damage is read while the drag goes on (a time is taken when an event is read).
            func collect(for duration: Double) {
                let until = monotonicNow() + duration
                while let t = watch.next(timeout: max(0, until - monotonicNow())) { times.append(t) }
            }
            app.move(to: path[0])
            let start = monotonicNow()
            app.connection.button(1, pressed: true)
            app.connection.sync()
            for p in path.dropFirst() {
                collect(for: 0.004)
                app.move(to: p)
                app.connection.sync()
            }
            app.connection.button(1, pressed: false)
            app.connection.sync()
            collect(for: 0.2)
            var frames = 0
            var last = -Double.infinity
            for t in times {
                if t - last > 0.003 { frames += 1 }
                last = t
            }
            return (frames, motions, monotonicNow() - start)
        }

        @Test("Xorg + dummy (60 Hz mode): Present pacing, at most one frame per vertical blank", xorgNeedsRoot)
        func presentOnXorg() throws {
            let server = try XorgInputTest()
            let session = try AppSession(display: server.display) { server.stop() }
            defer { session.close() }
            let ready = try session.app.log.waitFor("ready line") { $0.type == "ready" }.line
            #expect(ready.string("pacing") == "present", "\(ready)")
            let hz = try #require(ready.number("refreshHz"))
            #expect(hz > 50 && hz < 70, "\(ready)")
            let (frames, motions, elapsed) = try framesDuringDrag(session, seconds: 1.5)
            print("Present pacing at \(hz) Hz: \(frames) frames for \(motions) motions in \(elapsed) s")
            // One frame per vertical blank at most (the elapsed time includes the 0.2 s after the
            // release), and at least a third of the blanks of the drag got one.
            #expect(frames <= Int(elapsed * hz * 1.05) + 2, "\(frames) frames in \(elapsed) s")
            #expect(frames >= Int(1.5 * hz / 3), "\(frames) frames for \(motions) motions")
            #expect(Double(frames) < Double(motions) * 0.6, "\(frames) frames for \(motions) motions: not paced")
        }

        @Test("Xvfb (no refresh rate): deadline pacing, a frame per motion at 250 Hz")
        func deadlineOnXvfb() throws {
            let session = try AppSession()
            defer { session.close() }
            let ready = try session.app.log.waitFor("ready line") { $0.type == "ready" }.line
            #expect(ready.string("pacing") == "deadline" && ready.number("refreshHz") == 240, "\(ready)")
            let (frames, motions, _) = try framesDuringDrag(session, seconds: 1)
            // 250 Hz motions under a 240 Hz cap: most motions get their own frame.
            #expect(Double(frames) > Double(motions) * 0.6, "\(frames) frames for \(motions) motions")
        }
    }
}
