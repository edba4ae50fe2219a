import GestureKit

/// The modifier that adds a simulated second finger to a mouse drag (`--simulate-modifier`),
/// as the Option key does in the iOS Simulator.
public enum SimulateModifier: String, CaseIterable, Sendable {
    case ctrl, alt, `super`

    /// The X modifier mask bit (`ControlMask`, `Mod1Mask`, `Mod4Mask`).
    public var mask: UInt32 {
        switch self {
        case .ctrl: 1 << 2
        case .alt: 1 << 3
        case .super: 1 << 6
        }
    }

    /// True for the keysyms of this modifier's keys (left and right).
    public func matches(keysym: UInt) -> Bool {
        switch self {
        case .ctrl: keysym == 0xFFE3 || keysym == 0xFFE4  // Control_L, Control_R
        case .alt: keysym == 0xFFE9 || keysym == 0xFFEA || keysym == 0xFFE7 || keysym == 0xFFE8  // Alt, Meta
        case .super: keysym == 0xFFEB || keysym == 0xFFEC || keysym == 0xFFED || keysym == 0xFFEE  // Super, Hyper
        }
    }
}

/// X modifier bits the translator reads.
public enum ModifierBits {
    public static let shift: UInt32 = 1 << 0
    public static let control: UInt32 = 1 << 2
}

/// Turns pointer, touch and touchpad-swipe events (already in window points) into touch changes:
/// the pure, server-free half of the X11 input shell (the other half decodes XI2 events).
///
/// - Every touch of a touchscreen (XI2 `XI_Touch*`, keyed by master device and touch id) is a
///   finger of its own.
/// - Every master pointer is one finger while its button 1 is held (UIKit has no mouse-as-finger;
///   this is the iOS Simulator's model). Other buttons are ignored.
/// - With the simulate modifier held at button press a second finger appears, mirrored through
///   `mirrorCenter(press point)` (p₂ = 2c − p, iOS Simulator style; pinch and rotate); with
///   Shift as well it keeps its initial offset instead (a parallel two-finger pan). Both fingers
///   live until the button is released, whatever the modifiers do meanwhile.
/// - A touchpad swipe (XI 2.4 `XI_GestureSwipe*`, three or more fingers on libinput) becomes ONE
///   finger that goes down at the pointer and moves by the swipe's accumulated deltas, so
///   touchpad swipes drive the swipe and pan recognizers. (UIKit has no touchpad swipe input;
///   iPadOS maps trackpad scrolling to pans in a similar way.)
///
/// Finger ids are allocated from 1 upwards and never reused while the shell runs.
@MainActor
public final class InputTranslator {
    /// The modifier that adds the simulated finger.
    public var simulateModifier: SimulateModifier
    /// The centre the simulated finger is mirrored through (the scene's `mirrorCenter(for:)`).
    public var mirrorCenter: (Point) -> Point
    /// Whether the simulate modifier is held now (the simulated fingers are drawn meanwhile).
    @exclusivity(unchecked) public var modifierHeld = false
    /// Where the pointer last hovered (window points), for the overlay while the modifier is held.
    @exclusivity(unchecked) public var hover: Point?

    private enum SimulatedMode {
        case mirror(center: Point)
        case parallel(offset: Vector)
    }
    private protocol DeviceFinger {
        var device: Int32 { get }
    }
    private struct PointerFinger: DeviceFinger {
        var device: Int32
        var id: Int
        var location: Point
        var simulated: (id: Int, mode: SimulatedMode, location: Point)?
    }
    private struct TouchState {
        var device: Int32
        var touch: UInt32
        var id: Int
        var location: Point
    }
    private struct SwipeFinger: DeviceFinger {
        var device: Int32
        var id: Int
        var origin: Point
        var offset: Vector
    }
    // Fingers in the order they went down. A handful at most: a linear search beats hashing
    // (measured: the dictionaries' hashing was ~4 % of the shell's CPU per pointer motion).
    // Plain loops, no closures (a closure formed here checks its main-actor executor per call).
    // No run-time exclusivity checks on the per-event state (main actor only).
    @exclusivity(unchecked) private var pointers: [PointerFinger] = []
    @exclusivity(unchecked) private var touches: [TouchState] = []
    @exclusivity(unchecked) private var swipes: [SwipeFinger] = []
    private var nextID = 1

    private func pointerIndex(_ device: Int32) -> Int? { Self.index(of: device, in: pointers) }
    private func swipeIndex(_ device: Int32) -> Int? { Self.index(of: device, in: swipes) }

