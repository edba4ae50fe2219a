import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// Another X client may set any window size (`xdotool windowsize WIN 800 40000`): the app
    /// draws it, clamped to its draw limit (twice the screen, at most 16384 a side), and never
    /// traps on a 16-bit X field.
    @Suite("Hostile clients: window sizes set by another client")
    struct HostileClients {
        @Test(
            "Resized by another client to 800×40000, 40000×40000, 1×1 and 2×1: laid out at the clamped size, drawn, still running",
            arguments: [[], ["--kiosk"]])
        func hostileSizes(arguments: [String]) throws {
            let session = try AppSession(arguments: arguments)
            defer { session.close() }
            let app = session.app
            let x = session.connection
            // The draw limit on a 1280×800 Xvfb.
            let limit = (width: 2 * 1280, height: 2 * 800)
            for (w, h) in [(800, 40000), (40000, 40000), (1, 1), (2, 1), (65535, 65535), (1024, 768)] {
                let start = app.log.lines(from: 0).count
                x.resize(app.window, width: w, height: h)
                let layout = try app.waitForLayout(after: start, timeout: 10)
                #expect(app.process.isRunning, "\(w)×\(h): \(app.stderr)")
                #expect(
                    layout.width == Double(min(w, limit.width)) && layout.height == Double(min(h, limit.height)),
                    "\(w)×\(h) laid out as \(layout.width)×\(layout.height)")
                // The frame of the new size, then what the screen shows of the window.
                pause(0.4)
                let g = try #require(x.geometry(of: app.window))
                #expect(g.width == w && g.height == h, "\(w)×\(h): the window is \(g.width)×\(g.height)")
                let shot = try x.screenshot(app.window, limit: (1280 - max(0, g.x), 800 - max(0, g.y)))
                if w >= 800 {
                    // The scene (background, regions, the flower), not one flat colour.
                    let colours = Set(shot.pixels).count
                    #expect(colours > 20, "\(w)×\(h): \(colours) colours on screen")
                }
            }
            #expect(app.process.isRunning, "stderr: \(app.stderr)")
            #expect(!app.stderr.contains("Fatal error"), "stderr: \(app.stderr)")
        }
    }
}
