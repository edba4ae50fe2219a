import GestureKit
import Testing

@testable import GestureX11

/// The kiosk's server-free parts: choosing a monitor, the admin chord and PIN.
@Suite("Kiosk logic (no server): monitors, admin exit")
struct KioskUnitTests {
    static let monitors = [
        Monitor(name: "B", x: 1280, y: 0, width: 1920, height: 1080, primary: true),
        Monitor(name: "A", x: 0, y: 0, width: 1280, height: 800, primary: false),
    ]

    @Test(
        "--monitor: a name, an index, primary; none found is nil",
        arguments: [("A", 1), ("B", 0), ("0", 0), ("1", 1), ("primary", 0), ("2", nil), ("C", nil), ("-1", nil)])
    func pick(text: String, expected: Int?) {
        #expect(MonitorChoice(text).pick(from: Self.monitors)?.index == expected)
    }

    @Test("primary without a primary monitor is the first; a monitor off the screen is clipped or gone")
    func primaryAndClipping() {
        let plain = Self.monitors.map { m in
            var m = m
            m.primary = false
            return m
        }
        #expect(MonitorChoice.primary.pick(from: plain)?.index == 0)
        let a = Self.monitors[1]
        #expect(
            a.clipped(toWidth: 800, height: 1280)
                == Monitor(name: "A", x: 0, y: 0, width: 800, height: 800, primary: false))
        #expect(Self.monitors[0].clipped(toWidth: 800, height: 1280) == nil)
        #expect(
            MonitorChoice.name("C").notFound(in: Self.monitors)
                == "--monitor: there is no monitor named \"C\" (monitors: 0 B, 1 A; see gestures monitors)")
    }

    @Test("Key chords parse; bad ones are one line", arguments: ["ctrl+alt+shift+q", "Super+F12", "f1"])
    func chordParses(text: String) throws {
        _ = try KeyChord(parsing: text)
    }

    @Test("Bad chords and PINs are refused", arguments: ["q", "ctrl+meta+q", "ctrl+alt+", "ctrl+qq"])
    func badChord(text: String) {
        #expect(throws: KioskConfigError.self) { try KeyChord(parsing: text) }
    }

    @Test("PINs: 4-12 digits", arguments: [("1234", true), ("123", false), ("12a4", false), ("1234567890123", false)])
    func pins(pin: String, ok: Bool) {
        #expect(((try? AdminExit(pin: pin)) != nil) == ok)
    }

    @Test("The chord held 2 s exits; released early, or another key, it does not; auto-repeat keeps it")
    func hold() throws {
        var a = try AdminExit()
        let mods: UInt32 = 1 | 4 | 8
        #expect(a.keyPressed(keysym: 0x51, modifiers: mods, repeated: false, at: 10).taken)
        #expect(a.deadline == 12)
        #expect(a.keyPressed(keysym: 0x51, modifiers: mods, repeated: true, at: 11).taken)
        #expect(a.advance(to: 11.9) == nil)
        #expect(a.advance(to: 12) == .exit)
        // Released at 11: nothing at 12.
        #expect(a.keyPressed(keysym: 0x71, modifiers: mods | 2, repeated: false, at: 20).taken)
        a.keyReleased(keysym: 0x71)
        #expect(a.deadline == nil && a.advance(to: 30) == nil)
        // Without all the modifiers it is no chord (and the key is not taken).
        #expect(!a.keyPressed(keysym: 0x71, modifiers: 4 | 8, repeated: false, at: 40).taken)
        // Another key cancels the hold.
        _ = a.keyPressed(keysym: 0x71, modifiers: mods, repeated: false, at: 50)
        #expect(!a.keyPressed(keysym: 0x61, modifiers: mods, repeated: false, at: 50.5).taken)
        #expect(a.deadline == nil)
    }

    @Test("With a PIN: asked after the hold; wrong, Escape or 15 s refuse; the right one and Enter exit")
    func pin() throws {
        var a = try AdminExit(hold: 1, pin: "2468")
        func chord(at t: Double) -> AdminExit.Outcome? {
            _ = a.keyPressed(keysym: 0x71, modifiers: 13, repeated: false, at: t)
            return a.advance(to: t + 1)
        }
        func type(_ keys: [UInt], at t: Double) -> AdminExit.Outcome? {
            var last: AdminExit.Outcome?
            for k in keys { last = a.keyPressed(keysym: k, modifiers: 0, repeated: false, at: t).outcome }
            return last
        }
        #expect(chord(at: 0) == .pinRequested)
        #expect(a.asksForPIN)
        #expect(type([0x31, 0x31, 0x31, 0x31, 0xFF0D], at: 2) == .pinRejected)
        #expect(chord(at: 3) == .pinRequested)
        #expect(a.advance(to: 18.9) == nil)
        #expect(a.advance(to: 19) == .pinRejected)
        #expect(chord(at: 20) == .pinRequested)
        #expect(type([0xFF1B], at: 21) == .pinRejected)
        #expect(chord(at: 22) == .pinRequested)
        #expect(type([0x32, 0xFFB4, 0x36, 0x38, 0xFF8D], at: 23) == .exit)
    }

    @Test("Corner press: opposite corners held for the hold fire once; a finger leaving its corner or lifting does not")
    func cornerPress() {
        var c = CornerPress(hold: 5)
        let size = Size(width: 1000, height: 600)  // corners: 60 pt squares
        func frame(_ t: Double, _ changes: [(Int, TouchPhase, Double, Double)]) {
            c.handle(
                TouchFrame(
                    timestamp: t,
                    changes: changes.map { TouchChange(id: $0.0, phase: $0.1, location: Point(x: $0.2, y: $0.3)) }),
                size: size)
        }
        frame(1, [(1, .began, 10, 10)])
        #expect(c.deadline == nil)
        frame(2, [(2, .began, 990, 590)])
        #expect(c.deadline == 7)
        let early = c.advance(to: 6.9)
        let due = c.advance(to: 7)
        let again = c.advance(to: 8)
        #expect(!early && due && !again, "fired at 6.9: \(early), at 7: \(due), again at 8: \(again)")
        frame(9, [(1, .ended, 10, 10), (2, .ended, 990, 590)])
        // Top-right and bottom-left; the first leaves its corner, comes back later.
        frame(10, [(3, .began, 950, 30), (4, .began, 30, 570)])
        #expect(c.deadline == 15)
        frame(11, [(3, .moved, 900, 30)])
        #expect(c.deadline == nil)
        // Same-side corners are no admin gesture.
        frame(12, [(3, .ended, 900, 30), (5, .began, 30, 30)])
        #expect(c.deadline == nil)
        #expect(CornerPress.cornerSide(for: Size(width: 300, height: 200)) == 48)
    }
}
