/// Recognizes one or more taps of one or more fingers. UIKit: `UITapGestureRecognizer`.
///
/// Rules (docs/DESIGN.md §3): every touch stays within ``allowableMovement`` (10 pt) of where it went
/// down and lifts within ``maximumTapDuration`` (0.5 s); the next tap of a multi-tap starts at
/// most ``maximumTapGap`` (0.3 s) after the previous lift and within ``maximumTapDistance``
/// (40 pt) of the first tap (no minimum gap); more touches than required fails at once, fewer
/// fails at the last lift. Recognized at the last lift of the last tap; the location is the
/// centroid of that tap's touches where they lifted.
///
/// *Within 40 pt of the first tap* compares centroids, so that the fingers of a multi-touch
/// tap may be any distance apart: the first tap's position is the centroid of its touches
/// where they lifted; a later tap's is the centroid of its touches where they landed, taken
/// when the last of its ``numberOfTouchesRequired`` touches lands (the check is made then, and
/// the tap fails at that touch-down when the distance is over 40 pt). With one touch per tap
/// that is the touch-down of the tap's only finger.
///
/// Deviations: UIKit's tolerances are undocumented; these are the project's, in the constants below.
/// A touch landing while a tap's other touches are still down belongs to the same tap.
@MainActor
public final class TapGestureRecognizer: GestureRecognizer {
    /// UIKit: `numberOfTapsRequired` (default 1).
    @exclusivity(unchecked) public var numberOfTapsRequired = 1
    /// UIKit: `numberOfTouchesRequired` (default 1).
    @exclusivity(unchecked) public var numberOfTouchesRequired = 1
    /// How far a touch may move from where it went down: 10 pt.
    @exclusivity(unchecked) public var allowableMovement = 10.0
    /// How long a touch may stay down: 0.5 s.
    @exclusivity(unchecked) public var maximumTapDuration = 0.5
    /// The longest pause between a lift and the next tap: 0.3 s.
    @exclusivity(unchecked) public var maximumTapGap = 0.3
    /// How far later taps may land from the first: 40 pt.
    @exclusivity(unchecked) public var maximumTapDistance = 40.0

    /// Completed taps in the current sequence.
    @exclusivity(unchecked) public private(set) var tapCount = 0
    /// Touches seen in the current tap.
    @exclusivity(unchecked) public private(set) var touchesInTap = 0
    @exclusivity(unchecked) private var tapInProgress = false
    @exclusivity(unchecked) private var firstTapLocation: Point?
    @exclusivity(unchecked) private var liftSumX = 0.0
    @exclusivity(unchecked) private var liftSumY = 0.0
    @exclusivity(unchecked) private var liftCount = 0
    /// Sum of the landing points of the current tap's touches.
    @exclusivity(unchecked) private var landSumX = 0.0
    @exclusivity(unchecked) private var landSumY = 0.0
    @exclusivity(unchecked) private var tapLocation: Point?

    public required init(name: String? = nil) {
        super.init(builtIn: .tap, name: name, continuous: false)
    }

    public override var logValues: GestureValues {
        .tap(taps: state == .ended ? numberOfTapsRequired : tapCount, touches: touchesInTap)
    }

    public override var locationInWindow: Point {
        if let tapLocation { return tapLocation }
        return super.locationInWindow
    }

    public override func touchesBegan(_ touches: [Touch]) {
        for touch in touches {
            if !tapInProgress {
                tapInProgress = true
                touchesInTap = 0
                liftSumX = 0
                liftSumY = 0
                liftCount = 0
                landSumX = 0
                landSumY = 0
                cancelTimer()
            }
            touchesInTap += 1
            if touchesInTap > numberOfTouchesRequired {
                state = .failed
                return
            }
            landSumX += touch.initialLocationInWindow.x
            landSumY += touch.initialLocationInWindow.y
            // A later tap of a multi-tap: its centroid, once all its touches are down, within
            // `maximumTapDistance` of the first tap's.
            if touchesInTap == numberOfTouchesRequired, tapCount > 0, let first = firstTapLocation {
                let n = Double(touchesInTap)
                let landed = Point(x: landSumX / n, y: landSumY / n)
                if !(landed.distance(to: first) <= maximumTapDistance) {
                    state = .failed
                    return
                }
            }
        }
        armDurationTimer()
    }

    public override func touchesMoved(_ touches: [Touch]) {
        for touch in touches where movedTooFar(touch) {
            state = .failed
            return
        }
    }

    public override func touchesEnded(_ touches: [Touch]) {
        for touch in touches {
            if movedTooFar(touch) || now - touch.beganTimestamp > maximumTapDuration {
                state = .failed
                return
            }
            liftSumX += touch.locationInWindow.x
            liftSumY += touch.locationInWindow.y
            liftCount += 1
        }
        guard numberOfDownTouches == 0 else {
            armDurationTimer()
            return
        }
        // The tap is complete.
        tapInProgress = false
        cancelTimer()
        if touchesInTap < numberOfTouchesRequired {
            state = .failed
            return
        }
        let c = Point(x: liftSumX / Double(liftCount), y: liftSumY / Double(liftCount))
        if firstTapLocation == nil { firstTapLocation = c }
        tapCount += 1
        if tapCount >= numberOfTapsRequired {
            tapLocation = c
            state = .recognized
        } else {
            tapLocation = c
            setTimer(at: now + maximumTapGap)
        }
    }

    public override func timerFired() {
        state = .failed
    }

    public override func reset() {
        tapCount = 0
        touchesInTap = 0
        tapInProgress = false
        firstTapLocation = nil
        tapLocation = nil
    }

    private func movedTooFar(_ touch: Touch) -> Bool {
        !(touch.locationInWindow.distance(to: touch.initialLocationInWindow) <= allowableMovement)
    }

    /// The hold limit: the earliest touch still down must lift within `maximumTapDuration`.
    private func armDurationTimer() {
        var earliest = Double.infinity
        for t in self.touches where t.phase == .began || t.phase == .moved {
            earliest = min(earliest, t.beganTimestamp)
        }
        if earliest.isFinite { setTimer(at: earliest + maximumTapDuration) }
    }
}
