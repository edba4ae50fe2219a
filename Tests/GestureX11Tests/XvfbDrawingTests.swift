import CCairo
import CX11
import Foundation
import GestureTestSupport
import GesturesDemo
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// Every drawing path the demo can reach — the picture downscaled, rotated, upscaled; the
    /// bundled flower and a large picture; a server with MIT-SHM and one without — driven like a
    /// person would (keys, then a drag on the picture), each answered by a frame. The shell used
    /// to freeze for good here (cairo-xlib's SHM path waited in an event queue XCB owned).
    @Suite("gestures run: every drawing path answers (Xvfb, with and without MIT-SHM)")
    struct XvfbDrawing {
        struct Case: CustomStringConvertible, Sendable {
            var shm: Bool
            var bigPicture: Bool
            var description: String {
                "\(shm ? "MIT-SHM" : "no MIT-SHM"), \(bigPicture ? "3000x2000 picture" : "flower")"
            }
        }

        static let cases = [
            Case(shm: true, bigPicture: false), Case(shm: false, bigPicture: false),
            Case(shm: true, bigPicture: true), Case(shm: false, bigPicture: true),
        ]

        /// A large 8-bit RGB PNG (ImageMagick's gradient), made once per run.
        static func bigPicture() throws -> String {
            let path = NSTemporaryDirectory() + "gestures-big-\(getpid()).png"
            if FileManager.default.fileExists(atPath: path) { return path }
            removeAtExit(path)
            let convert = try #require(findProgram("convert"), "ImageMagick's convert is needed (scripts/deps)")
            let p = try ChildProcess(
                convert, ["-size", "3000x2000", "gradient:navy-gold", "-depth", "8", "PNG24:" + path])
            #expect(p.wait(timeout: 30) == 0)
            return path
        }

        @Test(
            "Shrink, rotate and enlarge the picture with keys, drag it after each: a frame every time", arguments: cases
        )
        @MainActor
        func drawingPaths(c: Case) throws {
            var arguments: [String] = []
            if c.bigPicture { arguments += ["--image", try Self.bigPicture()] }
            let session = try AppSession(
                arguments: arguments, serverArguments: c.shm ? [] : ["-extension", "MIT-SHM"])
            defer { session.close() }
            let app = session.app
            var centre = try app.region("image").center
            // minus ×6 (downscaled), bracketright ×3 (rotated), equal ×16 (upscaled past the window).
            let phases: [(keysym: Int32, count: Int)] = [(0x2d, 6), (0x5d, 3), (0x3d, 16)]
            for (n, phase) in phases.enumerated() {
                for _ in 0..<phase.count { app.keyChord([], phase.keysym) }
                let start = app.log.lines(from: 0).count
                let (dx, dy) = (n % 2 == 0 ? 40.0 : -35.0, n % 2 == 0 ? -30.0 : 25.0)
                try app.drag(straightPath(from: centre, to: centre + (dx, dy), steps: 40), interval: 0.004, rest: 0.07)
                try app.waitFor("imagePan", "ended", from: start, timeout: 5)
                centre = centre + (dx, dy)
                let box = app.pixelRect(LayoutRect(x: centre.x - 8, y: centre.y - 8, width: 16, height: 16))
                let bg = DemoRenderer.background
                _ = try pollScreenshot(app) { shot in
                    shot.fraction(of: rgb(bg.r, bg.g, bg.b), in: box, tolerance: 12) < 0.5
                }
                let shot = try app.screenshot()
                #expect(
                    shot.fraction(of: rgb(bg.r, bg.g, bg.b), in: box, tolerance: 12) < 0.5,
                    "phase \(n): the picture is not drawn under the finger at \(centre)")
            }
            // Ctrl shows the simulated fingers; its release hides them: a frame that follows the
            // last event. Then idle: nothing to warn about (a frame in flight that nobody waits
            // for is not overdue).
            session.connection.key(Keysym.controlL, pressed: true)
            session.connection.sync()
            pause(0.1)
            session.connection.key(Keysym.controlL, pressed: false)
            session.connection.sync()
            pause(0.8)
            #expect(app.stderr.isEmpty, "stderr: \(app.stderr)")
            // The shared-memory segments the app made: one for the window's size at most.
            let segments = sharedMemorySegments(creator: app.process.pid)
            #expect(segments <= (c.shm ? 1 : 0), "\(segments) SysV segments made by the app")
            let sent = monotonicNow()
            app.process.signal(SIGTERM)
            let status = app.waitForExit(timeout: 3)
            #expect(status == 0)
            #expect(monotonicNow() - sent < 1, "SIGTERM took \(monotonicNow() - sent) s")
        }

        /// The window keeps the picture and the app only a 1 MiB buffer that frames are drawn
        /// into in passes (see `Presenter`): the window must hold exactly what one whole drawing
        /// of the scene gives (`--screenshots`' final.png, drawn at exit), after a first frame
        /// of PutImage bands, drags through SHM passes at the first scale, and — `enlarged` —
        /// frames after the segment grew to the window's size (3 MiB at 1024×768).
        @Test(
            "The window holds exactly the whole picture: 1 MiB buffer, passes, bands and the grown segment",
            arguments: [(true, false), (true, true), (false, false), (false, true)])
        @MainActor
        func windowHoldsTheWholePicture(shm: Bool, enlarged: Bool) throws {
            let dir = try TemporaryDirectory(prefix: "gestures-passes")
            let session = try AppSession(
                arguments: ["--screenshot-dir", dir.path], serverArguments: shm ? [] : ["-extension", "MIT-SHM"])
            defer { session.close() }
            let app = session.app
            let window = 1024 * 768 * 4
            #expect(sharedMemorySegmentSizes(creator: app.process.pid) == (shm ? [1 << 20] : []))
            var centre = try app.region("image").center
            for n in 0..<3 {
                if enlarged && n == 1 { for _ in 0..<8 { app.keyChord([], 0x3d) } }
                let start = app.log.lines(from: 0).count
                let (dx, dy) = (n % 2 == 0 ? 30.0 : -45.0, n % 2 == 0 ? -20.0 : 15.0)
                try app.drag(straightPath(from: centre, to: centre + (dx, dy), steps: 30), interval: 0.004, rest: 0.07)
                try app.waitFor("imagePan", "ended", from: start, timeout: 5)
                centre = centre + (dx, dy)
            }
            // Just after the last frame: the segment as the drags left it.
            #expect(sharedMemorySegmentSizes(creator: app.process.pid) == (shm ? [enlarged ? window : 1 << 20] : []))
            // Past the picture's settle delay and the presenter's shrink delay (0.8 s on a quiet
            // machine; polled for up to 5 s, so that a loaded machine does not fail it): nothing
            // changes any more, and a grown segment is back to 1 MiB.
            let rest = shm ? [1 << 20] : []
            let settled = poll(timeout: 5, interval: 0.05) {
                sharedMemorySegmentSizes(creator: app.process.pid) == rest ? true : nil
            }
            #expect(settled == true, "segments: \(sharedMemorySegmentSizes(creator: app.process.pid))")
            let shot = try app.screenshot()
            app.process.signal(SIGTERM)
            #expect(app.waitForExit(timeout: 3) == 0)
            let png = try #require(cairo_image_surface_create_from_png(dir.file("final.png")))
            defer { cairo_surface_destroy(png) }
            #expect(cairo_surface_status(png) == CAIRO_STATUS_SUCCESS)
            let (w, h) = (Int(cairo_image_surface_get_width(png)), Int(cairo_image_surface_get_height(png)))
            #expect(w == shot.width && h == shot.height)
            let stride = Int(cairo_image_surface_get_stride(png))
            let data = try #require(cairo_image_surface_get_data(png))
            // The same rounding tolerance as the damage test (pixman through a clip): 2/255.
            var differing = 0
            for y in 0..<min(h, shot.height) {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<min(w, shot.width) {
                    let (a, b) = (row[x], shot.pixel(x, y))
                    for shift: UInt32 in [0, 8, 16] {
                        let (ca, cb) = (Int((a >> shift) & 0xFF), Int((b >> shift) & 0xFF))
                        if abs(ca - cb) > 2 {
                            differing += 1
                            break
                        }
                    }
                }
            }
            #expect(differing == 0, "\(differing) pixels of the window differ from the whole picture")
            #expect(app.stderr.isEmpty, "stderr: \(app.stderr)")
        }

        /// A segment grown for an enlarged picture follows the window: a new size takes it back to
        /// 1 MiB, and the next frame that needs more grows it to the new window's size (not the
        /// largest size the window ever had; the monkey soak saw the app and the X server keep
        /// 4 MiB after 1280×800 and back); half a second without a frame takes it back to 1 MiB.
        @Test("A grown segment goes back to 1 MiB at a new window size and when idle, and grows to the window's size")
        @MainActor
        func grownSegmentFollowsTheWindow() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            for _ in 0..<8 { app.keyChord([], 0x3d) }
            var centre = try app.region("image").center
            func drag() throws {
                let start = app.log.lines(from: 0).count
                try app.drag(straightPath(from: centre, to: centre + (30, -20), steps: 20), interval: 0.004, rest: 0.07)
                try app.waitFor("imagePan", "ended", from: start, timeout: 5)
                centre = centre + (30, -20)
                pause(0.05)
            }
            try drag()
            #expect(sharedMemorySegmentSizes(creator: app.process.pid) == [1024 * 768 * 4])
            let start = app.log.lines(from: 0).count
            session.connection.resize(app.window, width: 800, height: 600)
            session.connection.sync()
            try app.waitForLayout(after: start)
            // The resize's frame, well before the idle shrink (0.5 s after the last frame).
            pause(0.1)
            #expect(sharedMemorySegmentSizes(creator: app.process.pid) == [1 << 20])
            centre = try app.region("image").center
            try drag()
            #expect(sharedMemorySegmentSizes(creator: app.process.pid) == [800 * 600 * 4])
            pause(0.8)
            #expect(sharedMemorySegmentSizes(creator: app.process.pid) == [1 << 20])
            #expect(app.stderr.isEmpty, "stderr: \(app.stderr)")
        }

        /// A window started small gets a buffer of its own size, and the 1 MiB one once it is
        /// enlarged (not bands of the small buffer for every later frame).
        @Test("A small window's buffer is its size; enlarged, the window gets the 1 MiB buffer")
        @MainActor
        func smallWindowThenEnlarged() throws {
            let session = try AppSession(size: "320x240")
            defer { session.close() }
            let app = session.app
            #expect(sharedMemorySegmentSizes(creator: app.process.pid) == [320 * 240 * 4])
            var start = app.log.lines(from: 0).count
            session.connection.resize(app.window, width: 1024, height: 768)
            session.connection.sync()
            try app.waitForLayout(after: start)
            let centre = try app.region("image").center
            start = app.log.lines(from: 0).count
            try app.drag(straightPath(from: centre, to: centre + (30, 20), steps: 20), interval: 0.004, rest: 0.07)
            try app.waitFor("imagePan", "ended", from: start, timeout: 5)
            pause(0.2)
            #expect(sharedMemorySegmentSizes(creator: app.process.pid) == [1 << 20])
            #expect(app.stderr.isEmpty, "stderr: \(app.stderr)")
        }
    }
}
