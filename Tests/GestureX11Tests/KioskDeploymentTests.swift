import CX11
import Foundation
import GestureKit
import GestureShellCore
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// Kiosk deployment: one monitor of the integrator's choice (with and without a
    /// window manager, following the screen at run time), the screen kept on, locked down with
    /// an admin exit, SIGHUP reload and log reopening, the operator log.
    @Suite("gestures run --kiosk: monitors, screen saver, lock-down, reload")
    struct KioskDeployment {
        // MARK: Monitors

        @Test(
            "Two monitors (1280×800 + 1920×1080 on a 3200×1080 Xvfb): gestures monitors lists them; --monitor covers exactly the chosen one, without a window manager",
            arguments: [
                ("A", 0, 0, 1280, 800), ("1", 0, 0, 1280, 800), ("B", 1280, 0, 1920, 1080),
                ("primary", 1280, 0, 1920, 1080), ("0", 1280, 0, 1920, 1080),
            ])
        func monitorWithoutWM(choice: String, x: Int, y: Int, width: Int, height: Int) throws {
            let server = try twoMonitorServer()
            let directory = try TemporaryDirectory()
            let listed = try runGestures(["monitors", "--display", server.display], in: directory)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout == "0 B 1920x1080+1280+0 primary\n1 A 1280x800+0+0\n", "\(listed.stdout)")
            let session = try AppSession(display: server.display, arguments: ["--kiosk", "--monitor", choice]) {
                server.stop()
            }
            defer { session.close() }
            let app = session.app
            let g = try #require(session.connection.geometry(of: app.window))
            #expect(g.x == x && g.y == y && g.width == width && g.height == height, "\(g)")
            #expect(app.layout.width == Double(width) && app.layout.height == Double(height))
            let placed = try app.log.waitFor("monitor line") { $0.type == "kiosk" && $0.string("event") == "monitor" }
            #expect(placed.line.string("geometry") == "\(width)x\(height)+\(x)+\(y)", "\(placed.line)")
        }

        @Test(
            "--monitor with openbox as the window manager: the window covers B, or A, and follows A when it is redefined at run time"
        )
        func monitorWithOpenbox() throws {
            let server = try twoMonitorServer()
            let wm = try ChildProcess(
                try #require(findProgram("openbox"), "openbox is not installed (scripts/deps test)"),
                ["--sm-disable"], environment: ["DISPLAY": server.display, "HOME": NSTemporaryDirectory()])
            defer { wm.stop() }
            let probe = try XConnection(server.display)
            let managed = poll(timeout: 10, interval: 0.05) { () -> Bool? in
                probe.property(probe.root, "_NET_SUPPORTING_WM_CHECK").isEmpty ? nil : true
            }
            probe.close()
            try #require(managed == true, "openbox did not start")
            func settles(_ session: AppSession, at expected: (Int, Int, Int, Int), _ what: String) {
                let settled = poll(timeout: 3, interval: 0.05) { () -> XConnection.Geometry? in
                    guard let g = session.connection.geometry(of: session.app.window),
                        (g.x, g.y, g.width, g.height) == expected
                    else { return nil }
                    return g
                }
                let g = session.connection.geometry(of: session.app.window)
                #expect(settled != nil, "\(what): \(String(describing: g)), expected \(expected)")
            }
            for (choice, expected) in [("B", (1280, 0, 1920, 1080)), ("A", (0, 0, 1280, 800))] {
                let session = try AppSession(display: server.display, arguments: ["--kiosk", "--monitor", choice]) {}
                defer { session.close() }
                settles(session, at: expected, "--monitor \(choice)")
                guard choice == "A" else { continue }
                // A redefined at run time as a portrait monitor: the WM fullscreens the window there.
                try xrandr(server.display, ["--fb", "3200x1280"])
                try xrandr(server.display, ["--delmonitor", "A"])
                try xrandr(server.display, ["--setmonitor", "A", "800/200x1280/320+400+0", "none"])
                settles(session, at: (400, 0, 800, 1280), "A redefined at run time")
            }
            server.stop()
        }

        @Test("The root turns portrait at run time (xrandr --fb 800x1280): the window and layout follow")
        func rootTurnsPortrait() throws {
            let server = try twoMonitorServer()
            let session = try AppSession(display: server.display, arguments: ["--kiosk"]) { server.stop() }
            defer { session.close() }
            let app = session.app
            let g = try #require(session.connection.geometry(of: app.window))
            #expect(g.width == 3200 && g.height == 1080, "\(g)")
            let start = app.log.count
            try xrandr(server.display, ["--fb", "800x1280"])
            let layout = try app.waitForLayout(after: start)
            #expect(layout.width == 800 && layout.height == 1280)
            let after = try #require(session.connection.geometry(of: app.window))
            #expect(after.x == 0 && after.y == 0 && after.width == 800 && after.height == 1280, "\(after)")
        }

        @Test("--monitor A follows A when it is set again as a portrait monitor at run time")
        func monitorChangesAtRunTime() throws {
            let server = try twoMonitorServer()
            let session = try AppSession(display: server.display, arguments: ["--kiosk", "--monitor", "A"]) {
                server.stop()
            }
            defer { session.close() }
            let app = session.app
            let start = app.log.count
            try xrandr(server.display, ["--fb", "3200x1280"])
            // Xvfb replaces no monitor in place: A goes (the window covers the screen meanwhile).
            try xrandr(server.display, ["--delmonitor", "A"])
            try xrandr(server.display, ["--setmonitor", "A", "800/200x1280/320+400+0", "none"])
            let layout = try app.log.waitFor("portrait layout", from: start) {
                $0.type == "layout" && $0.layout?.width == 800
            }.line.layout
            #expect(layout?.width == 800 && layout?.height == 1280)
            let g = try #require(session.connection.geometry(of: app.window))
            #expect(g.x == 400 && g.y == 0 && g.width == 800 && g.height == 1280, "\(g)")
        }

        @Test("--monitor naming no monitor: one line naming the known ones, status 2")
        func unknownMonitor() throws {
            let server = try twoMonitorServer()
            defer { server.stop() }
            let directory = try TemporaryDirectory()
            let result = try runGestures(
                ["run", "--kiosk", "--display", server.display, "--monitor", "C"], in: directory)
            #expect(result.status == 2)
            #expect(
                result.stderr
                    == "gestures: --monitor: there is no monitor named \"C\" (monitors: 0 B, 1 A; see gestures monitors)\n",
                "\(result.stderr)")
        }

        // MARK: Screen kept on

        @Test(
            "Saver at 3 s, the tour playing: the saver stays Off for 6 s in kiosk mode (suspended, or reset as on a server without MIT-SCREEN-SAVER 1.1); with --allow-blanking it comes On (the check can fail)",
            arguments: [[], ["--saver-reset-only"], ["--allow-blanking"]])
        func screenSaverHeldOff(extra: [String]) throws {
            let allowBlanking = extra == ["--allow-blanking"]
            // The saver's timeout first (a server-wide setting), then the app.
            let server = try TestXServer()
            let probe = try XConnection(server.display)
            XSetScreenSaver(probe.display, 3, 600, PreferBlanking, AllowExposures)
            probe.sync()
            probe.close()
            let session = try AppSession(
                display: server.display,
                arguments: ["--kiosk", "--kiosk-tour-after", "1", "--kiosk-reset-after", "1"] + extra
            ) { server.stop() }
            defer { session.close() }
            let connection = session.connection
            _ = try session.app.log.waitFor("tour start", timeout: 4) { $0.string("event") == "tourStart" }
            var states: [UInt8] = []
            let start = monotonicNow()
            while monotonicNow() - start < 6 {
                states.append(try #require(connection.screenSaverState()))
                pause(0.25)
            }
            if allowBlanking {
                #expect(states.contains(1), "the saver never came on: \(states)")
            } else {
                #expect(states.allSatisfy { $0 == 0 }, "saver states (0 Off, 1 On): \(states)")
            }
        }

        // MARK: Locked down

        @Test("WM_DELETE_WINDOW and _NET_CLOSE_WINDOW are refused and logged; SIGTERM ends with 143")
        func closeRefused() throws {
            let session = try AppSession(arguments: ["--kiosk"])
            defer { session.close() }
            let app = session.app
            session.connection.sendDeleteWindow(app.window)
            session.connection.sendNetCloseWindow(app.window)
            let first = try app.log.waitFor("refused close") { $0.string("event") == "closeRefused" }
            let second = try app.log.waitFor("second refused close", from: first.index + 1) {
                $0.string("event") == "closeRefused"
            }
            #expect(first.line.string("request") == "WM_DELETE_WINDOW", "\(first.line)")
            #expect(second.line.string("request") == "_NET_CLOSE_WINDOW", "\(second.line)")
            pause(0.5)
            #expect(app.process.isRunning, "the kiosk ended on a close request")
            app.process.signal(SIGTERM)
            #expect(app.waitForExit(timeout: 5) == 143, "stderr: \(app.stderr)")
            let refusals = app.stderr.split(separator: "\n").filter { $0.contains("refused a close request") }
            #expect(refusals.count == 2, "stderr: \(app.stderr)")
        }

        @Test(
            "Without a PIN the admin chord (held 1.4 s through XTest) does not exit: it is refused and logged (noPin); SIGTERM still ends it"
        )
        func adminChordWithoutPIN() throws {
            let session = try AppSession(arguments: ["--kiosk", "--admin-hold", "1"])
            defer { session.close() }
            let app = session.app
            holdChord(app, seconds: 1.4)
            let refused = try app.log.waitFor("adminRefused") { $0.string("event") == "adminRefused" }
            #expect(refused.line.string("reason") == "noPin", "\(refused.line)")
            pause(0.5)
            #expect(app.process.isRunning, "the admin chord without a PIN ended the kiosk")
            #expect(!app.log.lines(from: 0).contains { $0.string("event") == "adminPin" })
            app.process.signal(SIGTERM)
            #expect(app.waitForExit(timeout: 5) == 143)
        }

        @Test("With GESTURES_ADMIN_PIN, typed on the keyboard: a wrong PIN keeps the kiosk; the right one then exits 0")
        func adminPIN() throws {
            let session = try AppSession(
                arguments: ["--kiosk", "--admin-hold", "0.5"], environment: ["GESTURES_ADMIN_PIN": "2468"])
            defer { session.close() }
            let app = session.app
            holdChord(app, seconds: 0.8)
            _ = try app.log.waitFor("PIN asked") { $0.string("event") == "adminPin" }
            typeKeys(app, [0x31, 0x31, 0x31, 0x31, 0xFF0D])
            let refused = try app.log.waitFor("PIN refused") { $0.string("event") == "adminRefused" }
            #expect(
                refused.line.string("reason") == "wrongPin" && refused.line.number("misses") == 1, "\(refused.line)")
            pause(0.3)
            #expect(app.process.isRunning)
            holdChord(app, seconds: 0.8)
            _ = try app.log.waitFor("PIN asked again", from: refused.index) { $0.string("event") == "adminPin" }
            typeKeys(app, [0x32, 0x34, 0x36, 0x38, 0xFF0D])
            #expect(app.waitForExit(timeout: 5) == 0, "stderr: \(app.stderr)")
        }

        @Test(
            "No keyboard: two fingers held 1 s in opposite corners (genuine XI2 touch) bring up the PIN pad; the PIN touched on it exits 0; held 0.4 s nothing",
            xorgNeedsRoot)
        func adminCorners() throws {
            let directory = try TemporaryDirectory()
            let pinFile = directory.file("pin")
            try "2468\n".write(toFile: pinFile, atomically: true, encoding: .utf8)
            chmod(pinFile, 0o600)
            let t = try TouchSession(arguments: ["--kiosk", "--admin-corners", "1", "--admin-pin-file", pinFile])
            defer { t.close() }
            let app = t.app
            let (w, h) = (app.layout.width, app.layout.height)
            let a = LayoutPoint(x: w - 20, y: 20)
            let b = LayoutPoint(x: 20, y: h - 20)
            try t.touches([(.begin, 1, a), (.begin, 2, b)])
            pause(0.4)
            try t.touches([(.end, 1, a), (.end, 2, b)])
            pause(1)
            #expect(!app.log.lines(from: 0).contains { $0.string("event") == "adminPin" }, "corners held 0.4 s")
            try t.touches([(.begin, 3, a), (.begin, 4, b)])
            _ = try app.log.waitFor("adminPin line") { $0.string("event") == "adminPin" }
            try t.touches([(.end, 3, a), (.end, 4, b)])
            let pad = PinPad.layout(in: Size(width: w, height: h))
            var id: UInt32 = 10
            for key in [PinPadKey.digit(2), .digit(4), .digit(6), .digit(8), .ok] {
                let c = try #require(pad.center(of: key))
                let p = LayoutPoint(x: c.x, y: c.y)
                try t.touches([(.begin, id, p)])
                try t.touches([(.end, id, p)])
                id += 1
                pause(0.05)
            }
            #expect(app.waitForExit(timeout: 5) == 0, "stderr: \(app.stderr)")
            _ = try app.log.waitFor("adminExit line") { $0.string("event") == "adminExit" }
        }

        // MARK: Reload, rotation, operator log

        @Test(
            "SIGHUP: a bad picture keeps everything (one line); a good one reloads picture and delays; a rotated log is reopened"
        )
        func sighupReload() throws {
            let directory = try TemporaryDirectory()
            let config = directory.file("kiosk.conf")
            try "reset-after = 30\ntour-after = 60\n".write(toFile: config, atomically: true, encoding: .utf8)
            let session = try AppSession(arguments: ["--kiosk", "--kiosk-config", config])
            defer { session.close() }
            let app = session.app
            let image = try app.region("image")
            // An unreadable picture: one line, nothing applied, still running.
            try "image = \(directory.file("missing.png"))\ntour-after = 1\n".write(
                toFile: config, atomically: true, encoding: .utf8)
            app.process.signal(SIGHUP)
            let failed = try app.log.waitFor("reloadFailed line") { $0.string("event") == "reloadFailed" }
            #expect(failed.line.string("reason")?.contains("missing.png") == true, "\(failed.line)")
            let lines = app.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("missing.png"), "stderr: \(app.stderr)")
            pause(1.5)
            #expect(!app.log.lines(from: 0).contains { $0.string("event") == "tourStart" }, "tour-after 1 applied")
            // A wide picture and a 1 s tour delay: a new layout (another image rect), then the tour.
            let wide = directory.file("wide.png")
            try writePNG(wide, width: 400, height: 100)
            try "image = \(wide)\ntour-after = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
            // logrotate: the log moves away, SIGHUP, the app writes a new file at the old path.
            let logPath = app.log.path
            #expect(rename(logPath, logPath + ".1") == 0)
            app.process.signal(SIGHUP)
            let fresh = EventLog(path: logPath)
            _ = try fresh.waitFor("logReopened line") { $0.string("event") == "logReopened" }
            let layout = try fresh.waitFor("new layout") { $0.type == "layout" }.line
            let newImage = try #require(layout.layout?.regions["image"])
            #expect(abs(newImage.width / newImage.height - 4) < 0.05, "\(newImage) (was \(image))")
            _ = try fresh.waitFor("reload line") { $0.string("event") == "reload" }
            _ = try fresh.waitFor("tour start after 1 s", timeout: 4) { $0.string("event") == "tourStart" }
            #expect(app.process.isRunning)
        }

        @Test("Operator log: wall-clock time on every line, tour gestures marked source tour, visitors visitor")
        func operatorLog() throws {
            let session = try AppSession(arguments: ["--kiosk", "--kiosk-tour-after", "1", "--kiosk-reset-after", "1"])
            defer { session.close() }
            let app = session.app
            let tourGesture = try app.log.waitFor("tour gesture", timeout: 6) { $0.isGesture && $0.state == "began" }
            #expect(tourGesture.line.string("source") == "tour", "\(tourGesture.line)")
            let tap = try app.region("tap")
            app.click(at: tap.center)
            let stop = try app.log.waitFor("tourStop", from: tourGesture.index) { $0.string("event") == "tourStop" }
            let mine = try app.log.waitFor("the visitor's tap", from: stop.index) { $0.isGesture("tap", "ended") }
            #expect(mine.line.string("source") == "visitor", "\(mine.line)")
            let all = app.log.lines(from: 0)
            let pattern = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/#
            let missing = all.filter { ($0.string("wall")?.wholeMatch(of: pattern)) == nil }
            #expect(missing.isEmpty, "lines without a wall time:\n\(summary(Array(missing)))")
            #expect(all.contains { $0.string("event") == "tourStart" })
            // The docs/DESIGN.md §4.2 fields come first, unchanged: wall (and source) are the last keys.
            #expect(mine.line.text.hasSuffix(#","source":"visitor"}"#), "\(mine.line.text)")
        }
    }
}

