/// The shared skeleton of the recognizers that measure a pair of touches: pinch and rotation.
/// UIKit has no such class (`UIPinchGestureRecognizer` and `UIRotationGestureRecognizer` derive
/// from `UIGestureRecognizer` directly); this is a GTK4-style short class chain
/// (`GtkGesture` → `GtkGestureZoom` / `GtkGestureRotate`), kept out of the public API's way:
/// its subclasses add only their value, their threshold, their re-base and their touchpad update
/// through internal hooks.
///
/// Pair rules (docs/DESIGN.md §3): tracks the first two touches to land (others are ignored). When a
/// tracked touch lifts, another touch already down takes its place, else the next one to land,
/// and the pair re-bases so the value does not jump; with fewer than two touches the gesture
/// stays active with its value frozen; it ends when all touches have lifted. Once the pair is
/// complete a possible gesture begins when the subclass's threshold is passed, an active one
/// changes at every movement. The location is the midpoint of the pair (its last one when the
/// pair is broken). Touchpad pinches (XI 2.4) begin at the first update that changes the value;
/// their end ends an active gesture and fails a possible one, their cancel cancels it.
@MainActor
open class TwoTouchGestureRecognizer: GestureRecognizer {
    /// One touch down: its moves change nothing until a second one lands.
    open override var waitsForMoreTouches: Bool { numberOfDownTouches < 2 }

    /// The two tracked touches.
    @exclusivity(unchecked) private(set) var pair = TouchPair()
    /// Samples of the value, for ``velocity``-style queries.
    let tracker = VelocityTracker()
    @exclusivity(unchecked) private var lastMidpoint: Point?

    public override var numberOfTouches: Int { touchpadActive ? 2 : min(2, touches.count) }

    public override var locationInWindow: Point {
        if touchpadActive { return touchpadLocation }
        if let m = pair.midpoint { return m }
        return lastMidpoint ?? super.locationInWindow
    }

    public override var acceptsTouchpadPinch: Bool { true }

    // MARK: Hooks (internal: overridden by the final subclasses only)

    /// A new complete pair formed: freeze the value and measure from the pair's geometry.
    func rebase() {}
    /// The complete pair moved (or formed): update the value and return it for the tracker.
    func measurePair() -> Double { 0 }
    /// Whether a possible gesture with a complete pair begins.
    var hasPassedThreshold: Bool { false }
    /// A touchpad gesture began: the value starts from its neutral value.
    func touchpadBegan() {}
    /// A touchpad update: the new value and whether it changed, or nil to ignore the event.
    func touchpadUpdated(_ event: TouchpadPinch) -> (value: Double, changed: Bool)? { nil }
    /// Back to the neutral value (at reset).
    func resetValue() {}

    // MARK: Skeleton

    @inline(__always) private func measure() {
        if pair.refill(from: touches) { rebase() }
        if pair.isComplete {
            lastMidpoint = pair.midpoint
            tracker.add(time: now, x: measurePair())
        }
    }

    public final override func touchesBegan(_ touches: [Touch]) {
        measure()
    }

    public final override func touchesMoved(_ touches: [Touch]) {
        measure()
        guard pair.isComplete else { return }
        let s = state
        if s == .possible {
            if hasPassedThreshold { state = .began }
        } else if s == .began || s == .changed {  // `isActive`, spelled out: it stays inline
            state = .changed
        }
    }

    public final override func touchesEnded(_ touches: [Touch]) {
        measure()
        if state.isActive && numberOfDownTouches == 0 { state = .ended }
    }

    public final override func touchpadPinch(_ event: TouchpadPinch) {
        switch event.phase {
        case .begin:
            touchpadBegan()
        case .update:
            guard let (value, changed) = touchpadUpdated(event) else { return }
            tracker.add(time: now, x: value)
            if state == .possible {
                if changed { state = .began }
            } else if state.isActive {
                state = .changed
            }
        case .end:
            if state.isActive { state = .ended } else { state = .failed }
        case .cancel:
            if state.isActive { state = .cancelled } else { state = .failed }
        }
    }

    public final override func reset() {
        pair.clear()
        resetValue()
        tracker.reset()
        lastMidpoint = nil
    }
}
