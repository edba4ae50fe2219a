/// Recognizes two fingers turning. UIKit: `UIRotationGestureRecognizer` (continuous).
///
/// Rules (DESIGN.md §3): tracks touches as a pinch does; ``rotation`` is the change, since the
/// second touch went down, of the angle of the line first → second touch, in radians,
/// **clockwise positive** in window coordinates (y down), unwrapped (a full turn reads 2π and it
/// never jumps by 2π); began once |rotation| exceeds ``minimumRotation`` (0.05 rad); re-bases
/// like a pinch; setting ``rotation`` re-bases and zeroes the velocity; ``velocity`` is in rad/s.
///
/// Touchpad pinches (XI 2.4) carry angle deltas in degrees (clockwise positive, libinput's
/// convention): they are accumulated in radians and the recognizer begins at the first update
/// that changes the angle.
@MainActor
public final class RotationGestureRecognizer: GestureRecognizer {
    /// The rotation that begins the gesture: 0.05 rad.
    @exclusivity(unchecked) public var minimumRotation = 0.05
    @exclusivity(unchecked) private var pair = TouchPair()
    @exclusivity(unchecked) private var baseRotation = 0.0
    @exclusivity(unchecked) private var accumulated = 0.0
    @exclusivity(unchecked) private var lastAngle = 0.0
    private let tracker = VelocityTracker()
    @exclusivity(unchecked) private var lastMidpoint: Point?

    public init(name: String? = nil) {
        super.init(kind: .rotation, name: name, continuous: true)
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

    public override var numberOfTouches: Int { touchpadActive ? 2 : min(2, touches.count) }

    public override var locationInWindow: Point {
        if touchpadActive { return touchpadLocation }
        if let m = pair.midpoint { return m }
        return lastMidpoint ?? super.locationInWindow
    }

    public override var acceptsTouchpadPinch: Bool { true }

    private func measure() {
        if pair.refill(from: touches) {
            baseRotation += accumulated
            accumulated = 0
            lastAngle = pair.angle
        }
        if pair.isComplete {
            lastMidpoint = pair.midpoint
            let a = pair.angle
            accumulated += normalizedAngle(a - lastAngle)
            lastAngle = a
            tracker.add(time: now, x: rotation)
        }
    }

    public override func touchesBegan(_ touches: [Touch]) {
        measure()
    }

    public override func touchesMoved(_ touches: [Touch]) {
        measure()
        guard pair.isComplete else { return }
        if state == .possible {
            if abs(rotation) > minimumRotation { state = .began }
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
            baseRotation = 0
            accumulated = 0
        case .update:
            guard event.angleDelta.isFinite else { return }
            accumulated += event.angleDelta * .pi / 180
            tracker.add(time: now, x: rotation)
            if state == .possible {
                if event.angleDelta != 0 { state = .began }
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
        baseRotation = 0
        accumulated = 0
        lastAngle = 0
        tracker.reset()
        lastMidpoint = nil
    }
}