/// Xvfb 3200×1280 turned into a 3200×1080 screen of two monitors: A 1280×800 at 0,0 and the
/// primary B 1920×1080 at 1280,0 (the output itself off, so only the two remain; the larger
/// start size leaves room for `xrandr --fb` to go portrait later).
private func twoMonitorServer() throws -> TestXServer {
    let server = try TestXServer(width: 3200, height: 1280)
    do {
        try xrandr(server.display, ["--output", "screen", "--off", "--fb", "3200x1080"])
        try xrandr(server.display, ["--setmonitor", "A", "1280/338x800/211+0+0", "none"])
        try xrandr(server.display, ["--setmonitor", "*B", "1920/508x1080/285+1280+0", "none"])
    } catch {
        server.stop()
        throw error
    }
    return server
}

private func xrandr(_ display: String, _ arguments: [String]) throws {
    let program = try #require(findProgram("xrandr"), "xrandr is not installed (x11-xserver-utils)")
    let directory = try TemporaryDirectory()
    let p = try ChildProcess(
        program, ["-display", display] + arguments, stderr: .file(directory.file("err")))
    let status = p.wait(timeout: 10)
    guard status == 0 else {
        throw XTestError("xrandr \(arguments.joined(separator: " ")): \(readText(directory.file("err")))")
    }
}

