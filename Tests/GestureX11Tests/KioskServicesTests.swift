import GestureKit
import GestureTestSupport
import Testing

@testable import GestureX11

/// The kiosk's services alone (`KioskServices`, no X server): which touches and keys the admin
/// exit and its PIN pad take, when the admin gestures complete, and how the screen is kept on.
@Suite("Kiosk services (no server): PIN pad touches, admin gestures, screen saver")
@MainActor
struct KioskServicesTests {
    static let size = Size(width: 1000, height: 600)
    /// Corner squares are 60 pt (10 % of 600): these points are well inside them.
    static let topLeft = Point(x: 10, y: 10)
    static let topRight = Point(x: 990, y: 10)
    static let bottomRight = Point(x: 990, y: 590)
    static let bottomLeft = Point(x: 10, y: 590)
    /// The chord's modifiers: Shift 1 | Control 4 | Mod1 8.
    static let chordModifiers: UInt32 = 13

    static func services(pin: String?, cornerHold: Double = 1, kiosk: Bool = true) throws -> KioskServices {
        var options = ShellOptions()
        options.kiosk = kiosk
        options.adminCornerHold = cornerHold
        options.adminExit = try AdminExit(hold: 0.5, pin: pin)
        return KioskServices(options: options, watchdog: nil)
    }

    static func touches(_ t: Double, _ changes: TouchChange...) -> TouchFrame {
        TouchFrame(timestamp: t, changes: changes)
    }

    static func down(_ id: Int, _ p: Point) -> TouchChange { Finger.down(id, p.x, p.y) }
    static func up(_ id: Int, _ p: Point) -> TouchChange { Finger.up(id, p.x, p.y) }

    /// The four corners tapped in order from `t`, a tap a second (ids `firstID`…): the actions
    /// of the last press, and for each tap whether its press and release reached the scene whole.
    static func tapCorners(
        _ k: inout KioskServices, from t: Double, firstID: Int
    ) -> (last: [KioskServices.AdminAction], toScene: [Bool]) {
        var last: [KioskServices.AdminAction] = []
        var toScene: [Bool] = []
        for (i, p) in [topLeft, topRight, bottomRight, bottomLeft].enumerated() {
            let time = t + Double(i)
            let press = touches(time, down(firstID + i, p))
            let (scene, actions) = k.routeTouches(press, in: size)
            let release = touches(time + 0.1, up(firstID + i, p))
            let releaseScene = k.routeTouches(release, in: size).scene
            toScene.append(scene == press && releaseScene == release)
            last = actions
        }
        return (last, toScene)
    }

    @Test("While the PIN pad is up, touches that begin on it press its keys and never reach the scene; others pass")
    func padTouchesStayOffTheScene() throws {
        var k = try Self.services(pin: "2468")
        // A finger the scene already has, down before the pad came up.
        let held = Self.touches(0, Self.down(50, Point(x: 500, y: 300)))
        #expect(k.routeTouches(held, in: Self.size).scene == held)
        let (opened, taps) = Self.tapCorners(&k, from: 1, firstID: 1)
        #expect(taps == [true, true, true, false], "the taps are the scene's until the last brings up the pad")
        #expect(opened == [.outcome(.pinRequested), .showPad], "the last tap is the pad's first touch")
        #expect(k.admin?.asksForPIN == true)

        let layout = PinPad.layout(in: Self.size)
        func key(_ digit: Int) -> Point { layout.center(of: .digit(digit))! }
        // A pad key pressed while the held finger moves: only the move reaches the scene.
        let mixed = Self.touches(6, Self.down(10, key(2)), Finger.move(50, 510, 300))
        let (scene, actions) = k.routeTouches(mixed, in: Self.size)
        #expect(scene == Self.touches(6, Finger.move(50, 510, 300)))
        #expect(actions == [.showPad], "a digit shows the pad again")
        #expect(k.admin?.enteredCount == 1)
        // The pad's finger moves and lifts: none of it reaches the scene, even off the pad.
        #expect(k.routeTouches(Self.touches(6.1, Finger.move(10, 900, 500)), in: Self.size).scene == nil)
        #expect(k.routeTouches(Self.touches(6.2, Finger.up(10, 900, 500)), in: Self.size).scene == nil)
        #expect(k.padTouches.isEmpty, "a lifted pad finger is forgotten")
        // A touch that begins off the keys is still the pad's while it is up.
        let off = Self.touches(7, Self.down(11, Point(x: 5, y: 300)))
        #expect(k.routeTouches(off, in: Self.size).scene == nil)
        #expect(k.routeTouches(Self.touches(7.1, Finger.cancel(11)), in: Self.size).scene == nil)

        for (i, d) in [4, 6, 8].enumerated() {
            let t = 8 + Double(i)
            #expect(k.routeTouches(Self.touches(t, Self.down(20 + i, key(d))), in: Self.size).scene == nil)
            #expect(k.routeTouches(Self.touches(t + 0.1, Self.up(20 + i, key(d))), in: Self.size).scene == nil)
        }
        let ok = layout.center(of: .ok)!
        let last = k.routeTouches(Self.touches(12, Self.down(30, ok)), in: Self.size).actions
        #expect(last == [.outcome(.exit)], "the PIN touched on the pad is the exit")
        // The pad is gone: the OK finger is still the pad's to its end; new touches are the scene's.
        #expect(k.routeTouches(Self.touches(12.1, Self.up(30, ok)), in: Self.size).scene == nil)
        let after = Self.touches(13, Self.down(31, ok))
        #expect(k.routeTouches(after, in: Self.size).scene == after)
    }

