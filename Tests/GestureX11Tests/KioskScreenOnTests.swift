import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The screen kept on where the X server cannot (rootless Xwayland has no
    /// MIT-SCREEN-SAVER): the idle inhibit on the session bus, against a stand-in
    /// org.freedesktop.ScreenSaver (Tests/Fixtures/screensaver-standin.py) on a private bus.
    @Suite("gestures run --kiosk without MIT-SCREEN-SAVER: idle inhibit on the session bus")
    struct KioskScreenOn {
        @Test(
            "Inhibit within 1 s of the start, UnInhibit at SIGTERM; 100 starts and stops leave no cookie behind")
        func inhibitAndRelease() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let standin = try bus.startScreenSaverStandIn()
            defer { standin.stop() }
            let server = try TestXServer(extraArguments: ["-extension", "MIT-SCREEN-SAVER"])
            defer { server.stop() }
            let binary = try gesturesBinary()
            let directory = try TemporaryDirectory()
            let runs = 100
            var slowest = 0.0
            for run in 0..<runs {
                let logPath = directory.file("events-\(run).jsonl")
                let started = monotonicNow()
                let app = try ChildProcess(
                    binary, ["run", "--kiosk", "--size", "320x240", "--log-events", logPath],
                    environment: ["DISPLAY": server.display, "DBUS_SESSION_BUS_ADDRESS": bus.address],
                    stderr: .file(directory.file("stderr-\(run).txt")))
                let inhibited = poll(timeout: 10, interval: 0.005) { () -> Double? in
                    guard let s = standin.state(), s.inhibits == run + 1 else { return nil }
                    return s.lastInhibit
                }
                let at = try #require(
                    inhibited, "run \(run): no Inhibit; stderr: \(tail(directory.file("stderr-\(run).txt")))")
                slowest = max(slowest, at - started)
                if run == 0 {
                    // The log says which service holds the screen on, and how long the round trip took.
                    let log = EventLog(path: logPath)
                    let on = try log.waitFor("screenOn line") { $0.string("event") == "screenOn" }
                    #expect(on.line.string("service") == "org.freedesktop.ScreenSaver", "\(on.line)")
                    #expect((on.line.number("ms") ?? 9999) < 1000, "\(on.line)")
                }
                app.signal(SIGTERM)
                #expect(
                    app.wait(timeout: 10) == 143, "run \(run): stderr: \(tail(directory.file("stderr-\(run).txt")))")
                let released = poll(timeout: 5, interval: 0.005) { () -> Bool? in
                    standin.state()?.uninhibits == run + 1 ? true : nil
                }
                #expect(
                    released == true, "run \(run): no UnInhibit after SIGTERM: \(String(describing: standin.state()))")
            }
            let end = try #require(standin.state())
            #expect(end.inhibits == runs && end.uninhibits == runs && end.active == 0 && end.unknown == 0, "\(end)")
            #expect(slowest < 1.0, "slowest Inhibit \(slowest) s after the spawn")
            print("idle inhibit: \(runs) starts, slowest Inhibit \(Int(slowest * 1000)) ms after spawn")
        }

        @Test(
            "No ScreenSaver service on the bus: one stderr line and a log line name the missing control; the kiosk runs on"
        )
        func noService() throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let session = try AppSession(
                arguments: ["--kiosk"], serverArguments: ["-extension", "MIT-SCREEN-SAVER"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            defer { session.close() }
            let app = session.app
            let line = try app.log.waitFor("blankingUncontrolled") { $0.string("event") == "blankingUncontrolled" }.line
            #expect(line.string("missing")?.contains("org.freedesktop.ScreenSaver") == true, "\(line)")
            #expect(line.string("missing")?.contains("MIT-SCREEN-SAVER") == true, "\(line)")
            #expect(line.string("setting")?.contains("xset") == true, "\(line)")
            let warnings = app.stderr.split(separator: "\n").filter { $0.contains("nothing holds the screen on") }
            #expect(warnings.count == 1, "stderr: \(app.stderr)")
            #expect(app.process.isRunning)
        }
    }
}

/// A session bus of its own (`dbus-daemon --session --fork`), stopped by pid.
final class PrivateSessionBus {
    let address: String
    let pid: pid_t

    init() throws {
        let directory = try TemporaryDirectory(prefix: "gestures-bus")
        let out = directory.file("address")
        let daemon = try #require(findProgram("dbus-daemon"), "dbus-daemon is not installed (scripts/deps test)")
        let p = try ChildProcess(
            daemon, ["--session", "--fork", "--nopidfile", "--print-address=1", "--print-pid=1"],
            stdout: .file(out))
        _ = p.wait(timeout: 10)
        let lines = poll(timeout: 5, interval: 0.01) { () -> [String]? in
            let l = readText(out).split(separator: "\n").map(String.init)
            return l.count >= 2 ? l : nil
        }
        guard let lines, let pid = pid_t(lines[1]) else {
            throw XTestError("dbus-daemon did not start: \(readText(out))")
        }
        address = lines[0]
        self.pid = pid
    }

    func startScreenSaverStandIn() throws -> ScreenSaverStandIn { try ScreenSaverStandIn(bus: self) }

    func stop() { kill(pid, SIGTERM) }
}

/// Tests/Fixtures/screensaver-standin.py on a bus, and what it counted.
final class ScreenSaverStandIn {
    struct State: CustomStringConvertible {
        var inhibits = 0, uninhibits = 0, active = 0, unknown = 0
        var lastInhibit = 0.0
        var description: String {
            "inhibits \(inhibits), uninhibits \(uninhibits), active \(active), unknown \(unknown)"
        }
    }
    let process: ChildProcess
    let statePath: String
    let directory: TemporaryDirectory

    init(bus: PrivateSessionBus) throws {
        directory = try TemporaryDirectory(prefix: "gestures-standin")
        statePath = directory.file("state")
        let script = fixturesDirectory + "/screensaver-standin.py"
        // The system's python3 (python3-dbus, python3-gi), not a virtual environment's.
        let python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3"
        process = try ChildProcess(
            python, [script, statePath], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
            stderr: .file(directory.file("stderr")))
        let ready = poll(timeout: 10, interval: 0.01) { access(statePath + ".ready", F_OK) == 0 ? true : nil }
        guard ready == true else {
            process.stop()
            throw XTestError("the ScreenSaver stand-in did not start: \(readText(directory.file("stderr")))")
        }
    }

    func state() -> State? {
        var s = State()
        let text = readText(statePath)
        guard !text.isEmpty else { return nil }
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let kv = pair.split(separator: "=")
            guard kv.count == 2 else { continue }
            switch kv[0] {
            case "inhibits": s.inhibits = Int(kv[1]) ?? 0
            case "uninhibits": s.uninhibits = Int(kv[1]) ?? 0
            case "active": s.active = Int(kv[1]) ?? 0
            case "unknown": s.unknown = Int(kv[1]) ?? 0
            case "last_inhibit": s.lastInhibit = Double(kv[1]) ?? 0
            default: break
            }
        }
        return s
    }

    func stop() { process.stop() }
}
