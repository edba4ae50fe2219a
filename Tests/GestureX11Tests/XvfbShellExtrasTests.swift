import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// Shell promises seen end to end (the unit tests check them without a server): core input without
    /// XInput 2, HiDPI (`--scale` and Xft.dpi), shaking the real window, the kiosk's idle reset,
    /// tour, fullscreen and hidden cursor, and an XI 2.4 touchpad swipe.
    @Suite("gestures run: core input, HiDPI, window shake, kiosk, touchpad swipe")
    struct XvfbShellExtras {
        // MARK: Core input (no XInput 2)

        @Test("--core-input: core events only; a click taps, a drag pans the image")
        func coreInput() throws {
            let session = try AppSession(arguments: ["--core-input", "--input-batch-ms", "100"])
            defer { session.close() }
            let app = session.app
            let ready = try app.log.waitFor("ready line") { $0.type == "ready" }.line
            #expect(ready.number("xinput") == 0, "\(ready)")
            // Nothing can end a batch of dead motion early without XInput 2: a batch asked for is
            // cut to one frame at most.
            #expect(ready.number("batchMs") == 17, "\(ready)")
            let tap = try app.region("tap")
            app.click(at: tap.center + (-tap.width * 0.2, 0))
            let line = try app.waitFor("tap", "ended")
            #expect(line.number("taps") == 1 && line.touches == 1, "\(line)")
            #expect(line.location.map { tap.contains($0) } == true, "\(line)")

            let image = try app.region("image")
            let start = image.center + (-image.width * 0.1, image.height * 0.1)
            let (dx, dy) = (image.width * 0.2, -image.height * 0.15)
            try app.drag(straightPath(from: start, to: start + (dx, dy), steps: 20))
            try app.waitFor("imagePan", "ended")
            let translation = try #require(
                app.lines(of: "imagePan").last { $0.object["translation"] != nil }?
                    .object["translation"] as? [NSNumber])
            #expect(abs(translation[0].doubleValue - dx) < 1.5, "\(translation)")
            #expect(abs(translation[1].doubleValue - dy) < 1.5, "\(translation)")
            #expect(
                app.lines(of: "imagePan").allSatisfy { $0.touches == nil || $0.touches == 1 })
        }

        @Test("--core-input (as without XInput 2): exactly one warning line on stderr")
        func coreInputWarning() throws {
            let session = try AppSession(arguments: ["--core-input"])
            defer { session.close() }
            let app = session.app
            session.connection.sendDeleteWindow(app.window)
            #expect(app.waitForExit(timeout: 5) == 0)
            let lines = app.stderr.split(separator: "\n")
            #expect(lines.count == 1, "stderr: \(app.stderr)")
            #expect(lines.first?.hasPrefix("gestures: warning:") == true, "stderr: \(app.stderr)")
            #expect(lines.first?.contains("XInput") == true, "stderr: \(app.stderr)")
        }

        // MARK: HiDPI

        @Test("--scale 2: the layout is the window's pixel size / 2; a click at 2× the tap centre taps")
        func scaleOption() throws {
            let session = try AppSession(arguments: ["--scale", "2"], size: "600x400")
            defer { session.close() }
            let app = session.app
            let ready = try app.log.waitFor("ready line") { $0.type == "ready" }.line
            #expect(ready.number("scale") == 2, "\(ready)")
            let g = try #require(session.connection.geometry(of: app.window))
            #expect(g.width == 1200 && g.height == 800, "window \(g)")
            #expect(app.layout.width == Double(g.width) / 2, "layout width \(app.layout.width)")
            #expect(app.layout.height == Double(g.height) / 2, "layout height \(app.layout.height)")
            #expect(ready.number("width") == 600 && ready.number("height") == 400, "\(ready)")

            let tap = try app.region("tap")
            // Explicitly in pixels: the window's origin plus the region's centre × 2.
            let (px, py) = (Double(g.x) + tap.midX * 2, Double(g.y) + tap.midY * 2)
            session.connection.move(to: px, py)
            session.connection.button(1, pressed: true)
            pause(0.03)
            session.connection.button(1, pressed: false)
            session.connection.sync()
            let line = try app.waitFor("tap", "ended")
            let location = try #require(line.location, "\(line)")
            #expect(abs(location.x - tap.midX) <= 0.5 && abs(location.y - tap.midY) <= 0.5, "\(line)")
        }

        @Test("Xft.dpi: 192 in the server's RESOURCE_MANAGER: scale 2 in the ready line")
        func xftDPI() throws {
            let server = try TestXServer()
            do {
                let setup = try XConnection(server.display)
                defer { setup.close() }
                setResourceManager(setup, "Xft.antialias:\t1\nXft.dpi:\t192\n")
            }
            let session = try AppSession(display: server.display, size: "600x400") { server.stop() }
            defer { session.close() }
            let app = session.app
            let ready = try app.log.waitFor("ready line") { $0.type == "ready" }.line
            #expect(ready.number("scale") == 2, "\(ready)")
            let g = try #require(session.connection.geometry(of: app.window))
            #expect(g.width == 1200 && g.height == 800, "window \(g)")
            #expect(app.layout.width == 600 && app.layout.height == 400)
            let tap = try app.region("tap")
            app.click(at: tap.center)
            let line = try app.waitFor("tap", "ended")
            #expect(line.location.map { tap.contains($0) } == true, "\(line)")
        }

        // MARK: Shaking the window

        @Test("Moving the window fast back and forth is one shake; the image goes back")
        func windowShake() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let image = try app.region("image")
            try app.drag(straightPath(from: image.center, to: image.center + (60, -30), steps: 12))
            try app.waitFor("imagePan", "ended")
            let start = app.log.count
            // 4 reversals of 60 px, 50 ms apart (the detector: ≥ 4 within 1 s, legs ≥ 8 px).
            moveWindow(session, app, xs: [100, 160, 100, 160, 100, 160, 100], interval: 0.05)
            try app.waitFor("shake", "ended", from: start)
            // Let the moves be handled: a click after them, then count.
            app.updateGeometry()
            app.click(at: try app.region("tap").center)
            let tapIndex = try app.log.waitFor("tap after the moves", from: start) {
                $0.isGesture("tap", "ended")
            }.index
            let shakes = app.log.lines(from: start).prefix(tapIndex - start)
                .filter { $0.isGesture("shake") || $0.type == "shake" }
            #expect(shakes.count == 1, "\(summary(Array(shakes)))")
            #expect(shakes.first?.label == "Shaking things up!", "\(summary(Array(shakes)))")
            session.connection.sendDeleteWindow(app.window)
            #expect(app.waitForExit(timeout: 5) == 0, "stderr: \(app.stderr)")
            let final = try app.log.waitFor("final line") { $0.type == "final" }.line
            try expectImageAtLayoutRect(final, image)
        }

        @Test("Moving the window back and forth slowly is no shake")
        func slowWindowMovesNoShake() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            // The same moves, 0.45 s apart: 4 reversals take 1.35 s, more than the 1 s window.
            moveWindow(session, app, xs: [100, 160, 100, 160, 100, 160, 100], interval: 0.45)
            app.updateGeometry()
            app.click(at: try app.region("tap").center)
            try app.waitFor("tap", "ended")
            let shakes = app.log.lines(from: 0).filter { $0.isGesture("shake") || $0.type == "shake" }
            #expect(shakes.isEmpty, "\(summary(Array(shakes)))")
        }

        // MARK: Kiosk

        @Test("--kiosk: fullscreen 1280×800, the cursor hidden over the window")
        func kioskFullscreen() throws {
            let session = try AppSession(arguments: ["--kiosk"])
            defer { session.close() }
            let app = session.app
            let g = try #require(session.connection.geometry(of: app.window))
            #expect(g.x == 0 && g.y == 0 && g.width == 1280 && g.height == 800, "\(g)")
            #expect(app.layout.width == 1280 && app.layout.height == 800)
            let ready = try app.log.waitFor("ready line") { $0.type == "ready" }.line
            #expect(ready.number("width") == 1280 && ready.number("height") == 800, "\(ready)")
            app.move(to: LayoutPoint(x: 640, y: 400))
            session.connection.sync()
            // libXfixes is loaded at run time (the package does not link it); without it only
            // the geometry part stands.
            guard xfixesAvailable else { return }
            let hidden = poll(timeout: 2, interval: 0.02) { () -> CursorImage? in
                currentCursor(session.connection).flatMap { $0.opaque == 0 ? $0 : nil }
            }
            let cursor = try #require(hidden ?? currentCursor(session.connection))
            #expect(cursor.opaque == 0, "the cursor over the kiosk window shows \(cursor)")
        }

        @Test(
            "Without --kiosk the cursor over the window is visible (so the kiosk check can tell)",
            .enabled(if: xfixesAvailable, "libXfixes.so.3 is not installed"))
        func cursorVisibleOutsideKiosk() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            app.move(to: LayoutPoint(x: 300, y: 300))
            session.connection.sync()
            let cursor = try #require(currentCursor(session.connection), "XFixesGetCursorImage")
            #expect(cursor.opaque > 0, "\(cursor)")
        }

        @Test("--kiosk: after a pan, ~1 s without input puts the image back (no tour yet)")
        func kioskIdleReset() throws {
            let session = try AppSession(arguments: [
                "--kiosk", "--kiosk-reset-after", "1", "--kiosk-tour-after", "30",
            ])
            defer { session.close() }
            let app = session.app
            let before = try app.screenshot()
            let image = try app.region("image")
            let start = image.center + (-image.width * 0.1, 0)
            let (dx, dy) = (image.width * 0.3, -image.height * 0.2)
            try app.drag(straightPath(from: start, to: start + (dx, dy), steps: 15))
            try app.waitFor("imagePan", "ended")
            let panned = monotonicNow()
            let pixels = app.pixelRect(image)
            func unmoved(_ shot: Screenshot) -> Double {
                before.match(shot, in: pixels, ignoring: before.pixel(2, 2)) { ($0, $1) }.fraction
            }
            #expect(unmoved(try app.screenshot()) < 0.7, "the pan did not move the picture")
            let reset = try pollScreenshot(app, timeout: 4) { unmoved($0) > 0.95 }
            let elapsed = monotonicNow() - panned
            #expect(unmoved(reset) > 0.95, "the picture is not back after \(elapsed) s")
            #expect(elapsed > 0.8 && elapsed < 3, "reset after \(elapsed) s (expected ~1 s)")
            // A kiosk refuses close requests (KioskDeploymentTests): SIGTERM, status 128 + 15.
            app.process.signal(SIGTERM)
            #expect(app.waitForExit(timeout: 5) == 143, "stderr: \(app.stderr)")
            let final = try app.log.waitFor("final line") { $0.type == "final" }.line
            try expectImageAtLayoutRect(final, image)
            #expect(final.label == "Do something!", "\(final)")
        }

        @Test("--kiosk: after ~2 s idle the bundled tour plays without input")
        func kioskTourPlays() throws {
            let session = try AppSession(arguments: [
                "--kiosk", "--kiosk-reset-after", "1", "--kiosk-tour-after", "2",
            ])
            defer { session.close() }
            let app = session.app
            let ready = try app.log.waitFor("ready line") { $0.type == "ready" }.line
            let readyTime = try #require(ready.number("t"))
            // No input from the test: the tour's own gestures appear.
            let first = try app.log.waitFor("tour gesture", timeout: 8) {
                $0.isGesture && $0.state != "failed"
            }.line
            let t = try #require(first.number("t"))
            #expect(t >= readyTime + 2, "first tour line at \(t), ready at \(readyTime)")
            #expect(t < readyTime + 4, "first tour line at \(t), ready at \(readyTime)")
        }

        @Test("--kiosk: a click stops the tour (--kiosk-tour: a long pan on the image)")
        func kioskTourStops() throws {
            // Kiosk is fullscreen, 1280×800 points: the image is at [464, 432, 352, 352].
            let directory = try TemporaryDirectory()
            var trace = [#"{"type":"down","t":0.1,"id":1,"x":600,"y":600}"#]
            for i in 1...120 {
                let x = 600 + 60 * sin(Double(i) / 8)
                trace.append(#"{"type":"move","t":\#(0.1 + Double(i) * 0.05),"id":1,"x":\#(x),"y":600}"#)
            }
            trace.append(#"{"type":"up","t":6.2,"id":1,"x":600,"y":600}"#)
            let tour = directory.file("tour.jsonl")
            try (trace.joined(separator: "\n") + "\n").write(
                toFile: tour, atomically: true, encoding: .utf8)
            let session = try AppSession(arguments: [
                "--kiosk", "--kiosk-tour", tour, "--kiosk-reset-after", "1",
                "--kiosk-tour-after", "2",
            ])
            defer { session.close() }
            let app = session.app
            // The tour pans the image, without input from the test.
            try app.waitFor("imagePan", "began", timeout: 6)
            let playing = try app.log.waitFor("tour pan changes") {
                $0.isGesture && $0.recognizer == "imagePan" && $0.state == "changed"
            }
            // Someone touches: a click in the tap region stops the tour at once.
            let tap = try app.region("tap")
            app.click(at: tap.center)
            let mine = try app.log.waitFor("the click's tap", from: playing.index + 1) {
                $0.isGesture("tap", "ended")
            }
            let pans = app.lines(of: "imagePan")
            let last = try #require(pans.last, "\(summary(pans))")
            #expect(last.state == "cancelled" || last.state == "ended", "\(summary(pans))")
            // The tour would have gone on for 5 s; the next one starts 2 s after the click.
            pause(1.2)
            let after = app.lines(of: "imagePan", from: mine.index + 1)
            #expect(after.isEmpty, "the tour went on after the click:\n\(summary(after))")
        }

        // MARK: Touchpad swipe (Xorg + inputtest)

        @Test("An XI 2.4 three-finger touchpad swipe to the right over the swipe region", xorgNeedsRoot)
        func touchpadSwipe() throws {
            let server = try XorgInputTest()
            let session = try AppSession(display: server.display) { server.stop() }
            defer { session.close() }
            let app = session.app
            let swipe = try app.region("swipe")
            app.move(to: swipe.center + (-swipe.width * 0.25, 0))
            app.connection.sync()
            let pad = server.touchpad
            try pad.swipe(.begin, fingers: 3)
            for _ in 0..<8 {
                pause(0.01)
                try pad.swipe(.update, fingers: 3, dx: 20, dy: 0)
            }
            pause(0.01)
            try pad.swipe(.end, fingers: 3)
            try pad.sync()
            let line = try app.log.waitFor("swipe ended") { $0.isGesture("swipe", "ended") }.line
            #expect(line.direction == "right", "\(line)")
            #expect(line.label == "Swiped right", "\(line)")
            #expect(line.touches == 1, "\(line)")
            #expect(app.log.lines(from: 0).filter { $0.isGesture("swipe", "ended") }.count == 1)
        }
    }
}

// MARK: - Helpers

/// Moves the app's top-level window to each x (y stays 0), `interval` seconds apart, and
/// waits until the server has processed every move.
private func moveWindow(_ session: AppSession, _ app: GesturesApp, xs: [Int32], interval: Double) {
    for (i, x) in xs.enumerated() {
        if i > 0 { pause(interval) }
        XMoveWindow(session.connection.display, app.window, x, 0)
        session.connection.sync()
    }
}

/// The final line shows the image untransformed at its layout rect (docs/DESIGN.md §4.2: the matrix
/// maps image-local points to window points).
private func expectImageAtLayoutRect(_ final: LogLine, _ rect: LayoutRect) throws {
    let image = try #require(final.object["image"] as? [String: Any], "\(final)")
    let matrix = try #require(image["matrix"] as? [NSNumber], "\(final)").map(\.doubleValue)
    let bounds = try #require(image["bounds"] as? [NSNumber], "\(final)").map(\.doubleValue)
    let expected = [1, 0, 0, 1, rect.x, rect.y]
    #expect(matrix.count == 6 && zip(matrix, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(final)")
    #expect(bounds.count == 2 && abs(bounds[0] - rect.width) < 1e-6, "\(final)")
}

/// Sets the root window's RESOURCE_MANAGER property (what `xrdb -load` does).
private func setResourceManager(_ connection: XConnection, _ text: String) {
    let bytes = Array(text.utf8)
    let property = XInternAtom(connection.display, "RESOURCE_MANAGER", 0)
    let string = XInternAtom(connection.display, "STRING", 0)
    XChangeProperty(
        connection.display, connection.root, property, string, 8, PropModeReplace, bytes,
        Int32(bytes.count))
    connection.sync()
}

/// The cursor the screen shows now (XFixes), summarised.
struct CursorImage: CustomStringConvertible {
    var width: Int
    var height: Int
    /// Pixels with a non-zero alpha.
    var opaque: Int
    var description: String { "\(width)×\(height) cursor, \(opaque) visible pixels" }
}

/// `XFixesCursorImage` (X11/extensions/Xfixes.h).
private struct XFixesCursorImageLayout {
    var x: Int16
    var y: Int16
    var width: UInt16
    var height: UInt16
    var xhot: UInt16
    var yhot: UInt16
    var cursorSerial: UInt
    var pixels: UnsafeMutablePointer<UInt>?
    var atom: UInt
    var name: UnsafePointer<CChar>?
}

/// Whether libXfixes (for ``currentCursor(_:)``) can be loaded.
let xfixesAvailable = dlopen("libXfixes.so.3", RTLD_NOW | RTLD_LOCAL) != nil

/// `XFixesGetCursorImage` through libXfixes loaded at run time (the package does not link
/// it); nil when the library or the extension is missing.
func currentCursor(_ connection: XConnection) -> CursorImage? {
    guard let library = dlopen("libXfixes.so.3", RTLD_NOW | RTLD_LOCAL),
        let query = dlsym(library, "XFixesQueryVersion"),
        let get = dlsym(library, "XFixesGetCursorImage")
    else { return nil }
    typealias QueryVersion =
        @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?)
        -> Int32
    typealias GetCursorImage = @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
    var major: Int32 = 6
    var minor: Int32 = 0
    guard unsafeBitCast(query, to: QueryVersion.self)(connection.display, &major, &minor) != 0,
        let raw = unsafeBitCast(get, to: GetCursorImage.self)(connection.display)
    else { return nil }
    defer { XFree(raw) }
    let image = raw.load(as: XFixesCursorImageLayout.self)
    let count = Int(image.width) * Int(image.height)
    var opaque = 0
    if let pixels = image.pixels {
        for i in 0..<count where (pixels[i] >> 24) & 0xff != 0 { opaque += 1 }
    }
    return CursorImage(width: Int(image.width), height: Int(image.height), opaque: opaque)
}
