/// Recognizes two fingers turning. UIKit: `UIRotationGestureRecognizer` (continuous).
///
/// Rules (docs/DESIGN.md §3): tracks touches as a pinch does; ``rotation`` is the change, since the
/// second touch went down, of the angle of the line first → second touch, in radians,
/// **clockwise positive** in window coordinates (y down), unwrapped (a full turn reads 2π and it
/// never jumps by 2π); began once |rotation| exceeds ``minimumRotation`` (0.05 rad); re-bases
/// like a pinch; setting ``rotation`` re-bases and zeroes the velocity; ``velocity`` is in rad/s.
///
/// Touchpad pinches (XI 2.4) carry angle deltas in degrees (clockwise positive, libinput's
/// convention): they are accumulated in radians and the recognizer begins at the first update
/// that changes the angle.
@MainActor
public final class RotationGestureRecognizer: TwoTouchGestureRecognizer {
    /// The rotation that begins the gesture: 0.05 rad.
    @exclusivity(unchecked) public var minimumRotation = 0.05
    @exclusivity(unchecked) private var baseRotation = 0.0
    @exclusivity(unchecked) private var accumulated = 0.0
    @exclusivity(unchecked) private var lastAngle = 0.0

    public required init(name: String? = nil) {
        super.init(builtIn: .rotation, name: name, continuous: true)
    }

    /// UIKit: `rotation`, radians. Setting it re-bases the measurement and zeroes the velocity.
    public var rotation: Double {
        get { baseRotation + accumulated }
        set {
            baseRotation = newValue
            accumulated = 0
            lastAngle = pair.angle
            tracker.reset()
        }
    }

    /// UIKit: `velocity`, radians per second.
    public var velocity: Double { tracker.xVelocity(at: now) }

    public override var logValues: GestureValues {
        .rotation(rotation: rotation, velocity: velocityForLog ? velocity : 0)
    }

    override func rebase() {
        baseRotation += accumulated
        accumulated = 0
        lastAngle = pair.angle
    }

    override func measurePair() -> Double {
        let a = pair.angle
        accumulated += normalizedAngle(a - lastAngle)
        lastAngle = a
        return rotation
    }

    override var hasPassedThreshold: Bool { abs(rotation) > minimumRotation }

    override func touchpadBegan() {
        baseRotation = 0
        accumulated = 0
    }

    override func touchpadUpdated(_ event: TouchpadPinch) -> (value: Double, changed: Bool)? {
        guard event.angleDelta.isFinite else { return nil }
        accumulated += event.angleDelta * .pi / 180
        return (rotation, event.angleDelta != 0)
    }

    override func resetValue() {
        baseRotation = 0
        accumulated = 0
        lastAngle = 0
    }
}