/// Presses Ctrl+Alt+Shift+Q through XTest, holds it `seconds`, releases it.
func holdChord(_ app: GesturesApp, seconds: Double) {
    let c = app.connection
    c.focus(app.window)
    let keys: [Int32] = [Keysym.controlL, 0xFFE9, Keysym.shiftL, 0x71]
    for k in keys { c.key(k, pressed: true) }
    c.sync()
    pause(seconds)
    for k in keys.reversed() { c.key(k, pressed: false) }
    c.sync()
}

func typeKeys(_ app: GesturesApp, _ keysyms: [Int32]) {
    for k in keysyms {
        app.connection.key(k, pressed: true)
        app.connection.key(k, pressed: false)
    }
    app.connection.sync()
}

/// A `width`×`height` PNG of one colour (ImageMagick is a test dependency).
private func writePNG(_ path: String, width: Int, height: Int) throws {
    let convert = try #require(findProgram("convert"), "ImageMagick's convert is not installed")
    let p = try ChildProcess(convert, ["-size", "\(width)x\(height)", "xc:#3366cc", path])
    guard p.wait(timeout: 20) == 0 else { throw XTestError("convert failed") }
}

extension XConnection {
    /// The MIT-SCREEN-SAVER state of the default screen: 0 Off, 1 On, 3 Disabled.
    func screenSaverState() -> UInt8? {
        guard let c = XGetXCBConnection(display) else { return nil }
        let cookie = xcb_screensaver_query_info(c, UInt32(root))
        guard let reply = xcb_screensaver_query_info_reply(c, cookie, nil) else { return nil }
        defer { free(reply) }
        return reply.pointee.state
    }

    /// `wmctrl -c`: `_NET_CLOSE_WINDOW` for `window`, sent to the root.
    func sendNetCloseWindow(_ window: Window) {
        sendClientMessage(
            window, "_NET_CLOSE_WINDOW", (0, 2, 0, 0, 0), to: root,
            mask: SubstructureRedirectMask | SubstructureNotifyMask)
    }
}
