/// Recognizes a drag of one or more fingers. UIKit: `UIPanGestureRecognizer` (continuous).
///
/// Rules (docs/DESIGN.md §3): began once the centroid has moved more than ``minimumMovement`` (10 pt)
/// with a number of touches down inside ``minimumNumberOfTouches``…``maximumNumberOfTouches``;
/// ``translation(in:)`` is measured from the touch-down centroid (the 10 pt are not subtracted);
/// a change in the number of fingers re-bases the centroid so the translation does not jump;
/// ended when the number of touches falls below the minimum. ``setTranslation(_:in:)`` re-bases
/// and zeroes the velocity.
///
/// Deviations: it begins only while the number of touches down is inside the limits; once it
/// has begun, touches beyond the maximum are ignored (they neither count nor move the
/// centroid); the event log reports `translation` and `velocity` in window points, i.e.
/// `translation(in: nil)`.
@MainActor
public class PanGestureRecognizer: GestureRecognizer {
    /// UIKit: `minimumNumberOfTouches` (1).
    @exclusivity(unchecked) public var minimumNumberOfTouches = 1
    /// UIKit: `maximumNumberOfTouches` (unlimited).
    @exclusivity(unchecked) public var maximumNumberOfTouches = Int.max {
        didSet { centroidEpoch = 0 }
    }
    /// The movement that begins the gesture: 10 pt.
    @exclusivity(unchecked) public var minimumMovement = 10.0
    /// UIKit: `allowedScrollTypesMask` (default none): the scroll input this pan takes, from the
    /// view under the pointer (``TouchDispatcher/handle(_:)-(ScrollInput)``). A scroll sequence
    /// pans like a finger: it begins at the first event that moves (no 10 pt threshold, as on
    /// iPadOS), `translation` is the sum of the events' deltas, `velocity` is fitted over them
    /// as for touches, and it ends ``TouchDispatcher/scrollEndDelay`` after the last event (by
    /// then the velocity reads zero: a scroll leaves no fling). `numberOfTouches` reads 0.
    @exclusivity(unchecked) public var allowedScrollTypesMask: ScrollTypeMask = []
    /// The type of the scroll sequence in progress (nil: none).
    @exclusivity(unchecked) public private(set) var scrollType: ScrollType?
    @exclusivity(unchecked) private var scrollTranslation = Vector.zero

    /// Window-space translation accumulated before the current base.
    @exclusivity(unchecked) var offset = Vector.zero
    @exclusivity(unchecked) var base: Point?
    @exclusivity(unchecked) var baseCount = 0
    let tracker = VelocityTracker()
    /// `countedCentroid`'s last result (0: none), valid while the dispatcher's `touchEpoch` is
    /// this: the centroid is asked for several times per frame (update, location, log values,
    /// translation).
    @exclusivity(unchecked) private var centroidEpoch: UInt64 = 0
    @exclusivity(unchecked) private var cachedCentroid = Point.zero
    @exclusivity(unchecked) private var cachedCount = 0

    public required init(name: String? = nil) {
        super.init(builtIn: .pan, name: name, continuous: true)
    }

    init(kind: GestureKind, name: String?) {
        super.init(builtIn: kind, name: name, continuous: true)
    }

    public override var logValues: GestureValues {
        .pan(translation: windowTranslation, velocity: velocityForLog ? windowVelocity : .zero)
    }

    /// The touches that count (down, first `maximumNumberOfTouches` of them).
    func countedCentroid() -> (Point, Int) {
        let epoch = dispatcher?.touchEpoch ?? 0
        if epoch == 0 || epoch != centroidEpoch {
            let (c, n) = computeCountedCentroid()
            centroidEpoch = epoch
            cachedCentroid = c
            cachedCount = n
        }
        if cachedCount == 0 { return (base ?? .zero, 0) }
        return (cachedCentroid, cachedCount)
    }

    private func computeCountedCentroid() -> (Point, Int) {
        var x = 0.0
        var y = 0.0
        var n = 0
        let limit = maximumNumberOfTouches
        // Indexing, not `for … in`: the loop then needs no retain of the list or its touches.
        var i = 0
        while i < touches.count && n < limit {
            let phase = touches[i].phase
            if phase == .began || phase == .moved {
                let p = touches[i].locationInWindow
                x += p.x
                y += p.y
                n += 1
            }
            i += 1
        }
        if n == 0 { return (.zero, 0) }
        return (Point(x: x / Double(n), y: y / Double(n)), n)
    }

    /// The centroid of the counted touches *including those lifting in this frame*, at their
    /// lift positions: the set that was counted before the lift.
    func liftCentroid() -> (Point, Int) {
        var x = 0.0
        var y = 0.0
        var n = 0
        let limit = maximumNumberOfTouches
        var i = 0
        while i < touches.count && n < limit {
            if touches[i].phase != .cancelled {
                let p = touches[i].locationInWindow
                x += p.x
                y += p.y
                n += 1
            }
            i += 1
        }
        if n == 0 { return (base ?? .zero, 0) }
        return (Point(x: x / Double(n), y: y / Double(n)), n)
    }

    public override var locationInWindow: Point {
        let (c, n) = countedCentroid()
        return n > 0 ? c : super.locationInWindow
    }

