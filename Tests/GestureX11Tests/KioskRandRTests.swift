import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// RandR changes under a window manager (Xorg + the dummy driver: Xvfb's outputs cannot be
    /// switched): the kiosk follows its monitor through a mode change, and through the monitor
    /// going off (one line: covering the screen until it is back) and on again.
    ///
    /// These window managers resize a fullscreen window to its one monitor themselves, so the
    /// window's geometry alone would pass without the kiosk doing anything; what proves the
    /// kiosk's put-back is its own placement after each change: a `monitor` line in the operator
    /// log with the new geometry (written where the kiosk places the window again), then the
    /// window covering it.
    @Suite("Kiosk under a window manager: RandR mode changes and a monitor off and on")
    struct KioskRandR {
        @Test(
            "--monitor of the dummy output: 1024x768, --off, --auto: the window follows the monitor each time",
            xorgNeedsRoot, arguments: ["openbox", "xfwm4", "i3"])
        func modeChangeAndOffOn(wm name: String) throws {
            let server = try XorgInputTest()
            let directory = try TemporaryDirectory(prefix: "gestures-randr")
            let wm = try TestWindowManager(name, display: server.display, directory: directory)
            defer { wm.process.stop() }
            let output = try randrOutput(server.display)
            let session = try AppSession(display: server.display, arguments: ["--kiosk", "--monitor", output]) {
                server.stop()
            }
            defer { session.close() }
            let app = session.app
            let x = session.connection
            func covers(_ rect: (Int, Int, Int, Int), _ what: String, placedAfter line: Int) {
                let geometry = "\(rect.2)x\(rect.3)+\(rect.0)+\(rect.1)"
                let placed = try? app.log.waitFor("monitor line at \(geometry)", from: line, timeout: 3) {
                    $0.string("event") == "monitor" && $0.string("geometry") == geometry
                }
                #expect(
                    placed != nil,
                    "\(what): the kiosk did not place itself at \(geometry): \(summary(Array(app.log.lines(from: line))))"
                )
                let start = monotonicNow()
                let ok = poll(timeout: 3, interval: 0.02) { x.onTop(app.window, covering: rect) ? true : nil }
                let g = x.geometry(of: app.window)
                #expect(ok == true, "\(what): \(String(describing: g)), expected \(rect)")
                print("randr, \(name): \(what): back in \(String(format: "%.2f", monotonicNow() - start)) s")
            }
            covers((0, 0, 1280, 800), "at start", placedAfter: 0)
            var mark = app.log.lines(from: 0).count
            try xrandrRun(server.display, ["--output", output, "--mode", "1024x768"])
            covers((0, 0, 1024, 768), "mode 1024x768", placedAfter: mark)
            try xrandrRun(server.display, ["--output", output, "--off"])
            pause(0.5)
            #expect(app.process.isRunning, "the kiosk exited when its monitor went off: \(app.stderr)")
            mark = app.log.lines(from: 0).count
            try xrandrRun(server.display, ["--output", output, "--auto"])
            let g = poll(timeout: 3, interval: 0.05) { () -> XConnection.Geometry? in
                guard let g = x.geometry(of: app.window), g.viewable, g.width > 1 else { return nil }
                return g
            }
            #expect(g != nil)
            let size = try randrSize(server.display)
            covers((0, 0, size.0, size.1), "monitor back on (--auto)", placedAfter: mark)
            #expect(app.stderr.contains("is gone"), "no line says the monitor went: \(app.stderr)")
        }
    }
}

/// The first connected RandR output's name.
private func randrOutput(_ display: String) throws -> String {
    let text = try xrandrOutput(display, [])
    guard let line = text.split(separator: "\n").first(where: { $0.contains(" connected") }),
        let name = line.split(separator: " ").first
    else { throw XTestError("no connected output: \(text)") }
    return String(name)
}

/// The screen's current size (xrandr's "current W x H").
private func randrSize(_ display: String) throws -> (Int, Int) {
    let text = try xrandrOutput(display, [])
    guard let r = text.range(of: #"current (\d+) x (\d+)"#, options: .regularExpression) else {
        throw XTestError("no screen size: \(text)")
    }
    let parts = text[r].split(separator: " ")
    return (Int(parts[1]) ?? 0, Int(parts[3]) ?? 0)
}

private func xrandrOutput(_ display: String, _ arguments: [String]) throws -> String {
    let program = try #require(findProgram("xrandr"), "xrandr is not installed (x11-xserver-utils)")
    let directory = try TemporaryDirectory()
    let p = try ChildProcess(
        program, ["-display", display] + arguments, stdout: .file(directory.file("out")),
        stderr: .file(directory.file("err")))
    guard p.wait(timeout: 10) == 0 else {
        throw XTestError("xrandr \(arguments.joined(separator: " ")): \(readText(directory.file("err")))")
    }
    return readText(directory.file("out"))
}

private func xrandrRun(_ display: String, _ arguments: [String]) throws {
    _ = try xrandrOutput(display, arguments)
}
