import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The app as an X11 client of Xwayland under a Wayland compositor (sway, see
    /// `WaylandCompositor`): where most touch machines now run it.
    @Suite("gestures run under Xwayland (sway)")
    struct Xwayland {
        @Test("It maps; a tap and a Ctrl-drag pinch sent through XTest are recognized")
        func mapsAndTakesInput() throws {
            let sway = try WaylandCompositor(.headless(outputs: [(1280, 800)]))
            // sway tiles the window over its output: asked for the output's size, it keeps it.
            let session = try AppSession(display: sway.display, size: "1280x800") { sway.stop() }
            defer { session.close() }
            let app = session.app
            let g = try #require(session.connection.geometry(of: app.window))
            #expect(g.viewable && g.x == 0 && g.y == 0 && g.width == 1280 && g.height == 800, "\(g)")

            let tap = try app.region("tap")
            app.click(at: tap.center)
            let tapped = try app.waitFor("tap", "ended")
            #expect(tapped.label == "Tapped", "\(tapped)")

            let pinch = try app.region("pinch")
            let c = pinch.center
            let start = c + (pinch.width * 0.1, 0)
            try app.drag(
                straightPath(from: start, to: start + (pinch.width * 0.15, 0), steps: 15),
                modifiers: [Keysym.controlL])
            try app.waitFor("pinch", "ended")
            let lines = app.lines(of: "pinch")
            let scale = try #require(lines.compactMap(\.scale).last, "\(summary(lines))")
            // Fingers 0.1 and 0.25 of the width from the centre: 2.5×.
            #expect(abs(scale - 2.5) < 0.05, "\(summary(lines))")
            #expect(lines.allSatisfy { $0.touches == 2 }, "\(summary(lines))")
        }

        @Test("--kiosk --monitor XWAYLAND1 covers the compositor's second output")
        func kioskOnSecondOutput() throws {
            let sway = try WaylandCompositor(.headless(outputs: [(1280, 800), (800, 600)]))
            let directory = try TemporaryDirectory()
            let listed = try runGestures(["monitors", "--display", sway.display], in: directory)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains("XWAYLAND1 800x600+1280+0"), "\(listed.stdout)")
            // sway, not the X client, picks the output a window maps on (the focused one, or a
            // `for_window … move to output` rule) and ignores X11 placement of tiled windows; a
            // fullscreen request covers the output the window is on. So the operator points sway
            // at the output (as a kiosk's sway config does); the app finds XWAYLAND1 by name,
            // lays out for it and asks for full screen there.
            #expect(sway.swaymsg(["focus", "output", "HEADLESS-2"]) != nil, "swaymsg failed\n\(sway.log)")
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
        }
        @Test(
            "Nested on Xorg + inputtest: genuine touches reach the app through Xwayland and pinch with a steady centre",
            xorgNeedsRoot)
        func genuineTouchPinch() throws {
            let xorg = try XorgInputTest()
            defer { xorg.stop() }
            let sway = try WaylandCompositor(.nested(display: xorg.display, width: 1024, height: 768))
            let host = try XConnection(xorg.display)
            defer { host.close() }
            let session = try AppSession(display: sway.display) { sway.stop() }
            defer { session.close() }
            let app = session.app
            // The compositor's window on Xorg (no window manager there: where it asked to be).
            let output = try #require(
                host.topLevelWindows().compactMap { host.geometry(of: $0) }.filter(\.viewable)
                    .max { $0.width * $0.height < $1.width * $1.height }, "no compositor window on Xorg")
            func send(_ events: [(InputTestDevice.TouchPhase, UInt32, LayoutPoint)]) throws {
                for (phase, id, p) in events {
                    let (x, y) = app.screen(p)
                    try xorg.touchscreen.touch(phase, id: id, x: Double(output.x) + x, y: Double(output.y) + y)
                }
                try xorg.touchscreen.sync()
            }
            let pinch = try app.region("pinch")
            let c = pinch.center
            let (d0, d1) = (pinch.width * 0.05, pinch.width * 0.3)
            try send([(.begin, 1, c + (-d0, 0)), (.begin, 2, c + (d0, 0))])
            for i in 1...12 {
                pause(0.016)
                let d = d0 + (d1 - d0) * Double(i) / 12
                try send([(.update, 1, c + (-d, 0)), (.update, 2, c + (d, 0))])
            }
            pause(0.05)
            try send([(.end, 1, c + (-d1, 0)), (.end, 2, c + (d1, 0))])
            try app.waitFor("pinch", "ended", timeout: 10)
            let lines = app.lines(of: "pinch")
            let located = lines.compactMap(\.location)
            #expect(located.count >= 6, "\(summary(lines))")
            let off = located.map { max(abs($0.x - c.x), abs($0.y - c.y)) }.max() ?? 0
            // Xwayland's coordinates are whole pixels of the compositor's: within a pixel.
            #expect(off < 1, "the pinch's location strayed \(off) pt from the centre:\n\(summary(lines))")
            let scale = try #require(lines.compactMap(\.scale).last)
            #expect(abs(scale / (d1 / d0) - 1) < 0.05, "scale \(scale), expected \(d1 / d0)")
        }
    }
}
