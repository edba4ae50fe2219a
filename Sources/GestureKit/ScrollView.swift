/// A view that scrolls and zooms its content. UIKit: `UIScrollView`.
///
/// As in UIKit the content is the scroll view's subviews, placed in content coordinates; the
/// ``contentOffset`` is the origin of ``View/bounds``, so moving it moves every subview; the
/// scroll view clips them to its bounds (``View/clipsToBounds`` is on). Its own
/// ``panGestureRecognizer`` drags the content one for one within the limits and, when
/// ``bounces``, past them on a rubber band (``ScrollPhysics/rubberBand(_:dimension:coefficient:)``);
/// on lift the content decelerates at ``decelerationRate`` (UIKit's 0.998 per ms), bounces at an
/// edge it reaches and springs back to an edge it was released past. Zooming works as UIKit's:
/// the delegate's ``ScrollViewDelegate/viewForZooming(in:)`` names a subview, and with
/// ``minimumZoomScale`` < ``maximumZoomScale`` the ``pinchGestureRecognizer`` scales it about
/// the fingers (its `transform` becomes a scale of ``zoomScale``, its frame's origin (0, 0), and
/// ``contentSize`` its scaled size), on a rubber band past the limits when ``bouncesZoom``, and
/// springs back to the limit on lift.
///
/// Input: a wheel and a touchpad's two-finger scroll drag the content (the pan's
/// `allowedScrollTypesMask` is `.all`); Ctrl+wheel and a touchpad pinch (XI 2.4) zoom about the
/// pointer (they reach the pinch). Motions run on the dispatcher's clock (``scheduler``).
///
/// Deviations from UIKit:
/// - Scroll input and touchpad pinches stop at the limits instead of stretching past them (they
///   have no lift to spring back from).
/// - Motions need the dispatcher's ``Scheduler``: the scroll view takes it from the first input
///   that reaches its recognizers. Before any input, set ``scheduler`` (e.g. to a window's
///   `dispatcher.scheduler`) for an animated ``setContentOffset(_:animated:)``; without one the
///   change is made at once (and the delegate told as if the animation had ended).
/// - Double-tap zoom is built in but off (UIKit leaves it to the app): set ``zoomsOnDoubleTap``.
/// - A touch that lands stops a fling, as UIKit's does (with no
///   ``ScrollViewDelegate/scrollViewDidEndDecelerating(_:)``); a spring back goes on until the
///   touch drags.
/// - No paging, scroll indicators, `contentInsetAdjustmentBehavior`, `directionalLockEnabled`
///   or `delaysContentTouches`; a fling cannot be redirected (no `targetContentOffset`).
@MainActor
open class ScrollView: View {
    /// UIKit: `delegate`.
    public weak var delegate: (any ScrollViewDelegate)?
    /// The size of the content, in content coordinates. UIKit: `contentSize`. A zoom sets it to
    /// the zooming view's scaled size.
    public var contentSize = Size.zero
    /// Room around the content the offset may scroll into. UIKit: `contentInset`.
    public var contentInset = EdgeInsets.zero
    /// UIKit: `bounces`: the content follows a drag past an edge on a rubber band and springs back.
    public var bounces = true
    /// UIKit: `alwaysBounceVertical` / `alwaysBounceHorizontal`: bounce along an axis even when
    /// the content is no larger than the view along it.
    public var alwaysBounceVertical = false
    public var alwaysBounceHorizontal = false
    /// UIKit: `bouncesZoom`: a pinch stretches past the zoom limits and springs back.
    public var bouncesZoom = true
    /// UIKit: `minimumZoomScale` / `maximumZoomScale` (default 1 and 1: no zooming).
    public var minimumZoomScale = 1.0
    public var maximumZoomScale = 1.0
    /// UIKit: `decelerationRate`.
    public var decelerationRate = DecelerationRate.normal
    /// UIKit: `isScrollEnabled`: whether the pan drags the content.
    public var isScrollEnabled = true { didSet { panGestureRecognizer.isEnabled = isScrollEnabled } }
    /// UIKit: `isDragging`: a drag (finger or scroll input) is in progress.
    public private(set) var isDragging = false
    /// UIKit: `isDecelerating`: the content moves on its own after a drag.
    public private(set) var isDecelerating = false
    /// UIKit: `isZooming`: a pinch is zooming.
    public internal(set) var isZooming = false
    /// UIKit: `panGestureRecognizer` (do not change its delegate).
    public let panGestureRecognizer: PanGestureRecognizer = ScrollPan(name: "scrollPan")
    /// UIKit: `pinchGestureRecognizer` (UIKit's is nil while zooming is off; here it always exists
    /// and does nothing then).
    public let pinchGestureRecognizer = PinchGestureRecognizer(name: "scrollPinch")
    /// The double-tap zoom's recognizer (two taps), enabled by ``zoomsOnDoubleTap``. UIKit has none.
    public let doubleTapGestureRecognizer = TapGestureRecognizer(name: "scrollDoubleTap")
    /// Double-tap zoom, which UIKit apps write themselves: off by default. On, a double tap
    /// zooms in to ``doubleTapZoomScale`` about the tap, or, when already zoomed in past
    /// ``minimumZoomScale``, back out to it (animated, then
    /// ``ScrollViewDelegate/scrollViewDidEndZooming(_:with:atScale:)``).
    public var zoomsOnDoubleTap = false { didSet { doubleTapGestureRecognizer.isEnabled = zoomsOnDoubleTap } }
    /// The scale a double tap zooms in to; nil (the default) means ``maximumZoomScale``.
    public var doubleTapZoomScale: Double?
    /// The clock motions run on (the dispatcher's; see the type's deviations).
    public weak var scheduler: Scheduler?

