import CCairo
import CXCB
import Foundation
import GestureKit
import GestureShellCore
import GestureTestSupport
import GesturesDemo
import Testing

@testable import GestureX11

extension XServerTests {
    /// The motion frames of an enlarged, turned picture are resampled by the X server (RENDER):
    /// the client draws only what changed above the picture, and the window shows what the
    /// client path (``NearestPainter`` under the regions) draws for the same scene, within the
    /// stated tolerance.
    @Suite("RENDER: the X server resamples a moving, enlarged picture")
    @MainActor
    struct RenderBackdrop {
        /// How the window's pixels of a frame compare with the client path's.
        struct Comparison: CustomStringConvertible {
            var pixels = 0
            /// Within 2 per channel (the overlay blended in two steps instead of one).
            var equal = 0
            /// Further apart, but within 2 of a pixel of the client's 3×3 around it: a pixel
            /// centre at a sampling boundary (16.16 fixed point against the client's 32.32).
            var boundary = 0
            /// Neither.
            var other = 0
            var firstOther: (x: Int, y: Int, window: UInt32, client: UInt32)?
            var description: String {
                "\(pixels) pixels: \(equal) equal, \(boundary) at a sampling boundary, \(other) other"
                    + (firstOther.map {
                        String(format: " (first at %d,%d: %06x vs %06x)", $0.x, $0.y, $0.window, $0.client)
                    } ?? "")
            }
        }

        static func compare(_ shot: Screenshot, _ client: OpaquePointer) -> Comparison {
            cairo_surface_flush(client)
            let w = Int(cairo_image_surface_get_width(client))
            let h = Int(cairo_image_surface_get_height(client))
            let stride = Int(cairo_image_surface_get_stride(client)) / 4
            let data = UnsafeRawPointer(cairo_image_surface_get_data(client)!).assumingMemoryBound(to: UInt32.self)
            func c(_ x: Int, _ y: Int) -> UInt32 { data[y * stride + x] & 0xFF_FFFF }
            var result = Comparison()
            for y in 0..<min(h, shot.height) {
                for x in 0..<min(w, shot.width) {
                    result.pixels += 1
                    let p = shot.pixel(x, y)
                    if colorDistance(p, c(x, y)) <= 2 {
                        result.equal += 1
                        continue
                    }
                    var near = false
                    for ny in max(0, y - 1)...min(h - 1, y + 1) where !near {
                        for nx in max(0, x - 1)...min(w - 1, x + 1) where colorDistance(p, c(nx, ny)) <= 2 {
                            near = true
                            break
                        }
                    }
                    if near {
                        result.boundary += 1
                    } else {
                        result.other += 1
                        if result.firstOther == nil { result.firstOther = (x, y, p, c(x, y)) }
                    }
                }
            }
            return result
        }

        /// Two fingers spread about the flower's centre from 60 to 300 pt apart and turn it by
        /// 0.35 rad: the picture enlarged past 4×, over most of the 1280×800 window and under the
        /// four translucent regions.
        static func pinch() -> [InputEvent] {
            let centre = Point(x: 640, y: 608)
            func finger(_ sign: Double) -> (Double) -> Point {
                { u in
                    let d = 30 + 120 * u
                    let a = 0.35 * u
                    return Point(x: centre.x + sign * d * cos(a), y: centre.y + sign * d * sin(a))
                }
            }
            let events = stroke(start: 0.2, steps: 30, dt: 0.03, lift: 0.3, [finger(-1), finger(1)])
            // Time for the frame that settles the picture before the run ends (the comparison
            // holds the loop for a while in a debug build).
            return events + [.wait(timestamp: (events.last?.timestamp ?? 0) + 1.5)]
        }

