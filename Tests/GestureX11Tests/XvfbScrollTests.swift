import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The wheel (XTest buttons 4–7) on `gestures run` under Xvfb pans the
    /// flower under the pointer, Shift+wheel pans it sideways, Ctrl+wheel zooms it about the
    /// pointer. 40 pt a click; a sequence ends 0.15 s after its last click.
    @Suite("gestures run on Xvfb: the wheel")
    struct XvfbScroll {
        struct Case: Sendable, CustomStringConvertible {
            var name: String
            var buttons: [UInt32]
            var shift: Bool
            var translation: [Double]
            var description: String { name }
        }

        nonisolated static let cases = [
            Case(name: "wheel down twice (button 5)", buttons: [5, 5], shift: false, translation: [0, -80]),
            Case(name: "wheel up (button 4)", buttons: [4], shift: false, translation: [0, 40]),
            Case(name: "Shift+wheel down scrolls right", buttons: [5], shift: true, translation: [-40, 0]),
            Case(
                name: "tilt left, right, right (buttons 6, 7, 7)", buttons: [6, 7, 7], shift: false,
                translation: [-40, 0]),
        ]

        @Test("The wheel over the flower pans it: one pan sequence, 40 pt a click", arguments: cases)
        func wheelPans(c: Case) throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let image = try app.region("image")
            app.move(to: image.center)
            if c.shift { app.connection.key(Keysym.shiftL, pressed: true) }
            for b in c.buttons {
                app.connection.button(b, pressed: true)
                app.connection.button(b, pressed: false)
                app.connection.sync()
                pause(0.02)
            }
            if c.shift { app.connection.key(Keysym.shiftL, pressed: false) }
            app.connection.sync()
            let ended = try app.waitFor("imagePan", "ended")
            let lines = app.lines(of: "imagePan")
            #expect(
                lines.map { $0.state ?? "" } == ["began"] + Array(repeating: "changed", count: c.buttons.count - 1) + [
                    "ended"
                ], "\(summary(lines))")
            #expect((ended.object["translation"] as? [NSNumber])?.map(\.doubleValue) == c.translation, "\(ended)")
            #expect(
                ended.touches == 0
                    && ended.label == "Panned, X: \(fixed(c.translation[0], 2)), Y: \(fixed(c.translation[1], 2))")
            // No finger, no tap: nothing else saw the clicks.
            #expect(
                app.log.lines(from: 0).filter(\.isGesture).allSatisfy { $0.recognizer == "imagePan" },
                "\(summary(Array(app.log.lines(from: 0))))")
        }

        @Test("Ctrl+wheel up twice over the flower zooms ×1.21 about the pointer")
        func ctrlWheelZooms() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let image = try app.region("image")
            let p = image.center + (image.width * 0.2, image.height * 0.1)
            app.move(to: p)
            app.connection.key(Keysym.controlL, pressed: true)
            for _ in 0..<2 {
                app.connection.button(4, pressed: true)
                app.connection.button(4, pressed: false)
                app.connection.sync()
                pause(0.02)
            }
            app.connection.key(Keysym.controlL, pressed: false)
            app.connection.sync()
            let ended = try app.waitFor("imagePinch", "ended")
            #expect(abs((ended.scale ?? 0) - 1.21) < 1e-9, "\(ended)")
            let at = try #require(ended.location)
            let snapped = app.point(screenX: app.screen(p).0.rounded(), screenY: app.screen(p).1.rounded())
            #expect(abs(at.x - snapped.x) < 1 && abs(at.y - snapped.y) < 1, "\(ended) vs \(p)")
            #expect(app.lines(of: "imagePan").isEmpty)
        }
    }
}