    var scale = 1.0
    private var dragStart = Point.zero
    var dragNeedsStart = false
    var pinchStartScale = 1.0
    /// Whether the pinch in progress stretches past the zoom limits (fingers with `bouncesZoom`).
    var pinchBands = false
    /// The zooming view's point under the pinch (its own coordinates) when the pinch began.
    var pinchAnchor = Point.zero
    private var motion: Motion?
    private var motionStart = 0.0
    private var motionFrame = 0
    private var tick: Scheduler.Token?
    private let together = ScrollRecognizerDelegate()

    enum Motion {
        case glide(Glide, Glide)
        case transition(ZoomTransition, endsZoom: Bool)
    }

    public override init(frame: Rect = .zero, name: String = "") {
        super.init(frame: frame, name: name)
        clipsToBounds = true
        panGestureRecognizer.allowedScrollTypesMask = .all
        panGestureRecognizer.delegate = together
        pinchGestureRecognizer.delegate = together
        together.members = [ObjectIdentifier(panGestureRecognizer), ObjectIdentifier(pinchGestureRecognizer)]
        (panGestureRecognizer as? ScrollPan)?.scrollView = self
        doubleTapGestureRecognizer.numberOfTapsRequired = 2
        doubleTapGestureRecognizer.isEnabled = false
        panGestureRecognizer.addTarget { [unowned self] in self.panned($0) }
        pinchGestureRecognizer.addTarget { [unowned self] in self.pinched($0) }
        doubleTapGestureRecognizer.addTarget { [unowned self] in self.doubleTapped($0) }
        for r in [panGestureRecognizer, pinchGestureRecognizer, doubleTapGestureRecognizer] as [GestureRecognizer] {
            addGestureRecognizer(r)
        }
    }

    // MARK: Offset

    /// The point of the content at the view's top-left corner: the origin of ``View/bounds``.
    /// UIKit: `contentOffset`. Setting it tells the delegate
    /// ``ScrollViewDelegate/scrollViewDidScroll(_:)`` (non-finite values are ignored).
    public var contentOffset: Point {
        get { bounds.origin }
        set {
            guard newValue.isFinite, newValue != bounds.origin else { return }
            bounds.origin = newValue
            delegate?.scrollViewDidScroll(self)
        }
    }

    /// UIKit: `setContentOffset(_:animated:)`: stops any motion, then moves there (animated:
    /// eased over 0.3 s, then ``ScrollViewDelegate/scrollViewDidEndScrollingAnimation(_:)``).
    /// The offset is taken as given, as UIKit does (it may lie past the limits).
    public func setContentOffset(_ offset: Point, animated: Bool) {
        stopMotion()
        guard animated else {
            contentOffset = offset
            return
        }
        let t = ZoomTransition(
            fromScale: scale, toScale: scale, fromOffset: contentOffset, toOffset: offset,
            curve: .easeOut(duration: ScrollMotion.animationDuration))
        start(.transition(t, endsZoom: false))
    }

