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
    /// The admin exit by one pointer (a touchscreen that reaches X as one pointer, or a mouse):
    /// the four corners clicked in order bring up the on-screen PIN pad, which the PIN is
    /// clicked on (XTest).
    @Suite("gestures run --kiosk: the on-screen PIN pad, by one pointer")
    struct KioskAdminPad {
        private func session(pin: String) throws -> (AppSession, TemporaryDirectory) {
            let directory = try TemporaryDirectory()
            let pinFile = directory.file("pin")
            try "\(pin)\n".write(toFile: pinFile, atomically: true, encoding: .utf8)
            chmod(pinFile, 0o600)
            let session = try AppSession(
                arguments: ["--kiosk", "--admin-corners", "0", "--admin-pin-file", pinFile], size: "800x600")
            return (session, directory)
        }

        private func clickCorners(_ app: GesturesApp) {
            let (w, h) = (app.layout.width, app.layout.height)
            for (x, y) in [(8.0, 8.0), (w - 8, 8.0), (w - 8, h - 8), (8.0, h - 8)] {
                app.click(at: LayoutPoint(x: x, y: y))
                pause(0.1)
            }
        }

        private func clickPad(_ app: GesturesApp, _ keys: [PinPadKey]) throws {
            let pad = PinPad.layout(in: Size(width: app.layout.width, height: app.layout.height))
            for key in keys {
                let c = try #require(pad.center(of: key))
                app.click(at: LayoutPoint(x: c.x, y: c.y))
                pause(0.08)
            }
        }

        @Test(
            "Four corners clicked in order: the pad is drawn (OK key green where the layout puts it); the PIN clicked on it exits 0"
        )
        func rightPIN() throws {
            let (session, _) = try session(pin: "2468")
            defer { session.close() }
            let app = session.app
            clickCorners(app)
            _ = try app.log.waitFor("adminPin line") { $0.string("event") == "adminPin" }
            // The pad is on screen: the OK key's centre is the swipe green, the Cancel key's red.
            let pad = PinPad.layout(in: Size(width: app.layout.width, height: app.layout.height))
            let ok = try #require(pad.center(of: .ok))
            let shown = poll(timeout: 3, interval: 0.05) { () -> Bool? in
                guard let shot = try? session.connection.screenshot(app.window) else { return nil }
                // Below the label, inside the round key.
                let side = pad.keys[0].rect.height
                let p = shot.pixel(Int(ok.x * app.scale), Int((ok.y + 0.38 * side) * app.scale))
                return colorDistance(p, 0x4DB061) < 60 ? true : nil
            }
            #expect(shown == true, "the OK key is not drawn at \(ok)")
            try clickPad(app, [.digit(2), .digit(4), .digit(6), .digit(8), .ok])
            #expect(app.waitForExit(timeout: 5) == 0, "stderr: \(app.stderr)")
            _ = try app.log.waitFor("adminExit") { $0.string("event") == "adminExit" }
        }

        @Test("A wrong PIN clicked on the pad: refused and logged, the kiosk runs on; the pad went away")
        func wrongPIN() throws {
            let (session, _) = try session(pin: "2468")
            defer { session.close() }
            let app = session.app
            clickCorners(app)
            _ = try app.log.waitFor("adminPin line") { $0.string("event") == "adminPin" }
            try clickPad(app, [.digit(1), .digit(3), .digit(5), .digit(7), .ok])
            let refused = try app.log.waitFor("adminRefused") { $0.string("event") == "adminRefused" }
            #expect(refused.line.string("reason") == "wrongPin", "\(refused.line)")
            pause(0.5)
            #expect(app.process.isRunning, "a wrong PIN ended the kiosk")
            // Clicks on the pad's keys reached the pad, not the scene: no tap gesture was logged.
            #expect(!app.log.lines(from: 0).contains { $0.isGesture("tap", "ended") })
        }
    }
}
