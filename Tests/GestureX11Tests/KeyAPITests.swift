import CX11
import Foundation
import GestureKit
import GestureTestSupport
import GestureX11
import Testing

extension XServerTests {
    /// Keys reach a library app through `GestureWindow.onKey`; `q` and Escape quit only when the
    /// app says so (`quitsOnKeys`).
    @Suite("GestureWindow keys: onKey, quitsOnKeys (Xvfb)")
    @MainActor
    struct KeyAPI {
        /// Runs a window that gets `q`, Shift+A and Escape at 0.2 s; returns the keys it heard
        /// and whether it still ran at 0.8 s (the replay then ends it).
        func run(quitsOnKeys: Bool?) throws -> (keys: [KeyPress], ranOn: Bool) {
            let server = try TestXServer(width: 640, height: 480)
            var options = ShellOptions()
            options.display = server.display
            let window = try GestureWindow(title: "keys", size: Size(width: 200, height: 150), options: options)
            if let quitsOnKeys { window.quitsOnKeys = quitsOnKeys }
            let client = try XConnection(server.display)
            defer { client.close() }
            var keys: [KeyPress] = []
            var ranOn = false
            window.onKey = { keys.append($0) }
            // Unowned: the shell holds this closure, and a strong window would never be freed.
            window.shell.onReplayAction = { [unowned window] i in
                if i == 0 {
                    client.focus(Window(window.shell.window))
                    client.chord([], 0x71)  // q
                    client.chord([Keysym.shiftL], 0x61)  // Shift+a
                    client.chord([], 0xFF1B)  // Escape
                } else {
                    ranOn = true
                }
            }
            window.shell.play([], actions: [(0, 0.2), (0, 0.8)], exitWhenDone: true)
            #expect(window.run() == 0)
            return (keys, ranOn)
        }

        @Test("A library window hears q, Shift+A and Escape and does not quit on them")
        func libraryKeys() throws {
            let (keys, ranOn) = try run(quitsOnKeys: nil)
            let pressed = keys.filter { $0.isDown && $0.keysym != UInt32(Keysym.shiftL) }
            #expect(pressed.map(\.characters) == ["q", "A", ""])
            #expect(pressed.map(\.keysym) == [0x71, 0x41, KeyPress.escape])
            #expect(pressed[1].modifiers == .shift)
            #expect(keys.contains { !$0.isDown && $0.keysym == 0x71 }, "no release of q")
            #expect(ranOn, "the window quit on a key although quitsOnKeys is false")
        }

        @Test("With quitsOnKeys the first q ends the run")
        func quitKeys() throws {
            let (keys, ranOn) = try run(quitsOnKeys: true)
            #expect(keys.first?.characters == "q")
            #expect(!ranOn, "the window ran on after q")
        }
    }
}

extension XServerTests {
    /// The mouse's mirrored second finger (Ctrl held at the press) goes through the centre of
    /// the visible part of the view, not the view's own centre when that is off-screen.
    @Suite("GestureWindow: Ctrl-drag mirrors about the visible part of a zoomed view (Xvfb)")
    @MainActor
    struct MirrorVisible {
        @Test("A view larger than the window: the pinch's centroid is the window's centre")
        func visibleCentre() throws {
            let server = try TestXServer(width: 640, height: 480)
            var options = ShellOptions()
            options.display = server.display
            options.scale = 1
            let window = try GestureWindow(title: "mirror", size: Size(width: 400, height: 300), options: options)
            // 2000×2000 pt from (-500, -500): its centre (500, 500) is off the 400×300 window.
            let big = View(frame: Rect(x: -500, y: -500, width: 2000, height: 2000))
            window.root.addSubview(big)
            let pinch = PinchGestureRecognizer()
            big.addGestureRecognizer(pinch)
            var centroids: [Point] = []
            pinch.addAction { r in centroids.append(r.location(in: nil)) }
            let client = try XConnection(server.display)
            defer { client.close() }
            client.playCtrlDrag(in: window, from: Point(x: 100, y: 80), by: Vector(dx: -8, dy: -6))
            #expect(window.run() == 0)
            try #require(!centroids.isEmpty, "no pinch from the Ctrl-drag")
            for c in centroids {
                #expect(abs(c.x - 200) < 1 && abs(c.y - 150) < 1, "centroid \(c), not the visible centre (200, 150)")
            }
        }
    }
}