    @Test("Two corners held reach the admin exit at the hold: the pad with a PIN, only a refusal without")
    func cornerHoldNeedsAPIN() throws {
        for pin in ["2468", nil] {
            var k = try Self.services(pin: pin)
            let press = Self.touches(10, Self.down(1, Self.topLeft), Self.down(2, Self.bottomRight))
            #expect(k.routeTouches(press, in: Self.size).scene == press, "the corner fingers are the scene's too")
            #expect(k.deadline == 11, "the loop wakes when the hold completes")
            #expect(k.advanceAdmin(to: 10.9).isEmpty)
            let fired = k.advanceAdmin(to: 11)
            #expect(fired == [.outcome(pin == nil ? .noPIN : .pinRequested)], "PIN \(pin ?? "none")")
            #expect(k.admin?.asksForPIN == (pin != nil))
            #expect(k.advanceAdmin(to: 20).isEmpty, "held on, it fires once")
            // Without a PIN the kiosk goes on: a new touch is the scene's.
            let next = Self.touches(21, Self.down(3, Point(x: 500, y: 300)))
            #expect((k.routeTouches(next, in: Self.size).scene == next) == (pin == nil))
        }
        // Same-side corners, or a hold cut short, are no admin gesture.
        var k = try Self.services(pin: "2468")
        _ = k.routeTouches(Self.touches(0, Self.down(1, Self.topLeft), Self.down(2, Self.topRight)), in: Self.size)
        #expect(k.deadline == nil && k.advanceAdmin(to: 5).isEmpty)
        _ = k.routeTouches(Self.touches(5, Self.down(3, Self.bottomRight)), in: Self.size)
        _ = k.routeTouches(Self.touches(5.5, Self.up(3, Self.bottomRight)), in: Self.size)
        #expect(k.advanceAdmin(to: 6).isEmpty && k.admin?.asksForPIN == false)
        // --admin-corners 0: no corner hold at all.
        var off = try Self.services(pin: "2468", cornerHold: 0)
        _ = off.routeTouches(Self.touches(0, Self.down(1, Self.topLeft), Self.down(2, Self.bottomRight)), in: Self.size)
        #expect(off.corners == nil && off.deadline == nil && off.advanceAdmin(to: 60).isEmpty)
    }

    @Test("Keys: the chord held opens the pad; while it is up every key is the pad's; Escape gives them back")
    func adminKeys() throws {
        var k = try Self.services(pin: "2468")
        let q: UInt = 0x71
        let (taken, actions) = k.adminKey(
            keysym: q, pressed: true, modifiers: Self.chordModifiers, repeated: false, at: 0)
        #expect(taken && actions.isEmpty)
        #expect(k.deadline == 0.5)
        #expect(k.advanceAdmin(to: 0.5) == [.outcome(.pinRequested)])
        // Any key now: taken, the pad shown again (digits typed on it).
        let letter = k.adminKey(keysym: 0x61, pressed: true, modifiers: 0, repeated: false, at: 1)
        #expect(letter.taken && letter.actions == [.showPad])
        let release = k.adminKey(keysym: 0x61, pressed: false, modifiers: 0, repeated: false, at: 1.1)
        #expect(release.taken && release.actions.isEmpty)
        let two = k.adminKey(keysym: 0x32, pressed: true, modifiers: 0, repeated: false, at: 2)
        #expect(two.taken && two.actions == [.showPad] && k.admin?.enteredCount == 1)
        let escape = k.adminKey(keysym: 0xFF1B, pressed: true, modifiers: 0, repeated: false, at: 3)
        #expect(escape.taken && escape.actions == [.outcome(.pinCancelled)])
        // The pad is gone: keys go on to the app.
        let after = k.adminKey(keysym: 0x61, pressed: true, modifiers: 0, repeated: false, at: 4)
        #expect(!after.taken && after.actions.isEmpty)
        // The pad's timeout is a cancel too, from the loop's timers.
        _ = k.adminKey(keysym: q, pressed: true, modifiers: Self.chordModifiers, repeated: false, at: 10)
        #expect(k.advanceAdmin(to: 10.5) == [.outcome(.pinRequested)])
        #expect(k.deadline == 40.5)
        #expect(k.advanceAdmin(to: 40.5) == [.outcome(.pinCancelled)])
        #expect(k.deadline == nil)
    }

