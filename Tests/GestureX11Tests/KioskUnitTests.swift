import GestureKit
import GestureTestSupport
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

    @Test(
        "The chord held 2 s opens the PIN pad — without a PIN it is only refused (noPIN); released early, or another key, nothing; auto-repeat keeps it"
    )
    func hold() throws {
        var none = try AdminExit()
        _ = none.keyPressed(keysym: 0x51, modifiers: 13, repeated: false, at: 0)
        #expect(none.advance(to: 2) == .noPIN)
        #expect(!none.asksForPIN)
        var a = try AdminExit(pin: "2468")
        let mods: UInt32 = 1 | 4 | 8
        #expect(a.keyPressed(keysym: 0x51, modifiers: mods, repeated: false, at: 10).taken)
        #expect(a.deadline == 12)
        #expect(a.keyPressed(keysym: 0x51, modifiers: mods, repeated: true, at: 11).taken)
        #expect(a.advance(to: 11.9) == nil)
        #expect(a.advance(to: 12) == .pinRequested)
        #expect(a.keyPressed(keysym: 0xFF1B, modifiers: 0, repeated: false, at: 12.5).outcome == .pinCancelled)
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

    @Test("With a PIN: asked after the hold; wrong, Escape or 30 s refuse; the right one and Enter exit")
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
        #expect(type([0x31, 0x31, 0x31, 0x31, 0xFF0D], at: 2) == .pinRejected(misses: 1, lockedFor: 0))
        // The pad stays up for another try, its timeout started again at the miss.
        #expect(a.asksForPIN && a.deadline == 32)
        #expect(a.advance(to: 31.9) == nil)
        #expect(a.advance(to: 32) == .pinCancelled)
        #expect(chord(at: 40) == .pinRequested)
        #expect(type([0xFF1B], at: 41) == .pinCancelled)
        #expect(chord(at: 42) == .pinRequested)
        // Backspace erases.
        #expect(type([0x32, 0x39, 0xFF08, 0xFFB4, 0x36, 0x38, 0xFF8D], at: 43) == .exit)
    }

    @Test(
        "Backoff on a virtual clock: misses 1-2 free, the 3rd locks 30 s, then doubling to 1 h; the gesture is refused meanwhile; the right PIN resets it"
    )
    func backoff() throws {
        var a = try AdminExit(hold: 0, pin: "2468")
        var t = 0.0
        func guess(_ pin: String) -> AdminExit.Outcome? {
            if !a.asksForPIN, let refused = a.gestureCompleted(at: t), refused != .pinRequested { return refused }
            for c in pin { _ = a.padPressed(.digit(Int(String(c))!), at: t) }
            return a.padPressed(.ok, at: t)
        }
        #expect(guess("0000") == .pinRejected(misses: 1, lockedFor: 0))
        #expect(guess("0001") == .pinRejected(misses: 2, lockedFor: 0))
        #expect(guess("0002") == .pinRejected(misses: 3, lockedFor: 30))
        t = 29
        // The pad is still up: OK is refused during the lockout.
        #expect(a.padPressed(.ok, at: t) == .lockedOut(remaining: 1))
        t = 30
        #expect(guess("0003") == .pinRejected(misses: 4, lockedFor: 60))
        #expect(
            (3...12).map { AdminExit.lockout(afterMisses: $0) } == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600])
        // 10 000 guesses, each made the moment the lockout ends: about 416 days.
        let total = (1...10_000).reduce(0.0) { $0 + AdminExit.lockout(afterMisses: $1) }
        #expect(abs(total / 86_400 - 416.3) < 0.1, "\(total / 86_400) days")
        t = 90
        #expect(guess("2468") == .exit)
        #expect(a.misses == 0)
        #expect(guess("0000") == .pinRejected(misses: 1, lockedFor: 0))
    }

    @Test("The PIN pad: keys where they are drawn, pressed by touch begin; within the window at 320x240 and 3840x2160")
    func pad() throws {
        for size in [Size(width: 320, height: 240), Size(width: 1024, height: 768), Size(width: 3840, height: 2160)] {
            let layout = PinPad.layout(in: size)
            #expect(layout.panel.minX >= 0 && layout.panel.minY >= 0, "\(size): \(layout.panel)")
            #expect(layout.panel.maxX <= size.width && layout.panel.maxY <= size.height, "\(size): \(layout.panel)")
            #expect(layout.keys.count == 13)
            for (key, rect) in layout.keys {
                #expect(layout.key(at: rect.center) == key)
                #expect(rect.width >= 44 || size.height < 300)
            }
            #expect(layout.key(at: Point(x: 1, y: 1)) == nil)
        }
        var a = try AdminExit(hold: 0, pin: "1234")
        #expect(a.gestureCompleted(at: 0) == .pinRequested)
        for d in [1, 2, 3, 4] { #expect(a.padPressed(.digit(d), at: 1) == nil) }
        #expect(a.enteredCount == 4)
        #expect(a.padPressed(.cancel, at: 2) == .pinCancelled)
        #expect(a.enteredCount == nil)
        #expect(a.gestureCompleted(at: 3) == .pinRequested)
        #expect(a.advance(to: 32.9) == nil)
        #expect(a.advance(to: 33) == .pinCancelled, "the pad times out after 30 s")
    }

    @Test(
        "Corner taps (one pointer): top-left, top-right, bottom-right, bottom-left within 3 s each; out of order or slow, nothing"
    )
    func cornerTaps() {
        var c = CornerTaps()
        let size = Size(width: 1000, height: 600)
        let corners = [(10.0, 10.0), (990.0, 10.0), (990.0, 590.0), (10.0, 590.0)]
        var id = 0
        func tap(_ p: (Double, Double), at t: Double) -> Bool {
            id += 1
            let loc = Point(x: p.0, y: p.1)
            let down = c.handle(
                TouchFrame(timestamp: t, changes: [TouchChange(id: id, phase: .began, location: loc)]), size: size)
            _ = c.handle(
                TouchFrame(timestamp: t + 0.1, changes: [TouchChange(id: id, phase: .ended, location: loc)]), size: size
            )
            return down
        }
        #expect(corners.enumerated().map { tap($1, at: Double($0)) } == [false, false, false, true])
        // Out of order.
        #expect([0, 2, 1, 3].map { tap(corners[$0], at: 10 + Double($0)) } == [false, false, false, false])
        // Too slow between the 2nd and 3rd.
        #expect(tap(corners[0], at: 20) == false && tap(corners[1], at: 21) == false)
        #expect(tap(corners[2], at: 24.5) == false && tap(corners[3], at: 25) == false)
        // A press in the middle starts it over.
        #expect(tap(corners[0], at: 30) == false && tap((500, 300), at: 30.5) == false)
        #expect(
            tap(corners[1], at: 31) == false && tap(corners[2], at: 31.5) == false && tap(corners[3], at: 32) == false)
        // Again, in order.
        #expect(corners.enumerated().map { tap($1, at: 40 + Double($0)) } == [false, false, false, true])
    }

    @Test(
        "Auto-repeat: flagged, a press of a key already down, or a core release-press pair at one time; not a new press"
    )
    func keyRepeats() {
        var f = KeyRepeatFilter()
        func r(_ code: UInt8, _ pressed: Bool, _ time: UInt32, _ flagged: Bool = false) -> Bool {
            f.isRepeat(keycode: code, pressed: pressed, time: time, flagged: flagged)
        }
        let seen = [
            r(38, true, 100), r(38, true, 130), r(38, true, 160, true), r(38, false, 190), r(38, true, 190),
            r(38, false, 220), r(38, true, 400), r(39, true, 401),
        ]
        // First press; down again without a release; flagged; release; the core release-press
        // pair at one time; release; pressed again later (a visitor); another key.
        #expect(seen == [false, true, true, false, true, false, false, false])
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
