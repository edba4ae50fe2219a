import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The app as an X11 client of Xwayland under a Wayland compositor (sway, cage and Weston,
    /// see `WaylandCompositor`): where most touch machines now run it.
    @Suite("gestures run under Xwayland (sway, cage, Weston)")
    struct Xwayland {
        @Test(
            "It maps; a tap and a Ctrl-drag pinch sent through XTest are recognized",
            arguments: WaylandCompositor.Kind.allCases)
        func mapsAndTakesInput(_ kind: WaylandCompositor.Kind) throws {
            let compositor = try WaylandCompositor(kind, .headless(outputs: [(1280, 800)]))
            let output = try #require(compositor.outputSizes.first)
            // sway tiles the window over its output and cage maximizes it: asked for the
            // output's size, it keeps it. Weston floats a window in a frame of its own, and a
            // press in a framed window can start Weston's move of it (the window went from
            // +38+59 to +201+96 during the drag): there the app asks for full screen, as a
            // kiosk or tablet does, which Weston gives without a frame.
            let arguments = kind == .weston ? ["--fullscreen"] : []
            let session = try AppSession(
                display: compositor.display, arguments: arguments, size: "\(output.width)x\(output.height)"
            ) { compositor.stop() }
            defer { session.close() }
            let app = session.app
            // Where the compositor put it, once it stays put for 0.3 s.
            var g = try #require(session.connection.geometry(of: app.window))
            var since = monotonicNow()
            while monotonicNow() - since < 0.3 {
                pause(0.05)
                let now = try #require(session.connection.geometry(of: app.window))
                if now != g { (g, since) = (now, monotonicNow()) }
            }
            #expect(
                g.viewable && g.x == 0 && g.y == 0 && g.width == output.width && g.height == output.height,
                "\(g)\n\(compositor.log)")

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
            let after = session.connection.geometry(of: app.window)
            #expect(
                abs(scale - 2.5) < 0.05, "window \(g), after the drag \(String(describing: after))\n\(summary(lines))")
            #expect(lines.allSatisfy { $0.touches == 2 }, "\(summary(lines))")
        }

        @Test(
            "Nested on Xorg + inputtest: genuine touches reach the app through Xwayland and pinch with a steady centre",
            xorgNeedsRoot)
        func genuineTouchPinch() throws {
            let xorg = try XorgInputTest()
            defer { xorg.stop() }
            let sway = try WaylandCompositor(.sway, .nested(display: xorg.display, width: 1024, height: 768))
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
