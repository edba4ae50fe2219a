/// A rectangle in a tree of views, with the geometry of `UIView`: `center` and `bounds` place it
/// in its superview, and `transform` applies about its centre (UIKit's default anchor point).
/// The root of a tree is the window: its coordinate space is window points.
///
/// Drawing (UIKit's model without layers): a window that draws its tree (GestureX11's
/// `GestureWindow`) paints each visible view back to front — its ``backgroundColor``, then its
/// ``draw(_:in:)``, clipped to its bounds, then its subviews — with ``alpha`` applied to the view
/// and its subviews together. A change to the geometry, colour, alpha or visibility, or a
/// ``setNeedsDisplay()``, redraws only the parts of the window the view covered and covers.
///
/// Deviations from UIKit: no layers, no `anchorPoint`, no `contentMode` on plain views (only
/// `ImageView`'s); `frame` with a non-identity
/// transform reads as the bounding box of the transformed bounds (as UIKit does) and setting it
/// sets `center` and `bounds.size` regardless of the transform (UIKit leaves that undefined).
@MainActor
open class View {
    /// For logs and debugging.
    @exclusivity(unchecked) public var name: String
    @exclusivity(unchecked) public var center: Point { didSet { geometryChanged() } }
    @exclusivity(unchecked) public var bounds: Rect { didSet { geometryChanged() } }
    /// Applied about the centre. UIKit: `UIView.transform`.
    @exclusivity(unchecked) public var transform: AffineTransform = .identity { didSet { geometryChanged() } }
    /// UIKit: `isUserInteractionEnabled`. A view with it off (and its subviews) is never hit.
    @exclusivity(unchecked) public var isUserInteractionEnabled = true
    /// UIKit: `isHidden`. Hidden views are never hit nor drawn (nor their subviews).
    @exclusivity(unchecked) public var isHidden = false { didSet { if isHidden != oldValue { setNeedsDisplay() } } }
    /// Painted over the bounds before ``draw(_:in:)``; nil (the default) paints nothing.
    /// UIKit: `backgroundColor`.
    @exclusivity(unchecked) public var backgroundColor: Color? {
        didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
    }
    /// Whether the subviews are drawn only within this view's bounds (UIKit: `clipsToBounds`,
    /// default false; a ``ScrollView`` sets it). Hit testing never reaches a subview outside its
    /// superview's bounds anyway.
    @exclusivity(unchecked) public var clipsToBounds = false {
        didSet { if clipsToBounds != oldValue { setNeedsDisplay() } }
    }
    /// The opacity of the view and its subviews, 0…1 (0 is not drawn). UIKit: `alpha` (a view
    /// with alpha 0 is still hit here; UIKit skips views under 0.01).
    @exclusivity(unchecked) public var alpha: Double = 1 { didSet { if alpha != oldValue { setNeedsDisplay() } } }
    /// Set on the root of a tree by the window that draws it: told of every change that needs a
    /// redraw (`geometry` true: the view or its subviews moved, resized, were added or removed).
    @exclusivity(unchecked) public var onDisplayChange: ((_ view: View, _ geometry: Bool) -> Void)? {
        didSet { View.observedRoots += (onDisplayChange == nil ? 0 : 1) - (oldValue == nil ? 0 : 1) }
    }
    /// How many trees a window observes. With none, a change is told to no one and needs no walk
    /// to the root, so a tree built before it is shown, or a headless one (the playground's), is
    /// built in linear time whatever its depth. (Under a window each change walks to the root:
    /// building a chain n deep there costs n²/2 steps.)
    private static var observedRoots = 0
    @exclusivity(unchecked) public private(set) weak var superview: View?
    @exclusivity(unchecked) public private(set) var subviews: [View] = []
    @exclusivity(unchecked) public private(set) var gestureRecognizers: [GestureRecognizer] = []

    public init(frame: Rect = .zero, name: String = "") {
        self.name = name
        self.center = frame.center
        self.bounds = Rect(origin: .zero, size: frame.size)
    }

    /// UIKit: `frame`.
    public var frame: Rect {
        get {
            let local = bounds
            let m = localToSuperview
            if transform.isIdentity {
                return Rect(
                    origin: Point(x: center.x - local.width / 2, y: center.y - local.height / 2), size: local.size)
            }
            return local.applying(m)
        }
        set {
            center = newValue.center
            bounds.size = newValue.size
        }
    }