    /// The offsets the content rests within (UIKit's: the content and its insets, and never
    /// before the top-left inset).
    var offsetLimits: (lower: Point, upper: Point) {
        let lower = Point(x: -contentInset.left, y: -contentInset.top)
        let upper = Point(
            x: max(lower.x, contentSize.width + contentInset.right - bounds.width),
            y: max(lower.y, contentSize.height + contentInset.bottom - bounds.height))
        return (lower, upper)
    }

    func clamped(_ p: Point) -> Point {
        let (lo, hi) = offsetLimits
        return Point(x: min(max(p.x, lo.x), hi.x), y: min(max(p.y, lo.y), hi.y))
    }

    /// Whether the content bounces along x / y.
    private var bouncesAlong: (x: Bool, y: Bool) {
        let (lo, hi) = offsetLimits
        return (bounces && (alwaysBounceHorizontal || hi.x > lo.x), bounces && (alwaysBounceVertical || hi.y > lo.y))
    }

    /// `raw` (where the fingers would put the offset) as shown: within the limits as it is,
    /// past them on the rubber band (or held at the limit along an axis that does not bounce).
    private func banded(_ raw: Point, stretch: Bool = true) -> Point {
        let (lo, hi) = offsetLimits
        let along = bouncesAlong
        func band(_ x: Double, _ lo: Double, _ hi: Double, _ d: Double, _ on: Bool) -> Double {
            guard on && stretch else { return min(max(x, lo), hi) }
            if x < lo { return lo - ScrollPhysics.rubberBand(lo - x, dimension: d) }
            if x > hi { return hi + ScrollPhysics.rubberBand(x - hi, dimension: d) }
            return x
        }
        return Point(
            x: band(raw.x, lo.x, hi.x, bounds.width, along.x), y: band(raw.y, lo.y, hi.y, bounds.height, along.y))
    }

    /// The inverse of ``banded(_:stretch:)``: where the fingers would be for what is shown (a
    /// drag that catches the content past an edge goes on from there without a jump).
    private func unbanded(_ shown: Point) -> Point {
        let (lo, hi) = offsetLimits
        func unband(_ y: Double, _ lo: Double, _ hi: Double, _ d: Double) -> Double {
            let past = y < lo ? lo - y : (y > hi ? y - hi : 0)
            guard past > 0, past < d, d > 0 else { return y }
            let x = past / (0.55 * (1 - past / d))
            return y < lo ? lo - x : hi + x
        }
        return Point(x: unband(shown.x, lo.x, hi.x, bounds.width), y: unband(shown.y, lo.y, hi.y, bounds.height))
    }

    // MARK: Dragging

    private func panned(_ pan: PanGestureRecognizer) {
        adoptScheduler(of: pan)
        switch pan.state {
        case .began:
            stopMotion()
            isDragging = true
            // A finger's drag goes on from where the pan began (the content does not jump by the
            // pan's 10 pt slop); a scroll's first step already moves it.
            dragStart = unbanded(contentOffset) + (pan.scrollType == nil ? pan.translation(in: self) : .zero)
            dragNeedsStart = false
            delegate?.scrollViewWillBeginDragging(self)
            drag(pan)
        case .changed:
            drag(pan)
        case .ended, .cancelled:
            isDragging = false
            dragNeedsStart = false
            guard !isZooming, motion == nil else {
                delegate?.scrollViewDidEndDragging(self, willDecelerate: false)
                return
            }
            let v = pan.state == .ended ? pan.velocity(in: self) : .zero
            settle(velocity: Vector(dx: -v.dx, dy: -v.dy))
        default:
            break
        }
    }

    /// Follows the pan (not while a pinch zooms or a zoom springs back: the drag goes on from
    /// where they leave the content).
    private func drag(_ pan: PanGestureRecognizer) {
        guard !isZooming, motion == nil else {
            dragNeedsStart = true
            return
        }
        let t = pan.translation(in: self)
        if dragNeedsStart {
            dragNeedsStart = false
            dragStart = unbanded(contentOffset) + t
        }
        contentOffset = banded(dragStart - t, stretch: pan.scrollType == nil)
    }

