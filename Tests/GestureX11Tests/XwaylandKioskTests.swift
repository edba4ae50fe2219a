import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The kiosk as an X11 client of Xwayland: which output it covers, and what it tells the
    /// operator it cannot control there (`WaylandCompositor`).
    @Suite("gestures run --kiosk under Xwayland")
    struct XwaylandKiosk {
        /// sway (wlroots' window manager) maps a new X window on the focused output, and Weston
        /// 10 keeps it on the output its shell chose, whatever the X client asks (X11Shell's
        /// `PlacementCheck`). Without a rule of the compositor's own the kiosk asks twice, then
        /// says once where the window went and which setting places it. sway: two headless
        /// outputs; Weston: its x11 backend with two outputs on an Xvfb (its headless backend has
        /// one).
        @Test(
            "Two outputs, no rule: a window left off XWAYLAND1 is said once, on stderr and in the log, with the setting",
            arguments: [WaylandCompositor.Kind.sway, .weston])
        func compositorPlacesItself(_ kind: WaylandCompositor.Kind) throws {
            var host: TestXServer?
            defer { host?.stop() }
            let compositor: WaylandCompositor
            if kind == .weston {
                let xvfb = try TestXServer(width: 1600, height: 600)
                host = xvfb
                compositor = try WaylandCompositor(
                    .weston, .nested(display: xvfb.display, width: 800, height: 600, outputs: 2))
            } else {
                compositor = try WaylandCompositor(kind, .headless(outputs: [(1280, 800), (800, 600)]))
            }
            let (first, second) = (compositor.outputSizes[0], compositor.outputSizes[1])
            let session = try AppSession(
                display: compositor.display, arguments: ["--kiosk", "--monitor", "XWAYLAND1"]
            ) { compositor.stop() }
            defer { session.close() }
            let app = session.app
            let line = try app.log.waitFor("monitorElsewhere line", timeout: 10) {
                $0.type == "kiosk" && $0.string("event") == "monitorElsewhere"
            }.line
            let window = "\(first.width)x\(first.height)+0+0"
            #expect(line.string("wanted") == "XWAYLAND1", "\(line)")
            #expect(line.string("window") == window, "\(line)")
            #expect(line.string("on") == "XWAYLAND0", "\(line)")
            #expect(line.string("setting")?.contains("for_window [class=\"^Gestures$\"]") == true, "\(line)")
            pause(2.5)
            let said = app.stderr.split(separator: "\n").filter { $0.contains("cannot choose its output") }
            #expect(said.count == 1, "stderr: \(app.stderr)")
            let wanted = "XWAYLAND1 \(second.width)x\(second.height)+\(first.width)+0"
            #expect(said.first?.contains("\(window) (XWAYLAND0), not on \(wanted)") == true, "\(said)")
            let lines = app.log.lines(from: 0).filter { $0.type == "kiosk" && $0.string("event") == "monitorElsewhere" }
            #expect(lines.count == 1, "\(summary(lines))")
            #expect(app.process.isRunning)
        }

        /// The setting the kiosk names, in sway's config (no `swaymsg focus output` first): the
        /// window covers XWAYLAND1, laid out for it, and nothing is said.
        @Test(
            "sway with `for_window [class=\"^Gestures$\"] move container to output HEADLESS-2`: --monitor XWAYLAND1 covers it"
        )
        func swayRule() throws {
            let sway = try WaylandCompositor(
                .sway, .headless(outputs: [(1280, 800), (800, 600)]),
                config: [#"for_window [class="^Gestures$"] move container to output HEADLESS-2"#])
            let directory = try TemporaryDirectory()
            let listed = try runGestures(["monitors", "--display", sway.display], in: directory)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("XWAYLAND1 800x600+1280+0"), "\(listed.stdout)")
            let session = try AppSession(display: sway.display, arguments: ["--kiosk", "--monitor", "XWAYLAND1"]) {
                sway.stop()
            }
            defer { session.close() }
            let app = session.app
            let placed = poll(timeout: 5, interval: 0.05) { () -> XConnection.Geometry? in
                guard let g = session.connection.geometry(of: app.window), g.x == 1280, g.y == 0, g.width == 800,
                    g.height == 600
                else { return nil }
                return g
            }
            let g = session.connection.geometry(of: app.window)
            #expect(placed != nil, "window at \(String(describing: g)), expected 800x600+1280+0\n\(sway.log)")
            let monitor = try app.log.waitFor("monitor line") { $0.type == "kiosk" && $0.string("event") == "monitor" }
            #expect(monitor.line.string("name") == "XWAYLAND1", "\(monitor.line)")
            #expect(monitor.line.string("geometry") == "800x600+1280+0", "\(monitor.line)")
            let layout = try #require(app.log.lines(from: 0).last { $0.type == "layout" }?.layout)
            #expect(layout.width == 800 && layout.height == 600, "\(layout)")
            // The check after the map finds the window where it asked to be.
            pause(2.5)
            #expect(!app.log.lines(from: 0).contains { $0.string("event") == "monitorElsewhere" })
            #expect(!app.stderr.contains("cannot choose its output"), "stderr: \(app.stderr)")
        }

        /// Rootless Xwayland has no MIT-SCREEN-SAVER, and a session bus without an inhibit
        /// service leaves nothing to hold the screen on: the kiosk says so once, naming the
        /// missing controls and the compositor's idle setting (not `xset`, which does nothing
        /// under Xwayland).
        @Test(
            "No MIT-SCREEN-SAVER, no inhibit service: the operator log names the missing control and the compositor's setting",
            arguments: WaylandCompositor.Kind.allCases)
        func blankingUncontrolled(_ kind: WaylandCompositor.Kind) throws {
            let bus = try PrivateSessionBus()
            defer { bus.stop() }
            let compositor = try WaylandCompositor(kind, .headless(outputs: [(1280, 800)]))
            let session = try AppSession(
                display: compositor.display, arguments: ["--kiosk"],
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            ) { compositor.stop() }
            defer { session.close() }
            let app = session.app
            let line = try app.log.waitFor("blankingUncontrolled", timeout: 10) {
                $0.string("event") == "blankingUncontrolled"
            }.line
            let missing = line.string("missing") ?? ""
            #expect(missing.contains("MIT-SCREEN-SAVER") && missing.contains("org.freedesktop.ScreenSaver"), "\(line)")
            let setting = line.string("setting") ?? ""
            #expect(setting.contains(kind == .weston ? "weston's idle time" : "swayidle"), "\(line)")
            #expect(!setting.contains("xset"), "\(line)")
            pause(0.5)
            let warnings = app.stderr.split(separator: "\n").filter { $0.contains("nothing holds the screen on") }
            #expect(warnings.count == 1, "stderr: \(app.stderr)")
            #expect(app.process.isRunning)
        }
    }
}
