/// Recognizes two fingers moving apart or together. UIKit: `UIPinchGestureRecognizer`
/// (continuous).
///
/// Rules (DESIGN.md §3): tracks the first two touches to land (others are ignored);
/// ``scale`` = distance / the distance when the second touch went down; began once the distance
/// has changed by more than ``minimumDistanceChange`` (8 pt); setting ``scale`` re-bases and
/// zeroes the velocity; ``velocity`` is in scale per second. When a tracked touch lifts, another
/// touch already down takes its place, else the next one to land, and the pair re-bases so the
/// scale does not jump; with fewer than two touches the gesture stays active with its scale
/// frozen; it ends when all touches have lifted. The location is the centroid of the pair.
///
/// Touchpad pinches (XI 2.4) arrive through ``touchpadPinch(_:)``: the gesture's absolute scale
/// is taken as it is, and the recognizer begins at the first update that changes it.
@MainActor
public final class PinchGestureRecognizer: GestureRecognizer {
    /// The change of distance that begins the gesture: 8 pt.
    @exclusivity(unchecked) public var minimumDistanceChange = 8.0
    @exclusivity(unchecked) private var pair = TouchPair()
    @exclusivity(unchecked) private var baseScale = 1.0
    @exclusivity(unchecked) private var baseDistance = 0.0
    @exclusivity(unchecked) private var currentScale = 1.0
    /// Touchpad: the gesture's absolute scale at the last event, and at the last re-base.
    @exclusivity(unchecked) private var touchpadScale = 1.0
    @exclusivity(unchecked) private var touchpadBaseScale = 1.0
    private let tracker = VelocityTracker()
    @exclusivity(unchecked) private var lastMidpoint: Point?

    public init(name: String? = nil) {
        super.init(kind: .pinch, name: name, continuous: true)
    }

    /// UIKit: `scale`. Setting it re-bases the measurement and zeroes the velocity.
    public var scale: Double {
        get { currentScale }
        set {
            currentScale = newValue
            baseScale = newValue
            touchpadBaseScale = touchpadScale
            baseDistance = pair.distance
            tracker.reset()
        }
    }

    /// UIKit: `velocity`, scale per second.
    public var velocity: Double { tracker.xVelocity(at: now) }

    public override var logValues: GestureValues {
        .pinch(scale: currentScale, velocity: velocityForLog ? velocity : 0)
    }

    public override var numberOfTouches: Int { touchpadActive ? 2 : min(2, touches.count) }

    public override var locationInWindow: Point {
        if touchpadActive { return touchpadLocation }
        if let m = pair.midpoint { return m }
        return lastMidpoint ?? super.locationInWindow
    }

    public override var acceptsTouchpadPinch: Bool { true }

    private func measure() {
        if pair.refill(from: touches) {
            // A new pair: re-base so the scale carries on from where it was.
            baseScale = currentScale
            baseDistance = pair.distance
        }
        if pair.isComplete {
            lastMidpoint = pair.midpoint
            if baseDistance > 0 {
                currentScale = baseScale * pair.distance / baseDistance
            }
            tracker.add(time: now, x: currentScale)
        }
    }

    public override func touchesBegan(_ touches: [Touch]) {
        measure()
    }

    public override func touchesMoved(_ touches: [Touch]) {
        measure()
        guard pair.isComplete else { return }
        if state == .possible {
            if abs(pair.distance - baseDistance) > minimumDistanceChange { state = .began }
        } else if state.isActive {
            state = .changed
        }
    }

    public override func touchesEnded(_ touches: [Touch]) {
        measure()
        if state.isActive && numberOfDownTouches == 0 { state = .ended }
    }

    public override func touchpadPinch(_ event: TouchpadPinch) {
        switch event.phase {
        case .begin:
            baseScale = 1
            currentScale = 1
            touchpadScale = 1
            touchpadBaseScale = 1
        case .update:
            guard event.scale.isFinite else { return }
            // Absolute since the gesture began, relative to the last re-base (setting `scale`).
            let s = touchpadBaseScale != 0 ? baseScale * event.scale / touchpadBaseScale : baseScale
            guard s.isFinite else { return }
            touchpadScale = event.scale
            let changed = s != currentScale
            currentScale = s
            tracker.add(time: now, x: currentScale)
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

    public override func reset() {
        pair.clear()
        baseScale = 1
        baseDistance = 0
        currentScale = 1
        tracker.reset()
        lastMidpoint = nil
    }
}
