import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Touch input-to-frame latency on Xorg + inputtest, a measurement (run on demand:
/// `GESTURES_TOUCH_LATENCY=60 swift test --skip-build --filter TouchLatency`, the number being
/// the device frames per pass; `GESTURES_BINARY` picks the binary). Two fingers on the flower,
/// a device frame every 60 ms, each finger's update a write of its own: latency = the frame's
/// first finger is sent → the last damage of the window before it goes quiet for 30 ms, i.e.
/// the frame that shows the whole device frame (DAMAGE, from a connection of its own). Pass
/// "both": both fingers move (a whole device frame goes at once); pass "still": one finger stays
/// still (the frame waits up to `TouchFrameBuilder.deviceFrameWait` for it). Prints
/// p50/p95/max; asserts nothing about time.
@Suite(
    "Touch input-to-frame latency (GESTURES_TOUCH_LATENCY)",
    .enabled(if: ProcessInfo.processInfo.environment["GESTURES_TOUCH_LATENCY"] != nil), xorgNeedsRoot)
struct TouchLatency {
    @Test("Two fingers on the flower, both moving or one still: p50/p95 of touch → frame")
    func measure() throws {
        let frames = Int(ProcessInfo.processInfo.environment["GESTURES_TOUCH_LATENCY"] ?? "") ?? 60
        let t = try TouchSession()
        defer { t.close() }
        let watch = try DamageWatch(display: t.server.display, window: t.app.window)
        defer { watch.close() }
        let image = try t.app.region("image")
        var report: [String] = []
        for still in [false, true] {
            let c = image.center
            var a = c + (-image.width * 0.2, 0)
            var b = c + (image.width * 0.2, 0)
            try t.touches([(.begin, 1, a), (.begin, 2, b)])
            _ = watch.waitQuiet(0.1, limit: 2)
            var latencies: [Double] = []
            for i in 0..<frames {
                pause(0.03)
                let step = (i / 10) % 2 == 0 ? 2.0 : -2.0
                if !still { a = a + (step, step / 2) }
                b = b + (step, -step / 2)
                let sent = monotonicNow()
                if !still { try t.server.touchscreen.touch(.update, id: 1, x: t.app.screen(a).0, y: t.app.screen(a).1) }
                try t.server.touchscreen.sync()
                try t.server.touchscreen.touch(.update, id: 2, x: t.app.screen(b).0, y: t.app.screen(b).1)
                try t.server.touchscreen.sync()
                var last: Double?
                while let drawn = watch.next(timeout: 0.03) { last = drawn }
                if let last { latencies.append(last - sent) }
            }
            try t.touches([(.end, 1, a), (.end, 2, b)])
            _ = watch.waitQuiet(0.3, limit: 3)
            let sorted = latencies.sorted()
            func q(_ p: Double) -> Double {
                sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))]
            }
            report.append(
                String(
                    format: "touch latency %@: %d/%d frames drawn, p50 %.2f ms, p95 %.2f ms, max %.2f ms",
                    still ? "one still" : "both move", latencies.count, frames, q(0.5) * 1000, q(0.95) * 1000,
                    (sorted.last ?? .nan) * 1000))
        }
        print(report.joined(separator: "\n"))
        #expect(t.app.process.isRunning)
    }
}
