import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A datagram socket standing in for systemd's NOTIFY_SOCKET: the messages and when they came.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(in directory: TemporaryDirectory) throws {
        path = directory.file("notify.sock")
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { p in
            for (i, b) in path.utf8.enumerated() { p[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, bound == 0 else { throw XTestError("cannot bind \(path)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 20_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The messages received within `seconds` (or until `stop` says so), with their arrival times.
    func receive(for seconds: Double, until stop: (String) -> Bool = { _ in false }) -> [(Double, String)] {
        var got: [(Double, String)] = []
        let start = monotonicNow()
        while monotonicNow() - start < seconds {
            var buf = [UInt8](repeating: 0, count: 256)
            let n = recv(fd, &buf, buf.count, 0)
            guard n > 0 else { continue }
            let message = String(decoding: buf[0..<n], as: UTF8.self)
            got.append((monotonicNow(), message))
            if stop(message) { break }
        }
        return got
    }
}

extension XServerTests {
    /// The app's liveness is its own: with the X server stopped (SIGSTOP) in the middle of the
    /// attract tour, the loop runs on — the watchdog pings at its interval and SIGTERM ends the
    /// app within 1 s — and it never waits on a reply or a write. With `--saver-reset-only` (as
    /// on a server without MIT-SCREEN-SAVER 1.1) and the saver's timeout at 1 s, the saver is
    /// reset every 0.5 s during the stall too, and its timeout query waits on nothing.
    @Suite("A stalled X server: watchdog and SIGTERM")
    struct StalledServer {
        @Test(
            "Xvfb stopped mid-tour (the saver suspended, or reset every 0.5 s): WATCHDOG=1 every 100 ms (no gap over 300 ms for 3 s), SIGTERM ends the kiosk within 1 s",
            arguments: [[], ["--saver-reset-only"]]
        )
        func stoppedMidTour(extra: [String]) throws {
            let server = try TestXServer()
            // A saver timeout of 1 s: a reset every 0.5 s where the saver is reset, not suspended.
            let probe = try XConnection(server.display)
            XSetScreenSaver(probe.display, 1, 600, PreferBlanking, AllowExposures)
            probe.sync()
            probe.close()
            let directory = try TemporaryDirectory(prefix: "gestures-stall")
            let notify = try NotifySocket(in: directory)
            let session = try AppSession(
                display: server.display,
                arguments: ["--kiosk", "--kiosk-tour-after", "1", "--kiosk-reset-after", "1"] + extra,
                environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"]
            ) {
                kill(server.process.pid, SIGCONT)
                server.stop()
            }
            defer { session.close() }
            let app = session.app
            _ = try app.log.waitFor("tour start", timeout: 6) { $0.string("event") == "tourStart" }
            pause(0.5)
            kill(server.process.pid, SIGSTOP)
            defer { kill(server.process.pid, SIGCONT) }
            let stoppedAt = monotonicNow()
            let pings = notify.receive(for: 3).filter { $0.1 == "WATCHDOG=1" }.map(\.0)
            let worst = longestPingGap(pings, from: stoppedAt, over: 3)
            #expect(pings.count >= 20, "\(pings.count) pings in 3 s with the server stopped")
            #expect(worst < 0.3, "the longest gap between pings was \(worst) s")
            let sent = monotonicNow()
            app.process.signal(SIGTERM)
            let status = app.waitForExit(timeout: 5)
            let took = monotonicNow() - sent
            #expect(status == 143, "status \(String(describing: status)); stderr: \(app.stderr)")
            #expect(took < 1, "SIGTERM took \(took) s with the server stopped")
            print(
                "stalled server: \(pings.count) pings in 3 s, longest gap \(String(format: "%.3f", worst)) s; "
                    + "SIGTERM → exit in \(String(format: "%.3f", took)) s")
        }

        /// The placement check of a kiosk on a chosen monitor under a window manager (where
        /// the window went, one second after the map) asks the server without waiting for it:
        /// with the server stopped before the check is due, the pings go on through the check's
        /// time, and once the server runs again the check finds the window on its monitor.
        @Test(
            "Xvfb stopped before the placement check of `--kiosk --monitor 0` under openbox: WATCHDOG=1 every 100 ms through the check (no gap over 300 ms for 3 s)"
        )
        func stoppedBeforePlacementCheck() throws {
            let server = try TestXServer()
            let directory = try TemporaryDirectory(prefix: "gestures-stall-placement")
            let wm = try TestWindowManager("openbox", display: server.display, directory: directory)
            defer { wm.process.stop() }
            let notify = try NotifySocket(in: directory)
            let session = try AppSession(
                display: server.display, arguments: ["--kiosk", "--monitor", "0"],
                environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"]
            ) {
                kill(server.process.pid, SIGCONT)
                server.stop()
            }
            defer { session.close() }
            let app = session.app
            // Ready comes after the map and the first frame: the check is due well after this.
            let mapped = try app.log.waitFor("monitor line", timeout: 5) {
                $0.type == "kiosk" && $0.string("event") == "monitor"
            }.line
            #expect(mapped.number("index") == 0, "\(mapped)")
            pause(0.2)
            kill(server.process.pid, SIGSTOP)
            let stoppedAt = monotonicNow()
            let pings = notify.receive(for: 3).filter { $0.1 == "WATCHDOG=1" }.map(\.0)
            kill(server.process.pid, SIGCONT)
            let worst = longestPingGap(pings, from: stoppedAt, over: 3)
            #expect(pings.count >= 20, "\(pings.count) pings in 3 s with the server stopped")
            #expect(worst < 0.3, "the longest gap between pings was \(worst) s")
            // The server answers: the check finds the window on its monitor and says nothing.
            pause(1.5)
            #expect(app.process.isRunning, "\(app.stderr)")
            let elsewhere = app.log.lines(from: 0).filter { $0.string("event") == "monitorElsewhere" }
            #expect(elsewhere.isEmpty, "\(summary(elsewhere))")
            print(
                "stalled server before the placement check: \(pings.count) pings in 3 s, longest gap "
                    + "\(String(format: "%.3f", worst)) s")
        }

        /// Another client holding a server grab is a stalled server for everyone else. What the
        /// app asks the server after start-up — the keyboard mapping after a MappingNotify, the
        /// devices' scroll classes after a hierarchy change, the monitors after a screen change
        /// (here the root's ConfigureNotify, as another client can send it) — it asks without
        /// waiting: with the server grabbed right as the change is made, the pings go on, and
        /// once the grab ends the app answers keys again (`q` quits).
        @Test(
            "A server grab over a keyboard-mapping, device-hierarchy or screen change (--fullscreen --monitor 0): WATCHDOG=1 every 100 ms (no gap over 300 ms for 2 s), then q quits",
            arguments: ["keyboard mapping", "device hierarchy", "screen"])
        func grabbedOverChange(change: String) throws {
            let directory = try TemporaryDirectory(prefix: "gestures-grab")
            let notify = try NotifySocket(in: directory)
            let session = try AppSession(
                arguments: ["--fullscreen", "--monitor", "0"],
                environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
            defer { session.close() }
            let (app, x) = (session.app, session.connection)
            pause(0.3)
            XGrabServer(x.display)
            if change == "keyboard mapping" {
                // The same keysyms again: the server still tells every client the mapping changed.
                let code = XKeysymToKeycode(x.display, KeySym(0x61))
                var syms: [KeySym] = [0x61, 0x41]
                XChangeKeyboardMapping(x.display, Int32(code), 2, &syms, 1)
                x.sync()
            } else if change == "device hierarchy" {
                _ = try x.createMasterPointer("grabbed")
            } else {
                var event = XEvent()
                event.xconfigure.type = ConfigureNotify
                event.xconfigure.event = x.root
                event.xconfigure.window = x.root
                event.xconfigure.width = 1024
                event.xconfigure.height = 768
                XSendEvent(x.display, x.root, 0, StructureNotifyMask, &event)
                x.sync()
            }
            let grabbedAt = monotonicNow()
            let pings = notify.receive(for: 2).filter { $0.1 == "WATCHDOG=1" }.map(\.0)
            XUngrabServer(x.display)
            x.sync()
            let worst = longestPingGap(pings, from: grabbedAt, over: 2)
            #expect(pings.count >= 13, "\(change): \(pings.count) pings in 2 s with the server grabbed")
            #expect(worst < 0.3, "\(change): the longest gap between pings was \(worst) s")
            pause(0.2)
            x.key(0x71, pressed: true)
            x.key(0x71, pressed: false)
            x.sync()
            let status = app.waitForExit(timeout: 3)
            #expect(status == 0, "\(change): q after the grab: status \(String(describing: status)); \(app.stderr)")
            print(
                "server grabbed over a \(change) change: \(pings.count) pings in 2 s, longest gap "
                    + "\(String(format: "%.3f", worst)) s")
        }
    }
}

/// The longest time without a watchdog ping in the `seconds` from `start`: between two pings, or
/// from the start to the first and from the last to the end (infinity with none).
func longestPingGap(_ pings: [Double], from start: Double, over seconds: Double) -> Double {
    guard let first = pings.first, let last = pings.last else { return .infinity }
    let between = zip(pings.dropFirst(), pings).map { $0 - $1 }
    return ([first - start, start + seconds - last] + between).max() ?? .infinity
}