    /// The transform that maps this view's coordinates to its superview's.
    public var localToSuperview: AffineTransform {
        // p' = center + T (p - boundsCenter)
        AffineTransform(translationX: -bounds.midX, y: -bounds.midY)
            .concatenating(transform)
            .concatenating(AffineTransform(translationX: center.x, y: center.y))
    }

    /// The transform that maps this view's coordinates to the window's (the root view's).
    public var localToWindow: AffineTransform {
        var m = AffineTransform.identity
        var v: View? = self
        while let view = v, let s = view.superview {
            m = m.concatenating(view.localToSuperview)
            v = s
        }
        return m
    }

    /// The root of this view's tree (the window).
    public var window: View {
        var v = self
        while let s = v.superview { v = s }
        return v
    }

    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        view.superview = self
        subviews.append(view)
        view.geometryChanged()
    }

    /// UIKit: `insertSubview(_:at:)` (index 0 is the back).
    public func insertSubview(_ view: View, at index: Int) {
        view.removeFromSuperview()
        view.superview = self
        subviews.insert(view, at: max(0, min(index, subviews.count)))
        view.geometryChanged()
    }

    public func removeFromSuperview() {
        guard let s = superview else { return }
        s.geometryChanged()
        s.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// Moves `view` (a subview) in front of its siblings. UIKit: `bringSubviewToFront(_:)`.
    public func bringSubviewToFront(_ view: View) {
        guard let i = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.append(subviews.remove(at: i))
        view.setNeedsDisplay()
    }

    /// Moves `view` (a subview) behind its siblings. UIKit: `sendSubviewToBack(_:)`.
    public func sendSubviewToBack(_ view: View) {
        guard let i = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.insert(subviews.remove(at: i), at: 0)
        view.setNeedsDisplay()
    }

    /// Asks for the view's area to be drawn again (its bounds, as they cover the window now).
    /// UIKit: `setNeedsDisplay()`.
    public func setNeedsDisplay() { notifyDisplay(geometry: false) }

    /// The view or its subtree moved: the window compares where each view was and is.
    private func geometryChanged() { notifyDisplay(geometry: true) }

    private func notifyDisplay(geometry: Bool) {
        guard View.observedRoots > 0 else { return }
        var v = self
        while let s = v.superview { v = s }
        v.onDisplayChange?(self, geometry)
    }

    /// Draws the view's content in its own coordinates, after its ``backgroundColor``, clipped to
    /// its bounds; `rect` is the part of the bounds being redrawn. The default draws nothing.
    /// UIKit: `draw(_:)`, with the context passed in rather than fetched.
    open func draw(_ rect: Rect, in context: GraphicsContext) {}

    /// UIKit: `addGestureRecognizer(_:)`. A recognizer belongs to one view at a time.
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        recognizer.view = self
        gestureRecognizers.append(recognizer)
    }

    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard recognizer.view === self else { return }
        recognizer.detachedFromView()
        gestureRecognizers.removeAll { $0 === recognizer }
        recognizer.view = nil
    }

    /// `point` (in this view's coordinates) converted to `view`'s coordinates; `nil` means the
    /// window. UIKit: `convert(_:to:)`.
    public func convert(_ point: Point, to view: View?) -> Point {
        let w = point.applying(localToWindow)
        guard let view else { return w }
        return w.applying(view.localToWindow.inverted())
    }

    /// `point` in `view`'s coordinates (`nil`: the window) converted to this view's.
    /// UIKit: `convert(_:from:)`.
    public func convert(_ point: Point, from view: View?) -> Point {
        let w = view.map { point.applying($0.localToWindow) } ?? point
        return w.applying(localToWindow.inverted())
    }

    /// A vector (no translation) from this view's coordinates to `view`'s (`nil`: the window).
    public func convert(_ vector: Vector, to view: View?) -> Vector {
        let w = vector.applying(localToWindow)
        guard let view else { return w }
        return w.applying(view.localToWindow.inverted())
    }

    /// UIKit: `point(inside:with:)`: inside the bounds.
    open func point(inside point: Point) -> Bool {
        bounds.contains(point)
    }

    /// The deepest visible, interactive view containing `point` (in this view's coordinates),
    /// searching subviews front to back (the last added is in front). UIKit: `hitTest(_:with:)`.
    ///
    /// Deviation: the walk down the tree is a loop, not a recursion (a tree of any depth is
    /// walked without running out of stack): it asks each view below this one its
    /// ``point(inside:)``, not its `hitTest`. Override `point(inside:)` to change where a view
    /// is hit; an override of `hitTest` applies where it is called (the dispatcher calls the
    /// root's).
    open func hitTest(_ point: Point) -> View? {
        guard accepts(point) else { return nil }
        var view = self
        var p = point
        // A subview that takes the point holds the answer (UIKit's recursion returns nil only
        // for a view that does not take it): go down into the frontmost one, level by level.
        descending: while true {
            var i = view.subviews.count
            while i > 0 {
                i -= 1
                let sub = view.subviews[i]
                let q = p.applying(sub.localToSuperview.inverted())
                if sub.accepts(q) {
                    view = sub
                    p = q
                    continue descending
                }
            }
            return view
        }
    }

    /// Interactive, visible and containing `point` (this view's coordinates).
    private func accepts(_ point: Point) -> Bool {
        isUserInteractionEnabled && !isHidden && point.isFinite && self.point(inside: point)
    }

    /// Releases a deep tree without recursion: the subviews that go with this view (no one
    /// else holds them) hand their own subviews to a list first, so no release runs a deinit
    /// that releases the next level inside it.
    isolated deinit {
        if onDisplayChange != nil { View.observedRoots -= 1 }
        var pending = subviews
        subviews = []
        while var view = pending.popLast() {
            if isKnownUniquelyReferenced(&view) {
                pending.append(contentsOf: view.subviews)
                view.subviews = []
            }
        }
    }

    // MARK: Raw touches (UIResponder)

    /// The view's own touch handling, after the recognizers have seen the touches.
    /// UIKit: `touchesBegan(_:with:)` and friends. Once a recognizer with `cancelsTouchesInView`
    /// begins or recognizes, the view gets `touchesCancelled` for its touches and nothing more of them.
    open func touchesBegan(_ touches: [Touch]) {}
    open func touchesMoved(_ touches: [Touch]) {}
    open func touchesEnded(_ touches: [Touch]) {}
    open func touchesCancelled(_ touches: [Touch]) {}
}

