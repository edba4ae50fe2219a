import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// Liveness: a signal ends the app cleanly within 1 s whatever it is
    /// doing, and under systemd the loop pings the watchdog.
    @Suite("gestures run: signals mid-drag, the systemd watchdog")
    struct Liveness {
        @Test(
            "SIGTERM, SIGINT or SIGHUP in the middle of a drag: status 0 within 1 s, log and recording whole",
            arguments: [SIGTERM, SIGINT, SIGHUP])
        func signalMidDrag(signal: Int32) throws {
            let directory = try TemporaryDirectory(prefix: "gestures-live")
            let record = directory.file("rec.jsonl")
            let session = try AppSession(arguments: ["--record", record])
            defer { session.close() }
            let app = session.app
            let image = try app.region("image")
            let path = straightPath(from: image.center, to: image.center + (120, -60), steps: 200)
            var sent = 0.0
            try app.drag(path, interval: 0.002, midwayAfter: 100) {
                sent = monotonicNow()
                app.process.signal(signal)
            }
            let status = app.waitForExit(timeout: 3)
            let took = monotonicNow() - sent
            #expect(status == 0, "status \(String(describing: status)); stderr: \(app.stderr)")
            #expect(took < 1, "the app took \(took) s to exit")
            let log = try String(contentsOfFile: app.log.path, encoding: .utf8)
            #expect(log.hasSuffix("\n"), "the event log ends in a partial line")
            #expect(log.split(separator: "\n").last?.contains("\"type\":\"final\"") == true)
            let trace = try String(contentsOfFile: record, encoding: .utf8)
            #expect(trace.hasSuffix("\n") && trace.contains("\"type\":\"move\""))
            let replay = try ChildProcess(
                try gesturesBinary(), ["replay", record], stdout: .file(directory.file("out")))
            #expect(replay.wait(timeout: 20) == 0, "the recording does not replay")
        }

        @Test("A --record reader that stops reading never stalls the window; SIGTERM then ends the app within 1 s")
        func stalledReader() throws {
            let directory = try TemporaryDirectory(prefix: "gestures-stall")
            let fifo = directory.file("rec.fifo")
            #expect(mkfifo(fifo, 0o600) == 0)
            // A reader that opens the FIFO and never reads: the pipe (64 KiB) fills up.
            let reader = open(fifo, O_RDONLY | O_NONBLOCK)
            #expect(reader >= 0)
            // The smallest pipe (one page; F_SETPIPE_SZ = 1031), so a short drag fills it.
            _ = fcntl(reader, 1031, 4096)
            defer { close(reader) }
            let session = try AppSession(arguments: ["--record", fifo])
            defer { session.close() }
            let app = session.app
            let image = try app.region("image")
            // Hundreds of move lines: far more than the pipe holds.
            for round in 0..<3 {
                let start = app.log.lines(from: 0).count
                let (dx, dy) = round % 2 == 0 ? (150.0, -80.0) : (-150.0, 80.0)
                let from = image.center + (round % 2 == 0 ? (0, 0) : (150, -80))
                try app.drag(straightPath(from: from, to: from + (dx, dy), steps: 400), interval: 0.001, rest: 0.07)
                // The window still answers: the pan's end is logged (the log is another file).
                try app.waitFor("imagePan", "ended", from: start, timeout: 5)
            }
            let sent = monotonicNow()
            app.process.signal(SIGTERM)
            let status = app.waitForExit(timeout: 5)
            let took = monotonicNow() - sent
            #expect(took < 1, "the app took \(took) s to exit")
            #expect(status == 1, "status \(String(describing: status))")
            #expect(
                app.stderr.hasPrefix("gestures: --record: the reader did not take the last "),
                "stderr: \(app.stderr)")
        }

        @Test(
            "Under systemd: READY=1 after the first frame, then WATCHDOG=1 every half period; STOPPING=1 at SIGTERM (kiosk too: status 143)",
            arguments: [[], ["--kiosk"]])
        func watchdog(arguments: [String]) throws {
            let directory = try TemporaryDirectory(prefix: "gestures-notify")
            let socketPath = directory.file("notify.sock")
            let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            #expect(fd >= 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { p in
                for (i, b) in socketPath.utf8.enumerated() { p[i] = b }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            #expect(bound == 0)
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            // A 200 ms watchdog: pings every 100 ms.
            let session = try AppSession(
                arguments: arguments, environment: ["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "200000"])
            defer { session.close() }
            /// The datagrams received within `seconds`, or until `last` arrives.
            func receive(for seconds: Double, until last: String? = nil) -> [String] {
                var got: [String] = []
                let start = monotonicNow()
                while monotonicNow() - start < seconds && (last == nil || got.last != last) {
                    var buf = [UInt8](repeating: 0, count: 256)
                    let n = recv(fd, &buf, buf.count, 0)
                    if n > 0 { got.append(String(decoding: buf[0..<n], as: UTF8.self)) }
                }
                return got
            }
            let messages = receive(for: 1.2)
            #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)")
            let pings = messages.filter { $0 == "WATCHDOG=1" }.count
            #expect(pings >= 7 && pings <= 14, "\(pings) pings in 1.2 s: \(messages)")
            if !arguments.isEmpty {
                // A kiosk's SIGHUP reloads: RELOADING=1 (with MONOTONIC_USEC), then READY=1.
                session.app.process.signal(SIGHUP)
                let got = receive(for: 2, until: "READY=1")
                let reload = got.filter { $0 != "WATCHDOG=1" }
                #expect(
                    reload.count == 2 && reload[0].hasPrefix("RELOADING=1\nMONOTONIC_USEC=") && reload[1] == "READY=1",
                    "\(got)")
            }
            session.app.process.signal(SIGTERM)
            let stopping = receive(for: 2, until: "STOPPING=1").last == "STOPPING=1"
            #expect(stopping, "no STOPPING=1 after SIGTERM")
            #expect(session.app.waitForExit(timeout: 5) == (arguments.isEmpty ? 0 : 143))
        }
    }
}
