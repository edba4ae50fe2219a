import GestureKit
import GestureTestSupport
import Testing

@testable import GestureX11

/// The X11 shell's server-free logic: input translation (mouse fingers, the simulated second
/// finger, touches, touchpad swipes), key bindings, window-shake detection, time mapping,
/// replay scheduling and the HiDPI scale.
@Suite("X11 shell logic (no server)")
struct ShellUnitTests {
    @MainActor
    private func translator(center: Point = Point(x: 100, y: 100)) -> InputTranslator {
        InputTranslator(simulateModifier: .ctrl) { _ in center }
    }

    @Test("The mouse is one finger while button 1 is held; other buttons and hover are not touches")
    @MainActor
    func mouseFinger() {
        let t = translator()
        var c: [TouchChange] = []
        t.pointerMoved(device: 2, to: Point(x: 5, y: 5), modifiers: 0, into: &c)
        t.pointerPressed(device: 2, button: 3, at: Point(x: 5, y: 5), modifiers: 0, into: &c)
        #expect(c.isEmpty)
        t.pointerPressed(device: 2, button: 1, at: Point(x: 10, y: 20), modifiers: 0, into: &c)
        t.pointerMoved(device: 2, to: Point(x: 15, y: 20), modifiers: 0, into: &c)
        t.pointerMoved(device: 2, to: Point(x: 15, y: 20), modifiers: 0, into: &c)  // no change: nothing
        t.pointerReleased(device: 2, button: 1, at: Point(x: 16, y: 20), modifiers: 0, into: &c)
        #expect(
            c == [
                Finger.down(1, 10, 20),
                Finger.move(1, 15, 20),
                Finger.up(1, 16, 20),
            ])
        #expect(!t.hasActiveFingers)
    }

    @Test(
        "The simulate modifier at press adds a second finger: mirrored through the centre, or parallel with Shift",
        arguments: [false, true])
    @MainActor
    func simulatedFinger(shift: Bool) {
        let t = translator(center: Point(x: 100, y: 100))
        var c: [TouchChange] = []
        let mods = SimulateModifier.ctrl.mask | (shift ? ModifierBits.shift : 0)
        t.pointerPressed(device: 2, button: 1, at: Point(x: 60, y: 100), modifiers: mods, into: &c)
        // The modifier goes up mid-drag: both fingers stay until the button is released.
        t.pointerMoved(device: 2, to: Point(x: 50, y: 90), modifiers: 0, into: &c)
        t.pointerReleased(device: 2, button: 1, at: Point(x: 50, y: 90), modifiers: 0, into: &c)
        let second = shift ? Point(x: 130, y: 90) : Point(x: 150, y: 110)
        #expect(
            c == [
                Finger.down(1, 60, 100),
                Finger.down(2, 140, 100),
                Finger.move(1, 50, 90),
                TouchChange(id: 2, phase: .moved, location: second),
                Finger.up(1, 50, 90),
                TouchChange(id: 2, phase: .ended, location: second),
            ])
    }

    @Test("The overlay shows the simulated fingers only while the modifier is held")
    @MainActor
    func overlay() {
        let t = translator(center: Point(x: 100, y: 100))
        var c: [TouchChange] = []
        t.pointerMoved(device: 2, to: Point(x: 80, y: 100), modifiers: 0, into: &c)
        #expect(t.overlay.isEmpty)
        t.modifierHeld = true  // Control pressed (a key event)
        #expect(t.overlay == [Point(x: 80, y: 100), Point(x: 120, y: 100)])
        t.pointerPressed(
            device: 2, button: 1, at: Point(x: 70, y: 100), modifiers: SimulateModifier.ctrl.mask, into: &c)
        #expect(t.overlay == [Point(x: 70, y: 100), Point(x: 130, y: 100)])
        t.pointerMoved(device: 2, to: Point(x: 60, y: 100), modifiers: 0, into: &c)
        #expect(t.overlay.isEmpty)  // modifier released: the fingers live on, undrawn
        #expect(t.hasActiveFingers)
    }

    @Test("Each master pointer and each touch is a finger of its own; removing a master cancels its fingers")
    @MainActor
    func devicesAndTouches() {
        let t = translator()
        var c: [TouchChange] = []
        t.pointerPressed(device: 2, button: 1, at: Point(x: 1, y: 1), modifiers: 0, into: &c)
        t.pointerPressed(device: 9, button: 1, at: Point(x: 2, y: 2), modifiers: 0, into: &c)
        t.touchBegan(device: 2, touch: 77, at: Point(x: 3, y: 3), into: &c)
        t.touchMoved(device: 2, touch: 77, to: Point(x: 4, y: 3), into: &c)
        t.touchMoved(device: 2, touch: 78, to: Point(x: 4, y: 3), into: &c)  // unknown: ignored
        t.deviceRemoved(9, into: &c)
        t.touchEnded(device: 2, touch: 77, at: Point(x: 5, y: 3), into: &c)
        #expect(
            c == [
                Finger.down(1, 1, 1),
                Finger.down(2, 2, 2),
                Finger.down(3, 3, 3),
                Finger.move(3, 4, 3),
                Finger.cancel(2, 2, 2),
                Finger.up(3, 5, 3),
            ])
    }

    @Test("A touchpad swipe is one finger moving by the accumulated deltas")
    @MainActor
    func touchpadSwipe() {
        let t = translator()
        var c: [TouchChange] = []
        t.swipeBegan(device: 3, at: Point(x: 100, y: 100), into: &c)
        t.swipeUpdated(device: 3, delta: Vector(dx: 10, dy: 0), into: &c)
        t.swipeUpdated(device: 3, delta: Vector(dx: 15, dy: -5), into: &c)
        t.swipeEnded(device: 3, cancelled: false, into: &c)
        #expect(
            c == [
                Finger.down(1, 100, 100),
                Finger.move(1, 110, 100),
                Finger.move(1, 125, 95),
                Finger.up(1, 125, 95),
            ])
    }

    @Test(
        "Key bindings",
        arguments: [
            (UInt(0x2B), UInt32(0), KeyAction.command(.scaleUp)),
            (0x3D, 0, .command(.scaleUp)),
            (0xFFAB, 0, .command(.scaleUp)),
            (0x2D, 0, .command(.scaleDown)),
            (0xFFAD, 0, .command(.scaleDown)),
            (0x5B, 0, .command(.rotateCounterClockwise)),
            (0x5D, 0, .command(.rotateClockwise)),
            (0xFF51, 0, .command(.move(dx: -10, dy: 0))),
            (0xFF54, 0, .command(.move(dx: 0, dy: 10))),
            (0x7A, ModifierBits.control, .shake),
            (0x75, 0, .command(.undo)),
            (0xFF08, 0, .command(.undo)),
            (0x71, 0, .quit),
            (0xFF1B, 0, .quit),
        ] as [(UInt, UInt32, KeyAction)])
    func keyBindings(keysym: UInt, mods: UInt32, action: KeyAction) {
        #expect(KeyBindings.action(keysym: keysym, modifiers: mods, kiosk: false) == action)
    }

    @Test(
        "Wheel buttons are scroll clicks of 40 pt: 4 up, 5 down, 6 left, 7 right; Shift turns 4/5 sideways, Ctrl zooms",
        arguments: [
            (4, UInt32(0), Vector(dx: 0, dy: 40), false),
            (5, 0, Vector(dx: 0, dy: -40), false),
            (6, 0, Vector(dx: 40, dy: 0), false),
            (7, 0, Vector(dx: -40, dy: 0), false),
            (5, ModifierBits.shift, Vector(dx: -40, dy: 0), false),
            (7, ModifierBits.shift, Vector(dx: -40, dy: 0), false),
            (4, ModifierBits.control, Vector(dx: 0, dy: 40), true),
            (5, ModifierBits.control | ModifierBits.shift, Vector(dx: 0, dy: -40), true),
        ] as [(Int, UInt32, Vector, Bool)])
    func scrollButtons(button: Int, mods: UInt32, delta: Vector, zoom: Bool) {
        let s = ScrollButtons.input(button: button, modifiers: mods, at: Point(x: 5, y: 6), time: 1.5)
        #expect(
            s == ScrollInput(timestamp: 1.5, location: Point(x: 5, y: 6), delta: delta, type: .discrete, zoom: zoom))
        #expect(ScrollButtons.input(button: 1, modifiers: 0, at: .zero, time: 0) == nil)
        #expect(ScrollButtons.input(button: 8, modifiers: 0, at: .zero, time: 0) == nil)
    }

    @Test("Plain z does nothing; kiosk mode has no quit keys")
    func keyBindingsNegative() {
        #expect(KeyBindings.action(keysym: 0x7A, modifiers: 0, kiosk: false) == nil)
        #expect(KeyBindings.action(keysym: 0x71, modifiers: 0, kiosk: true) == nil)
        #expect(KeyBindings.action(keysym: 0xFF1B, modifiers: 0, kiosk: true) == nil)
        #expect(KeyBindings.action(keysym: 0x2B, modifiers: 0, kiosk: true) == .command(.scaleUp))
    }

    @Test("Shaking the window: four quick reversals shake; slow or small moves do not")
    func windowShake() {
        var d = WindowShakeDetector()
        let xs = [100.0, 160, 100, 160, 100, 160]
        var shook = [Bool]()
        for (i, x) in xs.enumerated() { shook.append(d.move(toX: x, y: 50, at: Double(i) * 0.1)) }
        #expect(shook == [false, false, false, false, false, true])

        var slow = WindowShakeDetector()
        let slowShake = xs.enumerated().map { slow.move(toX: $0.element, y: 50, at: Double($0.offset) * 0.5) }
        #expect(!slowShake.contains(true))

        var jitter = WindowShakeDetector()
        let small = [100.0, 103, 100, 103, 100, 103, 100].enumerated().map {
            jitter.move(toX: $0.element, y: 50, at: Double($0.offset) * 0.05)
        }
        #expect(!small.contains(true))

        var drag = WindowShakeDetector()
        let oneWay = stride(from: 0.0, to: 500, by: 20).enumerated().map {
            drag.move(toX: $0.element, y: $0.element / 2, at: Double($0.offset) * 0.01)
        }
        #expect(!oneWay.contains(true))
    }

    @Test("Server times map onto the shell clock: spacing kept, never later than arrival")
    func serverTime() {
        var m = ServerTimeMapper()
        // A burst read at once (received 5.000) of events stamped 1000, 1008, 1016 ms.
        let a = m.map(server: 1000, received: 5.0)
        let b = m.map(server: 1008, received: 5.0)
        let c = m.map(server: 1016, received: 5.0)
        #expect(a == 5.0)  // the first event sets the offset
        #expect(b == 5.0 && c == 5.0)  // clamped to arrival
        // The offset is the smallest seen (5.000 − 1.016): later events keep their true spacing,
        // even when delivered late.
        let d = m.map(server: 2000, received: 5.986)
        #expect(abs(d - 5.984) < 1e-9)
        let e = m.map(server: 2010, received: 6.5)
        #expect(abs(e - 5.994) < 1e-9)
        // The 32-bit wrap takes a fresh offset.
        var w = ServerTimeMapper()
        #expect(w.map(server: 4_294_960_000, received: 1.0) == 1.0)
        #expect(w.map(server: 100, received: 1.5) == 1.5)
    }

    @Test("quantize rounds to micro-units")
    func quantizing() {
        #expect(quantize(1.000_000_4) == 1.0)
        #expect(quantize(2.0 / 3.0) == 0.666_667)
        #expect(quantize(-0.000_000_6) == -0.000_001)
    }

    @Test("A replay plays at its own pace with its own ids, and stopping cancels what it holds")
    @MainActor
    func replayPlayer() {
        let events: [InputEvent] = [
            .touches(
                TouchFrame(timestamp: 0, changes: [Finger.down(1, 1, 1)])),
            .touches(
                TouchFrame(timestamp: 0.5, changes: [Finger.move(1, 2, 1)])),
            .touchpadPinch(TouchpadPinch(timestamp: 0.6, phase: .begin, location: Point(x: 5, y: 5))),
            .touches(
                TouchFrame(timestamp: 2, changes: [Finger.up(1, 3, 1)])),
        ]
        let p = ReplayPlayer(events: events, idOffset: 100)
        #expect(p.nextDeadline == nil)
        p.begin(at: 10)
        #expect(p.nextDeadline == 10)
        let first = p.due(at: 10.2, notBefore: 0)
        #expect(
            first == [
                .touches(
                    TouchFrame(
                        timestamp: 10, changes: [Finger.down(101, 1, 1)]))
            ])
        #expect(p.nextDeadline == 10.5)
        #expect(p.due(at: 10.7, notBefore: 10.55).map(\.timestamp) == [10.55, 10.6])
        #expect(p.isPlaying)
        let stop = p.stop(at: 11)
        #expect(
            stop == [
                .touches(
                    TouchFrame(
                        timestamp: 11, changes: [Finger.cancel(101, 2, 1)])),
                .touchpadPinch(TouchpadPinch(timestamp: 11, phase: .cancel, location: Point(x: 5, y: 5))),
            ])
        #expect(!p.isPlaying)

        p.begin(at: 20)
        #expect(p.due(at: 25, notBefore: 0).count == 4)
        #expect(p.finishTime == 23)
        #expect(p.isFinished)
    }

    @Test(
        "HiDPI: Xft.dpi / 96 from the resource string",
        arguments: [
            ("Xft.dpi:\t192\nXft.antialias:\t1\n", 2.0 as Double?),
            ("Xft.antialias: 1\nXft.dpi: 144\n", 1.5),
            ("Xft.dpi:\t96", 1.0),
            ("Xcursor.size: 24\n", nil),
            ("Xft.dpi: nonsense\n", nil),
        ] as [(String, Double?)])
    func hidpi(resources: String, expected: Double?) {
        #expect(scaleFromXResources(resources) == expected)
    }
}