        @Test(
            "a turned, enlarged motion frame: the client draws under 5 % of the window, the server the picture; pixels as the client path's"
        )
        func motionFrame() throws {
            let server = try TestXServer(width: 1280, height: 800)
            let connection = try GestureTestSupport.XConnection(server.display)
            var options = ShellOptions()
            options.display = server.display
            options.size = Size(width: 1280, height: 800)
            options.serverResampling = .always  // Xvfb renders with pixman: no DRI3, so `auto` would not
            let shell = try X11Shell(options: options)
            #expect(shell.drawing.render != nil, "Xvfb has RENDER: `always` uses it")
            let image = try DemoImage(path: repositoryRoot + "/Resources/flower.png")
            let scene = DemoScene(size: shell.size, image: image)
            scene.imageCache = ScaledImageCache()
            let windowPixels = 1280 * 800
            var reports: [FrameReport] = []
            var compared: (frame: Int, report: FrameReport, comparison: Comparison)?
            var failure: String?
            shell.onFramePresented = { _ in
                let report = shell.lastFrame
                reports.append(report)
                // A frame after the first resampled one (which uploads the whole overlay), once
                // the picture is enlarged past 3× and turned (it then covers most of the window).
                let m = scene.imageMatrix
                guard compared == nil, failure == nil, report.serverResampled,
                    (m.a * m.a + m.b * m.b).squareRoot() >= 3, abs(m.b) > 0.05,
                    reports.dropLast().contains(where: \.serverResampled)
                else { return }
                shell.x.sync()
                do {
                    let shot = try connection.screenshot(UInt(shell.xid))
                    let client = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1280, 800)!
                    defer { cairo_surface_destroy(client) }
                    _ = DamageDrawing.draw(
                        scene, into: client, scale: shell.scale, overlay: [], drawnOverlay: [], showTouches: false,
                        full: true)
                    compared = (reports.count, report, Self.compare(shot, client))
                } catch {
                    failure = "\(error)"
                }
            }
            shell.play(Self.pinch(), exitWhenDone: true)
            #expect(shell.run(scene: scene) == 0)
            #expect(failure == nil, "\(failure ?? "")")
            let resampled = reports.filter(\.serverResampled).count
            #expect(resampled >= 5, "frames resampled by the server: \(resampled) of \(reports.count)")
            let c = try #require(compared, "no resampled motion frame to compare (\(resampled) of \(reports.count))")
            #expect(
                c.report.clientPixels * 20 < windowPixels,
                "frame \(c.frame): the client drew \(c.report.clientPixels) of \(windowPixels) pixels")
            // Every pixel as the client path's (±2 a channel), or the neighbour at a sampling
            // boundary; those at most 1 % of the window. A pixel at a sampling boundary under an
            // antialiased edge (a glyph's, a region's) can match neither, its neighbours'
            // coverage differing too: at most 1 in 10 000.
            #expect(c.comparison.other * 10_000 <= c.comparison.pixels, "\(c.comparison)")
            #expect(c.comparison.boundary * 100 <= c.comparison.pixels, "\(c.comparison)")
            // Settled at the end: drawn by the client again, and the server's pixmaps freed.
            #expect(reports.last?.serverResampled == false, "the settled picture's frame is the client's")
            #expect(shell.drawing.render?.isHolding != true)
            print("RENDER motion frame \(c.frame): client drew \(c.report.clientPixels) px; \(c.comparison)")
        }

        /// Whether process `pid` is stopped (state T in /proc/PID/stat).
        static func isStopped(_ pid: pid_t) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")"), stat.distance(from: end, to: stat.endIndex) > 2
            else { return false }
            return stat[stat.index(end, offsetBy: 2)] == "T"
        }

        /// Stops `server` (SIGSTOP) until `body` has run; a second thread lets it go on after 3 s,
        /// so a step that waits for a reply ends, late. Returns whether the server was still
        /// stopped when `body` returned: then `body` waited for no reply.
        static func whileStopped(_ server: TestXServer, _ body: () -> Void) throws -> Bool {
            let pid = server.process.pid
            kill(pid, SIGSTOP)
            defer { kill(pid, SIGCONT) }
            let stopped = poll(timeout: 2, interval: 0.005) { isStopped(pid) ? true : nil }
            try #require(stopped == true, "Xvfb did not stop")
            DispatchQueue.global().asyncAfter(deadline: .now() + 3) { kill(pid, SIGCONT) }
            body()
            return isStopped(pid)
        }

        /// Start-up asks whether RENDER is to be used (DRI3 for `auto`, RENDER, its version and
        /// formats) without a round trip of its own: the questions go with the atoms' requests,
        /// the version and formats with the next round trip, and each step then reads what has
        /// come. With the server stopped after those round trips, every step still answers.
        @Test(
            "RENDER's start-up questions ride on round trips start-up makes anyway: each step answers with the server stopped",
            arguments: [ServerResampling.auto, .always])
        func startupQuestions(_ mode: ServerResampling) throws {
            let server = try TestXServer(width: 640, height: 480)
            let x = try GestureX11.XConnection(display: server.display)
            defer { x.close() }
            GestureX11.RenderBackdrop.ask(mode, x)
            x.intern(X11Shell.atomNames)  // the atoms' round trip
            var asked: GestureX11.RenderBackdrop.Asked?
            #expect(try Self.whileStopped(server) { asked = GestureX11.RenderBackdrop.askFormats(mode, x) })
            guard mode == .always else {
                #expect(asked == nil, "Xvfb has no DRI3: `auto` leaves frames to the client")
                #expect(!x.hasExtension("DRI3"))
                return
            }
            let formats = try #require(asked, "Xvfb has RENDER")
            let window = x.newID()
            xcb_create_window(
                x.raw, 24, window, x.root, 0, 0, 64, 64, 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue),
                x.rootVisual, 0, nil)
            x.sync()  // the next round trip (the window manager's property, at start-up)
            var backdrop: GestureX11.RenderBackdrop?
            #expect(
                try Self.whileStopped(server) {
                    backdrop = GestureX11.RenderBackdrop(connection: x, window: window, asked: formats)
                })
            #expect(backdrop != nil, "Xvfb has RENDER 0.11 and the x8r8g8b8 and a8r8g8b8 formats")
            backdrop?.close()
            x.sync()
        }

        @Test(
            "a server that renders on the CPU (Xvfb: RENDER, no DRI3) by default, or any server told never: the client draws every frame",
            arguments: [ServerResampling.auto, .never])
        func clientResamples(_ mode: ServerResampling) throws {
            try Self.expectClientFrames(mode: mode, serverArguments: [])
        }

        @Test("a server without RENDER: the client draws every frame, as before")
        func withoutRender() throws {
            try Self.expectClientFrames(mode: .always, serverArguments: ["-extension", "RENDER"])
        }

        /// Plays the pinch on a new Xvfb given `serverArguments`, the shell told `mode`: no RENDER
        /// state, and every frame the client's.
        static func expectClientFrames(mode: ServerResampling, serverArguments: [String]) throws {
            let server = try TestXServer(width: 1280, height: 800, extraArguments: serverArguments)
            var options = ShellOptions()
            options.display = server.display
            options.size = Size(width: 1280, height: 800)
            options.serverResampling = mode
            let shell = try X11Shell(options: options)
            #expect(shell.drawing.render == nil)
            let scene = DemoScene(
                size: shell.size, image: try DemoImage(path: repositoryRoot + "/Resources/flower.png"))
            scene.imageCache = ScaledImageCache()
            var reports: [FrameReport] = []
            shell.onFramePresented = { _ in reports.append(shell.lastFrame) }
            shell.play(Self.pinch(), exitWhenDone: true)
            #expect(shell.run(scene: scene) == 0)
            #expect(reports.count >= 10 && !reports.contains(where: \.serverResampled), "\(reports.count) frames")
        }
    }
}