    private static func index<F: DeviceFinger>(of device: Int32, in fingers: [F]) -> Int? {
        var i = 0
        while i < fingers.count {
            if fingers[i].device == device { return i }
            i += 1
        }
        return nil
    }

    private func touchIndex(_ device: Int32, _ touch: UInt32) -> Int? {
        var i = 0
        while i < touches.count {
            if touches[i].touch == touch && touches[i].device == device { return i }
            i += 1
        }
        return nil
    }

    public init(simulateModifier: SimulateModifier = .ctrl, mirrorCenter: @escaping (Point) -> Point) {
        self.simulateModifier = simulateModifier
        self.mirrorCenter = mirrorCenter
    }

    /// True when any finger (touch, pointer or swipe) is down.
    public var hasActiveFingers: Bool { !pointers.isEmpty || !touches.isEmpty || !swipes.isEmpty }

    /// True when `device`'s button 1 is held (its finger is down).
    public func isPointerDown(_ device: Int32) -> Bool { pointerIndex(device) != nil }

    private func allocate() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Updates `modifierHeld` from the modifier mask an event carried.
    public func updateModifiers(_ mask: UInt32) {
        modifierHeld = mask & simulateModifier.mask != 0
    }

    // MARK: Pointers

    /// Button `button` of master pointer `device` went down at `location` with modifiers `mods`
    /// (the X mask, as carried by the event: the state just before it).
    public func pointerPressed(
        device: Int32, button: Int, at location: Point, modifiers mods: UInt32,
        into changes: inout [TouchChange]
    ) {
        updateModifiers(mods)
        hover = location
        guard button == 1, pointerIndex(device) == nil else { return }
        var finger = PointerFinger(device: device, id: allocate(), location: location, simulated: nil)
        changes.append(TouchChange(id: finger.id, phase: .began, location: location))
        if mods & simulateModifier.mask != 0 {
            let c = mirrorCenter(location)
            let mirrored = Self.simulatedLocation(for: location, mode: .mirror(center: c))
            let mode: SimulatedMode =
                mods & ModifierBits.shift != 0
                ? .parallel(offset: mirrored - location) : .mirror(center: c)
            let id = allocate()
            finger.simulated = (id, mode, mirrored)
            changes.append(TouchChange(id: id, phase: .began, location: mirrored))
        }
        pointers.append(finger)
    }

    /// Master pointer `device` moved to `location`. Produces changes only while its button is held.
    public func pointerMoved(
        device: Int32, to location: Point, modifiers mods: UInt32, into changes: inout [TouchChange]
    ) {
        updateModifiers(mods)
        hover = location
        // The finger is updated in place.
        guard let index = pointerIndex(device) else { return }
        if pointers[index].location == location { return }
        pointers[index].location = location
        changes.append(TouchChange(id: pointers[index].id, phase: .moved, location: location))
        if var sim = pointers[index].simulated {
            sim.location = Self.simulatedLocation(for: location, mode: sim.mode)
            pointers[index].simulated = sim
            changes.append(TouchChange(id: sim.id, phase: .moved, location: sim.location))
        }
    }

    /// Button `button` of `device` went up at `location`.
    public func pointerReleased(
        device: Int32, button: Int, at location: Point, modifiers mods: UInt32,
        into changes: inout [TouchChange]
    ) {
        updateModifiers(mods)
        hover = location
        guard button == 1, let index = pointerIndex(device) else { return }
        let finger = pointers.remove(at: index)
        changes.append(TouchChange(id: finger.id, phase: .ended, location: location))
        if let sim = finger.simulated {
            changes.append(
                TouchChange(
                    id: sim.id, phase: .ended,
                    location: Self.simulatedLocation(for: location, mode: sim.mode)))
        }
    }

    private static func simulatedLocation(for p: Point, mode: SimulatedMode) -> Point {
        switch mode {
        case .mirror(let c): Point(x: 2 * c.x - p.x, y: 2 * c.y - p.y)
        case .parallel(let offset): p + offset
        }
    }

    // MARK: Touchscreen

    /// Touch `touch` of master device `device` began at `location`.
    public func touchBegan(device: Int32, touch: UInt32, at location: Point, into changes: inout [TouchChange]) {
        if touchIndex(device, touch) != nil {  // a repeated begin: take it as a move
            touchMoved(device: device, touch: touch, to: location, into: &changes)
            return
        }
        let state = TouchState(device: device, touch: touch, id: allocate(), location: location)
        touches.append(state)
        changes.append(TouchChange(id: state.id, phase: .began, location: location))
    }