    /// Translation in window points.
    var windowTranslation: Vector {
        if scrollType != nil { return offset + scrollTranslation }
        guard let base else { return offset }
        let (c, n) = countedCentroid()
        if n == 0 || n != baseCount { return offset + (lastCentroid - base) }
        return offset + (c - base)
    }
    @exclusivity(unchecked) private var lastCentroid = Point.zero

    var windowVelocity: Vector {
        let v = tracker.velocity(at: now)
        return Vector(dx: v.x, dy: v.y)
    }

    /// UIKit: `translation(in:)`: the translation since touch-down (or the last
    /// ``setTranslation(_:in:)``) as a vector in `view`'s coordinate space; `nil` is window points.
    ///
    /// The window-space translation is taken through the inverse of the linear part of `view`'s
    /// transform to the window (the transforms of `view` and of all its ancestors: rotation,
    /// scale, shear; translations do not move vectors), as UIKit's conversion between views does.
    /// On a view turned a quarter turn clockwise a drag of 20 pt to the right reads (0, −20); on
    /// a view scaled by 2 it reads (10, 0). The conversion uses the transforms at the moment of
    /// the call: to move a view with its own gesture, ask in a space that does not move with it
    /// (`view.superview`, UIKit's usual pattern). The event log reports `translation(in: nil)`.
    public func translation(in view: View?) -> Vector {
        toView(windowTranslation, view)
    }

    /// UIKit: `velocity(in:)`, points per second, in `view`'s coordinate space (`nil`: window),
    /// converted as ``translation(in:)``.
    public func velocity(in view: View?) -> Vector {
        toView(windowVelocity, view)
    }

    /// UIKit: `setTranslation(_:in:)`: re-bases the translation and zeroes the velocity;
    /// `translation` is in `view`'s coordinate space (`nil`: window points).
    public func setTranslation(_ translation: Vector, in view: View?) {
        let w = view.map { translation.applying($0.localToWindow) } ?? translation
        if scrollType != nil {
            offset = w
            scrollTranslation = .zero
            tracker.reset()
            return
        }
        let (c, n) = countedCentroid()
        offset = w
        base = c
        baseCount = n
        lastCentroid = c
        tracker.reset()
    }

    private func toView(_ v: Vector, _ view: View?) -> Vector {
        guard let view else { return v }
        return v.applying(view.localToWindow.inverted())
    }

    /// Re-bases when the number of counted touches changed, then records a sample (not at a
    /// lift: a lift is no movement, and a sample there would both damp a real fling and give a
    /// finger that had stopped a fling it does not have).
    func update(record: Bool = true) {
        let (c, n) = countedCentroid()
        if base == nil {
            base = c
            baseCount = n
            lastCentroid = c
        }
        if n != baseCount {
            offset = offset + (lastCentroid - base!)
            base = n > 0 ? c : lastCentroid
            baseCount = n
        }
        if n > 0 { lastCentroid = c }
        guard record else { return }
        // `windowTranslation` now (the count matches the base; with touches, `c` is the last
        // centroid).
        let t = offset + (lastCentroid - base!)
        tracker.add(time: now, x: t.dx, y: t.dy)
    }

    /// Whether the current touches may begin the gesture.
    func mayBegin(count n: Int) -> Bool {
        n >= minimumNumberOfTouches && n <= maximumNumberOfTouches
    }

    public override func touchesBegan(_ touches: [Touch]) {
        update()
    }

    public override func touchesMoved(_ touches: [Touch]) {
        update()
        if state == .possible {
            let down = numberOfDownTouches
            if mayBegin(count: down) && windowTranslation.length > minimumMovement { state = .began }
        } else if state.isActive {
            state = .changed
        }
    }

    public override func touchesEnded(_ touches: [Touch]) {
        // A finger may lift somewhere else than its last move (a trace's `up` line carries its
        // own position): the translation takes the lift position before the count re-bases.
        let (lift, liftCount) = liftCentroid()
        if base != nil && liftCount == baseCount && liftCount > 0 { lastCentroid = lift }
        update(record: false)
        let n = countedCentroid().1
        if state.isActive {
            if n < minimumNumberOfTouches { state = .ended } else { state = .changed }
        } else if state == .possible && !isPending && numberOfDownTouches == 0 {
            // Fail here, while the lifted touches still give the location.
            state = .failed
        }
    }

    public override var numberOfTouches: Int { scrollType != nil ? 0 : super.numberOfTouches }

    // MARK: Scroll input (TouchDispatcher+Scroll.swift)

    func scrollBegan(type: ScrollType) {
        scrollType = type
        scrollTranslation = .zero
        tracker.reset()
    }

    func scrolled(by delta: Vector) {
        scrollTranslation = scrollTranslation + delta
        let t = offset + scrollTranslation
        tracker.add(time: now, x: t.dx, y: t.dy)
        if state == .possible {
            if t != .zero { state = .began }
        } else if state.isActive {
            state = .changed
        }
    }

    func scrollEnded(cancelled: Bool) {
        if state.isActive {
            state = cancelled ? .cancelled : .ended
        } else if state == .possible {
            state = .failed
        }
    }

    public override func reset() {
        scrollType = nil
        scrollTranslation = .zero
        centroidEpoch = 0
        offset = .zero
        base = nil
        baseCount = 0
        tracker.reset()
    }
}
