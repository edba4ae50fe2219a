/// Recognizes two fingers moving apart or together. UIKit: `UIPinchGestureRecognizer`
/// (continuous).
///
/// Rules (docs/DESIGN.md §3): tracks the first two touches to land (others are ignored);
/// ``scale`` = distance / the distance when the second touch went down; began once the distance
/// has changed by more than ``minimumDistanceChange`` (8 pt); setting ``scale`` re-bases and
/// zeroes the velocity; ``velocity`` is in scale per second. When a tracked touch lifts, another
/// touch already down takes its place, else the next one to land, and the pair re-bases so the
/// scale does not jump; with fewer than two touches the gesture stays active with its scale
/// frozen; it ends when all touches have lifted. The location is the centroid of the pair.
///
/// Touchpad pinches (XI 2.4) arrive through `touchpadPinch(_:)`: the gesture's absolute scale
/// is taken as it is, and the recognizer begins at the first update that changes it.
@MainActor
public final class PinchGestureRecognizer: TwoTouchGestureRecognizer {
    /// The change of distance that begins the gesture: 8 pt.
    @exclusivity(unchecked) public var minimumDistanceChange = 8.0
    @exclusivity(unchecked) private var baseScale = 1.0
    @exclusivity(unchecked) private var baseDistance = 0.0
    @exclusivity(unchecked) private var currentScale = 1.0
    /// Touchpad: the gesture's absolute scale at the last event, and at the last re-base.
    @exclusivity(unchecked) private var touchpadScale = 1.0
    @exclusivity(unchecked) private var touchpadBaseScale = 1.0

    public required init(name: String? = nil) {
        super.init(builtIn: .pinch, name: name, continuous: true)
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

    override func rebase() {
        // A new pair: re-base so the scale carries on from where it was.
        baseScale = currentScale
        baseDistance = pair.distance
    }

    override func measurePair() -> Double {
        if baseDistance > 0 {
            // Touches that landed a hair apart (1e-300 pt) and then spread would overflow the
            // ratio: the scale keeps its last finite value (UIKit never meets such input).
            let s = baseScale * pair.distance / baseDistance
            if s.isFinite { currentScale = s }
        }
        return currentScale
    }

    override var hasPassedThreshold: Bool {
        abs(pair.distance - baseDistance) > minimumDistanceChange
    }

    override func touchpadBegan() {
        baseScale = 1
        currentScale = 1
        touchpadScale = 1
        touchpadBaseScale = 1
    }

    override func touchpadUpdated(_ event: TouchpadPinch) -> (value: Double, changed: Bool)? {
        guard event.scale.isFinite else { return nil }
        // Absolute since the gesture began, relative to the last re-base (setting `scale`).
        let s = touchpadBaseScale != 0 ? baseScale * event.scale / touchpadBaseScale : baseScale
        guard s.isFinite else { return nil }
        touchpadScale = event.scale
        let changed = s != currentScale
        currentScale = s
        return (currentScale, changed)
    }

    override func resetValue() {
        baseScale = 1
        baseDistance = 0
        currentScale = 1
    }
}