    @Test("Not a kiosk: no admin exit; every touch reaches the scene, no key is taken, no timer")
    func notAKiosk() throws {
        var k = try Self.services(pin: "2468", kiosk: false)
        #expect(k.admin == nil && k.corners == nil && k.cornerTaps == nil)
        let (actions, toScene) = Self.tapCorners(&k, from: 0, firstID: 1)
        #expect(actions.isEmpty && toScene == [true, true, true, true])
        let press = Self.touches(5, Self.down(9, Self.topLeft), Self.down(10, Self.bottomRight))
        #expect(k.routeTouches(press, in: Self.size) == (press, []))
        let chord = k.adminKey(keysym: 0x71, pressed: true, modifiers: Self.chordModifiers, repeated: false, at: 6)
        #expect(!chord.taken && chord.actions.isEmpty)
        #expect(k.deadline == nil && k.advanceAdmin(to: 100).isEmpty)
        let released = k.releaseSaver()
        #expect(!k.saverSuspended && !released)
    }

    @Test("Screen saver: a Suspend is released once at exit; without it, resets every interval, one query at a time")
    func screenSaver() {
        var suspended = KioskServices(options: ShellOptions(), watchdog: nil)
        suspended.saverSuspendGranted()
        #expect(suspended.saverSuspended && suspended.deadline == nil && suspended.pendingSaverQuery == nil)
        let first = suspended.releaseSaver()
        let second = suspended.releaseSaver()
        #expect(first, "the Suspend is released at exit")
        #expect(!second && !suspended.saverSuspended, "and only once")

        var k = KioskServices(options: ShellOptions(), watchdog: nil)
        k.saverSuspendRefused(at: 10)
        #expect(!k.saverSuspended)
        #expect(k.saverResetDue(at: 10) && k.deadline == 10, "the first reset is at once")
        k.saverResetSent(at: 10, query: 7)
        #expect(k.pendingSaverQuery == 7)
        #expect(k.deadline == 30, "20 s until the server says its timeout")
        #expect(!k.saverResetDue(at: 29.9) && k.saverResetDue(at: 30))
        k.saverResetSent(at: 30, query: 8)
        #expect(k.pendingSaverQuery == 7, "the query still awaited is kept: one at a time")
        // `xset s 10`: resets every 5 s, the next one brought forward.
        k.saverReplied(timeout: 10)
        #expect(k.pendingSaverQuery == nil && k.deadline == 35)
        k.saverResetSent(at: 35, query: 9)
        #expect(k.deadline == 40)
        k.saverReplied(timeout: nil)
        #expect(k.pendingSaverQuery == nil && k.deadline == 40, "a reply without a value keeps the interval")
        // `xset s 600`: at most every 20 s, and never later than already due.
        k.saverReplied(timeout: 600)
        #expect(k.deadline == 40)
        k.saverResetSent(at: 40, query: 10)
        #expect(k.deadline == 60)
        let released = k.releaseSaver()
        #expect(!released, "no Suspend to release")
        #expect(k.deadline == nil && !k.saverResetDue(at: 1000), "no resets after the kiosk let go")
    }

    @Test("RandR events are told apart by the extension's event base; none without RandR")
    func randrEvents() {
        var k = KioskServices(options: ShellOptions(), watchdog: nil)
        #expect(!(0...255).contains { k.isRandREvent(UInt8($0)) })
        k.randrEventBase = 89
        #expect((0...255).filter { k.isRandREvent(UInt8($0)) } == [89, 90])
    }
}
