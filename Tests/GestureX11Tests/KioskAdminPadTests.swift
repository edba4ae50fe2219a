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

        @Test(
            "A wrong PIN clicked on the pad: refused and logged; the pad stays up, cleared, saying Wrong PIN in red; the right PIN then exits 0"
        )
        func wrongPIN() throws {
            let (session, directory) = try session(pin: "2468")
            defer { session.close() }
            let app = session.app
            clickCorners(app)
            _ = try app.log.waitFor("adminPin line") { $0.string("event") == "adminPin" }
            try clickPad(app, [.digit(1), .digit(3), .digit(5), .digit(7), .ok])
            let refused = try app.log.waitFor("adminRefused") { $0.string("event") == "adminRefused" }
            #expect(refused.line.string("reason") == "wrongPin", "\(refused.line)")
            // Still up: the OK key green, and the field's message in the touch red.
            let pad = PinPad.layout(in: Size(width: app.layout.width, height: app.layout.height))
            let ok = try #require(pad.center(of: .ok))
            let field = pad.field
            let look = poll(timeout: 3, interval: 0.05) { () -> (okGreen: Bool, red: Int)? in
                guard let shot = try? session.connection.screenshot(app.window) else { return nil }
                let side = pad.keys[0].rect.height
                let p = shot.pixel(Int(ok.x * app.scale), Int((ok.y + 0.38 * side) * app.scale))
                var red = 0
                for y in stride(from: field.minY, to: field.maxY, by: 1) {
                    for x in stride(from: field.minX, to: field.maxX, by: 1) {
                        let q = shot.pixel(Int(x * app.scale), Int(y * app.scale))
                        if colorDistance(q, 0xE6293A) < 60 { red += 1 }
                    }
                }
                return colorDistance(p, 0x4DB061) < 60 && red > 50 ? (true, red) : nil
            }
            #expect(look != nil, "the pad is not up with its message after the miss")
            // For a look at it: the window as the visitor sees it (kept in $GESTURES_SHOT_DIR when set).
            if let convert = findProgram("import") {
                let folder = ProcessInfo.processInfo.environment["GESTURES_SHOT_DIR"] ?? directory.path
                let path = folder + "/wrong-pin.png"
                let p = try ChildProcess(
                    convert, ["-window", String(app.window), path], environment: ["DISPLAY": session.display])
                _ = p.wait(timeout: 10)
                print("the pad after a wrong PIN: \(path)")
            }
            pause(0.3)
            #expect(app.process.isRunning, "a wrong PIN ended the kiosk")
            // The second try on the same pad, without the admin gesture again.
            try clickPad(app, [.digit(2), .digit(4), .digit(6), .digit(8), .ok])
            #expect(app.waitForExit(timeout: 5) == 0, "stderr: \(app.stderr)")
            // Clicks on the pad's keys reached the pad, not the scene: no tap gesture was logged.
            #expect(!app.log.lines(from: 0).contains { $0.isGesture("tap", "ended") })
        }
    }
}

/// The PIN pad after misses, on a virtual clock: it stays up, cleared, with a message; during a
/// lockout it counts down, takes no digits and refuses OK (logged); its timeout still closes it.
@Suite("Kiosk PIN pad after a wrong PIN (virtual clock)")
struct KioskAdminPadAfterMiss {
    @Test("Wrong PIN: the pad stays, cleared, \"Wrong PIN\" until a digit; closed by its timeout 30 s after the miss")
    func staysAfterMiss() throws {
        var a = try AdminExit(hold: 0, pin: "2468")
        #expect(a.gestureCompleted(at: 0) == .pinRequested)
        for d in [1, 1, 1, 1] { #expect(a.padPressed(.digit(d), at: 1) == nil) }
        #expect(a.padPressed(.ok, at: 1) == .pinRejected(misses: 1, lockedFor: 0))
        #expect(a.asksForPIN)
        #expect(a.pad(at: 1) == PinPad(entered: 0, message: "Wrong PIN", enabled: true))
        #expect(a.padPressed(.digit(2), at: 2) == nil)
        #expect(a.pad(at: 2) == PinPad(entered: 1))
        #expect(a.deadline == 31)
        #expect(a.advance(to: 30.9) == nil && a.asksForPIN)
        #expect(a.advance(to: 31) == .pinCancelled)
        #expect(a.pad(at: 31) == nil)
    }

    @Test(
        "The third miss: \"Try again in N s\" counting down each second, digits ignored, OK refused as locked; entry back after 30 s"
    )
    func lockoutOnThePad() throws {
        var a = try AdminExit(hold: 0, pin: "2468")
        a.pinTimeout = 60
        #expect(a.gestureCompleted(at: 0) == .pinRequested)
        for t in [1.0, 2, 3] {
            for d in [0, 0, 0, 0] { _ = a.padPressed(.digit(d), at: t) }
            _ = a.padPressed(.ok, at: t)
        }
        #expect(a.misses == 3 && a.lockedUntil == 33)
        #expect(a.pad(at: 3) == PinPad(entered: 0, message: "Try again in 30 s", enabled: false))
        // The countdown wakes the shell each second.
        #expect(a.deadline == 4)
        #expect(a.advance(to: 4) == nil)
        #expect(a.deadline == 5)
        #expect(a.pad(at: 4.5) == PinPad(entered: 0, message: "Try again in 29 s", enabled: false))
        #expect(a.padPressed(.digit(2), at: 10) == nil)
        #expect(a.pad(at: 10)?.entered == 0)
        #expect(a.padPressed(.ok, at: 10) == .lockedOut(remaining: 23))
        #expect(a.misses == 3, "OK during the lockout is no guess")
        #expect(a.pad(at: 32.5)?.message == "Try again in 1 s")
        #expect(a.pad(at: 33) == PinPad(entered: 0, message: "Wrong PIN", enabled: true))
        for d in [2, 4, 6, 8] { _ = a.padPressed(.digit(d), at: 34) }
        #expect(a.padPressed(.ok, at: 34) == .exit)
        #expect(!a.asksForPIN)
    }

    @Test("Cancel works during the lockout; the pad's timeout closes it mid-countdown")
    func cancelAndTimeout() throws {
        var a = try AdminExit(hold: 0, pin: "2468")
        a.pinTimeout = 10
        _ = a.gestureCompleted(at: 0)
        for t in [1.0, 2, 3] {
            for d in [0, 0, 0, 0] { _ = a.padPressed(.digit(d), at: t) }
            _ = a.padPressed(.ok, at: t)
        }
        var t = 3.0
        var outcome: AdminExit.Outcome?
        while outcome == nil, let d = a.deadline, d < 100 {
            t = d
            outcome = a.advance(to: t)
        }
        #expect(outcome == .pinCancelled && t == 13, "closed at \(t)")
        #expect(a.gestureCompleted(at: 14) == .lockedOut(remaining: 19))
        var b = try AdminExit(hold: 0, pin: "2468")
        _ = b.gestureCompleted(at: 0)
        for t in [1.0, 2, 3] {
            for d in [0, 0, 0, 0] { _ = b.padPressed(.digit(d), at: t) }
            _ = b.padPressed(.ok, at: t)
        }
        #expect(b.padPressed(.cancel, at: 4) == .pinCancelled)
        #expect(!b.asksForPIN)
    }
}