    /// Touch `touch` of `device` moved to `location` (unknown touches are ignored).
    public func touchMoved(device: Int32, touch: UInt32, to location: Point, into changes: inout [TouchChange]) {
        guard let i = touchIndex(device, touch), touches[i].location != location else { return }
        touches[i].location = location
        changes.append(TouchChange(id: touches[i].id, phase: .moved, location: location))
    }

    /// Whether a touch of `device` is down that has no change in `frame` and that the frame
    /// waits for (it changed in the device's previous frame: ``TouchFrameBuilder/expects(_:)``),
    /// so the frame is not yet the whole device frame: see
    /// ``TouchFrameBuilder/hold(missingFinger:now:)``.
    public func hasTouch(of device: Int32, missingFrom frame: TouchFrameBuilder) -> Bool {
        var i = 0
        while i < touches.count {
            let id = touches[i].id
            if touches[i].device == device && !frame.contains(id) && frame.expects(id) { return true }
            i += 1
        }
        return false
    }

    /// Touch `touch` of `device` ended (or was cancelled) at `location`.
    public func touchEnded(
        device: Int32, touch: UInt32, at location: Point, cancelled: Bool = false,
        into changes: inout [TouchChange]
    ) {
        guard let i = touchIndex(device, touch) else { return }
        let state = touches.remove(at: i)
        changes.append(TouchChange(id: state.id, phase: cancelled ? .cancelled : .ended, location: location))
    }

    // MARK: Touchpad swipe

    /// A touchpad swipe of `device` began with the pointer at `location`.
    public func swipeBegan(device: Int32, at location: Point, into changes: inout [TouchChange]) {
        if swipeIndex(device) != nil { swipeEnded(device: device, cancelled: true, into: &changes) }
        let swipe = SwipeFinger(device: device, id: allocate(), origin: location, offset: .zero)
        swipes.append(swipe)
        changes.append(TouchChange(id: swipe.id, phase: .began, location: location))
    }

    /// The swipe moved by `delta` points since its previous event.
    public func swipeUpdated(device: Int32, delta: Vector, into changes: inout [TouchChange]) {
        guard let i = swipeIndex(device), delta != .zero else { return }
        swipes[i].offset = swipes[i].offset + delta
        let swipe = swipes[i]
        changes.append(TouchChange(id: swipe.id, phase: .moved, location: swipe.origin + swipe.offset))
    }

    /// The swipe ended (or was cancelled).
    public func swipeEnded(device: Int32, cancelled: Bool, into changes: inout [TouchChange]) {
        guard let i = swipeIndex(device) else { return }
        let swipe = swipes.remove(at: i)
        changes.append(
            TouchChange(id: swipe.id, phase: cancelled ? .cancelled : .ended, location: swipe.origin + swipe.offset))
    }

    // MARK: Devices

    /// A master device went away (XI2 hierarchy change): its fingers are cancelled.
    public func deviceRemoved(_ device: Int32, into changes: inout [TouchChange]) {
        if let i = pointerIndex(device) {
            let finger = pointers.remove(at: i)
            changes.append(TouchChange(id: finger.id, phase: .cancelled, location: finger.location))
            if let sim = finger.simulated {
                changes.append(TouchChange(id: sim.id, phase: .cancelled, location: sim.location))
            }
        }
        for state in touches where state.device == device {
            changes.append(TouchChange(id: state.id, phase: .cancelled, location: state.location))
        }
        touches.removeAll { $0.device == device }
        swipeEnded(device: device, cancelled: true, into: &changes)
    }

    /// Cancels every finger (the shell lost its input, e.g. the window was unmapped).
    public func cancelAll(into changes: inout [TouchChange]) {
        let devices = Set(pointers.map(\.device)).union(touches.map(\.device)).union(swipes.map(\.device))
        for device in devices.sorted() { deviceRemoved(device, into: &changes) }
    }

    // MARK: Overlay

    /// The simulated-finger points to draw: while the modifier is held, every pointer finger
    /// that has a simulated partner (both points), or else the hovering pointer and where its
    /// mirrored finger would go down. Empty when the modifier is up.
    public var overlay: [Point] {
        guard modifierHeld else { return [] }
        var points: [Point] = []
        for finger in pointers.sorted(by: { $0.device < $1.device }) {
            if let sim = finger.simulated { points += [finger.location, sim.location] }
        }
        if points.isEmpty, pointers.isEmpty, let p = hover {
            points = [p, Self.simulatedLocation(for: p, mode: .mirror(center: mirrorCenter(p)))]
        }
        return points
    }
}
