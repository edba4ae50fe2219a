/// Recognizes a press held still. UIKit: `UILongPressGestureRecognizer` (continuous).
///
/// Rules (docs/DESIGN.md §3): began when ``minimumPressDuration`` (0.5 s) elapses with
/// ``numberOfTouchesRequired`` touches down, none having moved more than ``allowableMovement``
/// (10 pt) from where it went down; more touches than required fails; after began, movement is
/// reported as changed (the limit no longer applies) and the gesture ends when the number of
/// touches down falls below the requirement. With ``numberOfTapsRequired`` > 0 that many quick
/// taps (each lifted before the duration, the next within 0.3 s) come first.
///
/// Deviation: touches landing after began are ignored rather than failing the gesture.
@MainActor
public final class LongPressGestureRecognizer: GestureRecognizer {
    /// UIKit: `minimumPressDuration` (0.5 s).
    @exclusivity(unchecked) public var minimumPressDuration = 0.5
    /// UIKit: `allowableMovement` (10 pt).
    @exclusivity(unchecked) public var allowableMovement = 10.0
    /// UIKit: `numberOfTouchesRequired` (1).
    @exclusivity(unchecked) public var numberOfTouchesRequired = 1
    /// UIKit: `numberOfTapsRequired` (0).
    @exclusivity(unchecked) public var numberOfTapsRequired = 0
    /// The longest pause between the preliminary taps: 0.3 s.
    @exclusivity(unchecked) public var maximumTapGap = 0.3

    @exclusivity(unchecked) private var tapsDone = 0
    @exclusivity(unchecked) private var inTap = false
    @exclusivity(unchecked) private var pressing = false

    public required init(name: String? = nil) {
        super.init(builtIn: .longPress, name: name, continuous: true)
    }

    public override var logValues: GestureValues { .longPress }

    private var down: Int { numberOfDownTouches }

    public override func touchesBegan(_ touches: [Touch]) {
        if state.isActive { return }
        if tapsDone < numberOfTapsRequired {
            cancelTimer()
            inTap = true
            if down > numberOfTouchesRequired { state = .failed }
            return
        }
        if down > numberOfTouchesRequired {
            state = .failed
            return
        }
        if down == numberOfTouchesRequired && !pressing {
            pressing = true
            setTimer(at: now + minimumPressDuration)
        }
    }

    public override func touchesMoved(_ touches: [Touch]) {
        if state.isActive {
            state = .changed
            return
        }
        for t in touches where !(t.locationInWindow.distance(to: t.initialLocationInWindow) <= allowableMovement) {
            state = .failed
            return
        }
    }

    public override func touchesEnded(_ touches: [Touch]) {
        if state.isActive {
            if down < numberOfTouchesRequired { state = .ended }
            return
        }
        if inTap && tapsDone < numberOfTapsRequired {
            for t in touches where now - t.beganTimestamp > minimumPressDuration {
                state = .failed
                return
            }
            if down == 0 {
                inTap = false
                tapsDone += 1
                setTimer(at: now + maximumTapGap)
            }
            return
        }
        // Lifted before the duration elapsed.
        state = .failed
    }

    public override func timerFired() {
        if pressing && down == numberOfTouchesRequired {
            state = .began
        } else {
            state = .failed
        }
    }

    public override func reset() {
        tapsDone = 0
        inTap = false
        pressing = false
    }
}
