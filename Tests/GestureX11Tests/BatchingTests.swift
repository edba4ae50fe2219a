import CX11
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// A drag that cannot draw is left unread for up to `--input-batch-ms` (issue 10 point 2:
    /// CPU per paced motion), but nothing that could draw may wait for it: presses, releases
    /// and keys reach the loop through the wake connection at once. With a hold of 1 s, an answer
    /// well under a second shows the batch was cut short; without the wake connection the key
    /// below waits ~0.95 s.
    @Suite("gestures run: batched dead motion never delays a key, press or release")
    struct Batching {
        @Test("A key during a dead drag held for 1 s is answered at once, and so is the click after it")
        func keyAndClickEndTheBatch() throws {
            let session = try AppSession(arguments: ["--input-batch-ms", "1000"])
            defer { session.close() }
            let app = session.app
            // The wake connection is up: the hold asked for is the hold in use.
            let ready = try app.log.waitFor("ready line") { $0.type == "ready" }.line
            #expect(ready.number("batchMs") == 1000, "\(ready)")
            let watch = try DamageWatch(display: session.display, window: app.window)
            defer { watch.close() }
            let tap = try app.region("tap")
            app.connection.focus(app.window)
            // A slow drag inside the tap region: past the tap's 10 pt the tap fails, nothing else
            // sees the touch, so the rest of the drag is dead motion.
            let path = straightPath(
                from: tap.center + (-tap.width / 4, 0), to: tap.center + (tap.width / 4, 0), steps: 60)
            var keyAnswer: [Double] = []
            for round in 0..<3 {
                try app.drag(path, interval: 0.004, midwayAfter: 40) {
                    // Nothing is drawn while the drag is dead; the batch now holds the connection.
                    _ = watch.waitQuiet(0.05, limit: 2)
                    let sent = monotonicNow()
                    app.connection.chord([], round == 1 ? 0x2d : 0x3d)  // - or =
                    keyAnswer.append((watch.next(timeout: 1.5) ?? .infinity) - sent)
                }
            }
            #expect(keyAnswer.allSatisfy { $0 < 0.5 }, "key answers \(keyAnswer) s (the hold is 1 s)")
            _ = watch.waitQuiet(0.05, limit: 2)
            let start = app.log.count
            let sent = monotonicNow()
            app.click(at: tap.center)
            let line = try app.waitFor("tap", "ended", from: start, timeout: 3)
            let took = monotonicNow() - sent
            #expect(took < 0.5, "the click after the dead drags was answered after \(took) s: \(line.text)")
            #expect(app.process.isRunning)
        }
    }
}
