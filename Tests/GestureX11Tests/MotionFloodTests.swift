import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// Input never queues behind dead motion: at any motion rate the app reads what the server
    /// sends and drops the motion that cannot change the picture itself, so a click after a flood
    /// is answered at once and the server holds no backlog. (Reading the socket once per batch
    /// left a click after 10 s of 1 kHz hover answered 23 s late, and Xvfb grew by tens of MB.)
    @Suite("gestures run: a click after 10 s of 1 kHz or 10 kHz dead motion")
    struct MotionFlood {
        /// Tolerances: the click's answer (release sent → the tap's log line) within 100 ms; the
        /// server's resident memory at the end of the flood within 1 MiB of where it was before
        /// it (measured: 8–270 KiB; a backlog of 10 s of motion is 10 000–100 000 events of
        /// 80–100 bytes each: reading once per batch left 1.8 MiB at 1 kHz).
        static let clickLimit = 0.1
        static let rssLimitKiB = 1024

        @Test(
            "Hover, then a drag over the background, 10 s each: the click is answered within 100 ms, Xvfb's memory stays flat",
            arguments: [1000, 10_000])
        func flood(rate: Int) throws {
            let server = try TestXServer()
            let session = try AppSession(display: server.display) { server.stop() }
            defer { session.close() }
            let app = session.app
            let generator = try XConnection(server.display)
            defer { generator.close() }
            // Background right of the flower, clear of every region.
            let image = try app.region("image")
            let centre = LayoutPoint(x: (image.x + image.width + app.layout.width) / 2, y: image.midY)
            let radius = min(40, (app.layout.width - image.x - image.width) / 4)
            let tap = try app.region("tap")

            app.click(at: tap.center)
            try app.waitFor("tap", "ended")
            pause(0.2)
            let rssBefore = try #require(residentKiB(server.process.pid))
            let cpuBefore = try #require(cpuSeconds(app.process.pid))

            var sent = 0
            for drag in [false, true] {
                app.move(to: centre + (radius, 0), on: generator)
                if drag { generator.button(1, pressed: true) }
                sent += motions(generator, app: app, around: centre, radius: radius, rate: rate, seconds: 10)
                if drag { generator.button(1, pressed: false) }
            }
            generator.sync()
            // The server's memory when the flood is over: a backlog left unread is still there.
            let rssAfter = try #require(residentKiB(server.process.pid))
            print("motion flood \(rate) Hz: \(sent) motions, Xvfb RSS \(rssBefore) → \(rssAfter) KiB")
            let start = app.log.count
            app.move(to: tap.center)
            session.connection.button(1, pressed: true)
            pause(0.03)
            session.connection.button(1, pressed: false)
            let released = monotonicNow()
            let line = try app.waitFor("tap", "ended", from: start, timeout: 60)
            let answer = monotonicNow() - released
            let cpu = try #require(cpuSeconds(app.process.pid)) - cpuBefore
            let perMotion = String(format: "%.2f", cpu * 1e6 / Double(sent))
            print(
                "motion flood \(rate) Hz: click answered in \(String(format: "%.1f", answer * 1000)) ms, "
                    + "app CPU \(perMotion) µs per motion")
            #expect(line.label == "Tapped")
            #expect(
                answer < Self.clickLimit, "the click after \(sent) motions at \(rate) Hz was answered in \(answer) s")
            #expect(
                rssAfter - rssBefore < Self.rssLimitKiB,
                "Xvfb's RSS grew from \(rssBefore) KiB to \(rssAfter) KiB over \(sent) motions")
            #expect(app.process.isRunning)
        }

        /// Sends `rate` XTest motions a second for `seconds` on a circle about `centre` (window
        /// points), in 1 ms ticks on an absolute schedule (a tick behind catches up); the count.
        func motions(
            _ c: XConnection, app: GesturesApp, around centre: LayoutPoint, radius: Double, rate: Int,
            seconds: Double
        ) -> Int {
            let perTick = max(1, rate / 1000)
            let ticks = Int(seconds * 1000)
            let start = monotonicNow()
            var n = 0
            for tick in 0..<ticks {
                let due = start + Double(tick) / 1000
                let wait = due - monotonicNow()
                if wait > 0 { pause(wait) }
                for _ in 0..<perTick {
                    let a = Double(n) * 0.01
                    let (x, y) = app.screen(centre + (radius * cos(a), radius * sin(a)))
                    XTestFakeMotionEvent(c.display, -1, Int32(x.rounded()), Int32(y.rounded()), 0)
                    n += 1
                }
                XFlush(c.display)
            }
            return n
        }
    }
}

/// `VmRSS` of a process, KiB.
func residentKiB(_ pid: pid_t) -> Int? {
    let status = readText("/proc/\(pid)/status")
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
    return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1])
}

/// User + system CPU of a process, seconds (`/proc/PID/stat`, clock ticks).
func cpuSeconds(_ pid: pid_t) -> Double? {
    let stat = readText("/proc/\(pid)/stat")
    guard let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