/// One finger on the screen while it is down. UIKit: `UITouch`.
@MainActor
public final class Touch {
    /// The id from the input (unique while the touch is down).
    public let id: Int
    /// The view the touch hit when it went down (UIKit: `view`); it keeps the touch when the
    /// finger leaves it.
    @exclusivity(unchecked) public internal(set) var view: View?
    @exclusivity(unchecked) public internal(set) var phase: TouchPhase
    /// Window points.
    @exclusivity(unchecked) public internal(set) var locationInWindow: Point
    @exclusivity(unchecked) public internal(set) var previousLocationInWindow: Point
    /// Where the touch went down, window points.
    public let initialLocationInWindow: Point
    /// When the touch went down / last changed, seconds.
    public let beganTimestamp: Double
    @exclusivity(unchecked) public internal(set) var timestamp: Double
    /// The recognizers the touch is delivered to (hit view's, then its ancestors').
    @exclusivity(unchecked) public internal(set) var gestureRecognizers: [GestureRecognizer] = []
    /// True while the touch is in the dispatcher's list for the current frame.
    @exclusivity(unchecked) var isInFrame = false
    /// Set once a recognizer with `cancelsTouchesInView` took the touch from its view.
    @exclusivity(unchecked) public internal(set) var isCancelledForView = false
    /// The dispatcher's serial number of the touch (unique for the dispatcher's life): recognizers
    /// that received the same serial compete for it.
    let serial: UInt64

    init(id: Int, serial: UInt64 = 0, view: View?, location: Point, timestamp: Double) {
        self.id = id
        self.serial = serial
        self.view = view
        self.phase = .began
        self.locationInWindow = location
        self.previousLocationInWindow = location
        self.initialLocationInWindow = location
        self.beganTimestamp = timestamp
        self.timestamp = timestamp
    }

    /// UIKit: `location(in:)`; `nil` means the window.
    public func location(in view: View?) -> Point {
        guard let view else { return locationInWindow }
        return view.convert(locationInWindow, from: nil)
    }

    /// UIKit: `previousLocation(in:)`.
    public func previousLocation(in view: View?) -> Point {
        guard let view else { return previousLocationInWindow }
        return view.convert(previousLocationInWindow, from: nil)
    }
}
