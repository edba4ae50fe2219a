import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A window manager started by a test on its own server, with its default configuration (i3
/// needs a file: the test writes one whose bindings hide the kiosk: Super+D and Ctrl+Alt+Right
/// switch to other workspaces).
final class TestWindowManager {
    let name: String
    let process: ChildProcess

    init(_ name: String, display: String, directory: TemporaryDirectory) throws {
        self.name = name
        let program = try #require(findProgram(name), "\(name) is not installed (scripts/deps test)")
        var arguments: [String] = []
        switch name {
        case "openbox": arguments = ["--sm-disable"]
        case "xfwm4": arguments = ["--compositor=off", "--sm-client-disable"]
        case "i3":
            let config = directory.file("i3.config")
            try """
            font pango:monospace 8
            bindsym Mod4+d workspace 3
            bindsym Mod1+Tab focus right
            bindsym Ctrl+Mod1+Right workspace 2
            bindsym Mod1+space floating toggle
            """.write(toFile: config, atomically: true, encoding: .utf8)
            arguments = ["-c", config]
        default: break
        }
        process = try ChildProcess(
            program, arguments,
            environment: ["DISPLAY": display, "HOME": directory.path, "PATH": "/usr/bin:/bin"],
            stderr: .file(directory.file("\(name).stderr")))
        let probe = try XConnection(display)
        defer { probe.close() }
        let managed = poll(timeout: 10, interval: 0.05) { () -> Bool? in
            probe.property(probe.root, "_NET_SUPPORTING_WM_CHECK").isEmpty ? nil : true
        }
        guard managed == true else { throw XTestError("\(name) did not start") }
    }

    deinit { process.stop() }
}

extension XConnection {
    /// The root's child that holds `window` (its frame under a reparenting window manager).
    func topLevelAncestor(of window: Window) -> Window {
        var current = window
        while true {
            var rootReturn: Window = 0
            var parent: Window = 0
            var children: UnsafeMutablePointer<Window>?
            var count: UInt32 = 0
            guard XQueryTree(display, current, &rootReturn, &parent, &children, &count) != 0 else { return current }
            if let children { XFree(children) }
            if parent == root || parent == 0 { return current }
            current = parent
        }
    }

    /// Whether `window` is viewable, covers `rect` and nothing viewable is stacked above it.
    func onTop(_ window: Window, covering rect: (Int, Int, Int, Int)) -> Bool {
        guard let g = geometry(of: window), g.viewable, (g.x, g.y, g.width, g.height) == rect else { return false }
        let frame = topLevelAncestor(of: window)
        let stacking = topLevelWindows()
        guard let index = stacking.firstIndex(of: frame) else { return false }
        return !stacking[(index + 1)...].contains { w in
            guard let o = geometry(of: w), o.viewable else { return false }
            // Above and overlapping the monitor (input-only helpers of the WM are 1×1 off screen).
            return o.x < rect.0 + rect.2 && o.x + o.width > rect.0 && o.y < rect.1 + rect.3 && o.y + o.height > rect.1
                && o.width > 1
        }
    }

    /// An ordinary managed window of the test's own (something to Alt+Tab to).
    func createManagedWindow() -> Window {
        let w = XCreateSimpleWindow(display, root, 100, 100, 300, 200, 0, 0, 0xffffff)
        XStoreName(display, w, "other")
        XMapWindow(display, w)
        sync()
        return w
    }
}

/// Runs `xdotool` with `arguments` on `display`.
func xdotool(_ display: String, _ arguments: [String]) throws {
    let program = try #require(findProgram("xdotool"), "xdotool is not installed (scripts/deps test)")
    let p = try ChildProcess(program, arguments, environment: ["DISPLAY": display, "PATH": "/usr/bin:/bin"])
    _ = p.wait(timeout: 5)
}

extension XServerTests {
    /// The public cannot hide the kiosk under a window manager: after each escape the window is
    /// mapped, viewable, on top and covering its monitor again within 1 s. "On top" is strict:
    /// nothing viewable, override-redirect windows included, overlaps the screen above it — so
    /// openbox's desktop-switch popup (shown 875 ms by default above everything) is what the
    /// `set_desktop` escape waits for there (≈ 0.9 s); the kiosk itself stays sticky and mapped.
    @Suite("Kiosk under a window manager: the escapes")
    struct WindowManagerEscapes {
        static let escapes: [(String, [[String]])] = [
            ("Super+D", [["key", "super+d"]]),
            ("Ctrl+Alt+Right", [["key", "ctrl+alt+Right"]]),
            ("Alt+Space, then I (Iconify)", [["key", "alt+space"], ["sleep", "0.3"], ["key", "i"]]),
            ("Alt+Tab", [["key", "alt+Tab"]]),
            ("a right click on the desktop", [["mousemove", "5", "5"], ["click", "3"]]),
            ("xdotool windowminimize", [["windowminimize", "WINDOW"]]),
            ("xdotool set_desktop 1", [["set_desktop", "1"]]),
        ]

        /// The kiosk under window manager `name` on a fresh Xvfb, once it is fullscreen on top;
        /// `body` gets the server, the session and the monitor's rectangle.
        private func underWindowManager(
            _ name: String, arguments: [String] = [],
            _ body: (TestXServer, AppSession, (Int, Int, Int, Int)) throws -> Void
        ) throws {
            let server = try TestXServer()
            let directory = try TemporaryDirectory(prefix: "gestures-wm")
            let wm = try TestWindowManager(name, display: server.display, directory: directory)
            defer { wm.process.stop() }
            let session = try AppSession(display: server.display, arguments: ["--kiosk"] + arguments) {
                server.stop()
            }
            defer { session.close() }
            let (app, x) = (session.app, session.connection)
            let monitor = (0, 0, server.width, server.height)
            let settled = poll(timeout: 3, interval: 0.02) { x.onTop(app.window, covering: monitor) ? true : nil }
            try #require(
                settled == true,
                "\(name): the kiosk is not fullscreen on top at start: \(String(describing: x.geometry(of: app.window)))"
            )
            try body(server, session, monitor)
        }

        @Test(
            "Super+D, Ctrl+Alt+Right, Alt+Space → Iconify, Alt+Tab, a right click, windowminimize, set_desktop: back on top within 1 s",
            arguments: ["openbox", "xfwm4", "i3"])
        func escapes(wm name: String) throws {
            try underWindowManager(name) { server, session, monitor in try escapes(name, server, session, monitor) }
        }

        private func escapes(
            _ name: String, _ server: TestXServer, _ session: AppSession, _ monitor: (Int, Int, Int, Int)
        ) throws {
            let app = session.app
            let x = session.connection
            _ = x.createManagedWindow()
            pause(0.3)
            var times: [String] = []
            for (escape, steps) in Self.escapes {
                let start = monotonicNow()
                for step in steps {
                    if step.first == "sleep" {
                        pause(Double(step[1]) ?? 0)
                        continue
                    }
                    try xdotool(server.display, step.map { $0 == "WINDOW" ? String(app.window) : $0 })
                }
                // Let the window manager act, then wait for the kiosk to be back.
                pause(0.1)
                let back = poll(timeout: 1, interval: 0.01) { x.onTop(app.window, covering: monitor) ? true : nil }
                let took = monotonicNow() - start
                times.append("\(escape): \(String(format: "%.2f", took)) s")
                #expect(
                    back == true,
                    "\(name), \(escape): not back on top within 1 s: \(String(describing: x.geometry(of: app.window)))")
                #expect(app.process.isRunning, "\(name), \(escape): the kiosk exited: \(app.stderr)")
                pause(0.2)
            }
            print("\(name): " + times.joined(separator: "; "))
        }

        @Test("Iconified by xdotool under openbox: a restored line with the reason in the operator log within 1 s")
        func restoreLogged() throws {
            try underWindowManager("openbox") { server, session, _ in try restoreLogged(server, session) }
        }

        private func restoreLogged(_ server: TestXServer, _ session: AppSession) throws {
            let app = session.app
            pause(0.5)
            let start = app.log.lines(from: 0).count
            let before = app.log.lines(from: 0).filter { $0.string("event") == "restored" }.count
            #expect(before == 0, "restored lines before any escape: \(summary(Array(app.log.lines(from: 0))))")
            let sent = monotonicNow()
            try xdotool(server.display, ["windowminimize", String(app.window)])
            let (_, line) = try app.log.waitFor("restored line", from: start, timeout: 1) {
                $0.string("event") == "restored"
            }
            let took = monotonicNow() - sent
            let reason = line.string("reason") ?? ""
            #expect(reason.contains("unmapped") || reason.contains("iconified"), "\(line.text)")
            #expect(line.string("wall") != nil, "\(line.text)")
            print("openbox: iconified → restored line in \(String(format: "%.3f", took)) s: \(line.text)")
        }

        /// What the window manager does while it takes the window on — openbox (default
        /// configuration) fullscreens it, and for `--monitor` takes it out of fullscreen and back
        /// when it is placed on its monitor, covering it partly meanwhile — is no escape: no
        /// restore at start. A real one still is: iconified, one restored line within 1 s.
        @Test(
            "Under openbox's default configuration: no restored line in 3 s after the start, then iconified: one within 1 s",
            arguments: [[], ["--monitor", "0"]])
        func quietStart(arguments: [String]) throws {
            try underWindowManager("openbox", arguments: arguments) { server, session, _ in
                let app = session.app
                pause(3)
                let restored = { app.log.lines(from: 0).filter { $0.string("event") == "restored" } }
                #expect(restored().isEmpty, "\(arguments): restored at start: \(summary(restored()))")
                let start = app.log.lines(from: 0).count
                let sent = monotonicNow()
                try xdotool(server.display, ["windowminimize", String(app.window)])
                let (_, line) = try app.log.waitFor("restored line", from: start, timeout: 1) {
                    $0.string("event") == "restored"
                }
                let took = monotonicNow() - sent
                pause(1)
                let after = app.log.lines(from: start).filter { $0.string("event") == "restored" }
                #expect(after.count == 1, "\(arguments): \(summary(after))")
                let seconds = String(format: "%.3f", took)
                print("openbox \(arguments): quiet start; iconified → restored in \(seconds) s: \(line.text)")
            }
        }

        /// An escape while openbox is still placing the window (iconified as soon as the first
        /// frame is up, within the guard's settling time) is held, not dropped: the window is
        /// back on top of its monitor within 1 s, with one restored line.
        @Test("Under openbox, `--monitor 0` iconified at once after the first frame: back on top within 1 s")
        func iconifiedWhileSettling() throws {
            let server = try TestXServer()
            let directory = try TemporaryDirectory(prefix: "gestures-wm")
            let wm = try TestWindowManager("openbox", display: server.display, directory: directory)
            defer { wm.process.stop() }
            let session = try AppSession(display: server.display, arguments: ["--kiosk", "--monitor", "0"]) {
                server.stop()
            }
            defer { session.close() }
            let (app, x) = (session.app, session.connection)
            let sent = monotonicNow()
            try xdotool(server.display, ["windowminimize", String(app.window)])
            pause(0.1)
            let monitor = (0, 0, server.width, server.height)
            let back = poll(timeout: 1, interval: 0.01) { x.onTop(app.window, covering: monitor) ? true : nil }
            let took = monotonicNow() - sent
            #expect(back == true, "not back on top within 1 s: \(String(describing: x.geometry(of: app.window)))")
            let restored = try app.log.waitFor("restored line", timeout: 1) { $0.string("event") == "restored" }.line
            let seconds = String(format: "%.3f", took)
            print("openbox: iconified while settling → back on top in \(seconds) s: \(restored.text)")
        }
    }
}