    /// After a drag: a fling with `velocity` (offset points per second), a spring back, or rest.
    private func settle(velocity: Vector) {
        let (lo, hi) = offsetLimits
        let along = bouncesAlong
        let rate = decelerationRate.rawValue
        let o = contentOffset
        let gx = Glide(start: o.x, velocity: velocity.dx, lower: lo.x, upper: hi.x, rate: rate, bounces: along.x)
        let gy = Glide(start: o.y, velocity: velocity.dy, lower: lo.y, upper: hi.y, rate: rate, bounces: along.y)
        let moves = !(gx.position(at: 0).done && gy.position(at: 0).done)
        delegate?.scrollViewDidEndDragging(self, willDecelerate: moves)
        guard moves else { return }
        delegate?.scrollViewWillBeginDecelerating(self)
        start(.glide(gx, gy))
    }

    // MARK: Motion

    func adoptScheduler(of r: GestureRecognizer) {
        if let s = r.dispatcher?.scheduler { scheduler = s }
    }

    func start(_ m: Motion) {
        stopMotion()
        motion = m
        if case .glide = m { isDecelerating = true }
        guard let s = scheduler else {
            step(at: .infinity)
            return
        }
        motionStart = s.now
        motionFrame = 0
        schedule()
    }

    private func schedule() {
        guard let s = scheduler else { return }
        motionFrame += 1
        let t = Double(motionFrame) / ScrollMotion.framesPerSecond
        tick = s.schedule(at: motionStart + t) { [weak self] in
            guard let self else { return }
            self.tick = nil
            self.step(at: t)
        }
    }

    /// Moves to where the motion is `t` seconds in; ends it (and tells the delegate) when done.
    private func step(at t: Double) {
        guard let m = motion else { return }
        let done: Bool
        switch m {
        case .glide(let gx, let gy):
            let x = gx.position(at: t)
            let y = gy.position(at: t)
            contentOffset = Point(x: x.value, y: y.value)
            done = x.done && y.done
        case .transition(let z, _):
            let s = z.state(at: t)
            place(scale: s.scale, offset: s.offset)
            done = s.done
        }
        guard done else { return schedule() }
        motion = nil
        switch m {
        case .glide:
            isDecelerating = false
            delegate?.scrollViewDidEndDecelerating(self)
        case .transition(_, let endsZoom):
            if endsZoom {
                delegate?.scrollViewDidEndZooming(self, with: zoomView, atScale: scale)
            } else {
                delegate?.scrollViewDidEndScrollingAnimation(self)
            }
        }
    }

    /// A touch landed: a fling stops where it is (a spring back goes on: it must reach the edge).
    func touchLanded() {
        guard case .glide(let gx, let gy) = motion else { return }
        let inside = { (g: Glide) in g.start >= g.lower && g.start <= g.upper }
        guard inside(gx) && inside(gy), clamped(contentOffset) == contentOffset else { return }
        stopMotion()
    }

    /// Stops a motion where it is (no delegate call, as when UIKit's is caught by a touch).
    func stopMotion() {
        scheduler?.cancel(tick)
        tick = nil
        motion = nil
        isDecelerating = false
    }
}

extension ScrollView {
    /// UIKit: `UIScrollView.DecelerationRate`: the share of its velocity a fling keeps every
    /// millisecond.
    public struct DecelerationRate: Hashable, Sendable, RawRepresentable {
        public var rawValue: Double
        public init(rawValue: Double) { self.rawValue = rawValue }
        /// 0.998.
        public static let normal = DecelerationRate(rawValue: ScrollPhysics.normalDecelerationRate)
        /// 0.99.
        public static let fast = DecelerationRate(rawValue: ScrollPhysics.fastDecelerationRate)
    }
}

/// The scroll view's pan: a touch that lands on the content stops a fling (UIKit's catch).
@MainActor
private final class ScrollPan: PanGestureRecognizer {
    weak var scrollView: ScrollView?

    override func touchesBegan(_ touches: [Touch]) {
        scrollView?.touchLanded()
        super.touchesBegan(touches)
    }
}

/// The scroll view's pan and pinch recognize together (and with nothing else).
@MainActor
private final class ScrollRecognizerDelegate: GestureRecognizerDelegate {
    var members: [ObjectIdentifier] = []

    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        members.contains(ObjectIdentifier(recognizer)) && members.contains(ObjectIdentifier(other))
    }
}
