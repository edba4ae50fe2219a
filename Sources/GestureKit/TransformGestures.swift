/// A pan, a pinch and a rotation on one view that recognize together and move the view so that
/// what lies under the fingers stays under them — the card or photo you push, spread and turn
/// with two fingers.
///
/// UIKit has no single class for this; Apple's articles on pinch and rotation recommend the
/// pattern this implements: cache the view's transform when a gesture begins and apply the
/// gestures' *absolute* values (translation, scale, rotation since touch-down) to it. Done in
/// each action separately, that pattern loses values when the three run at once (each action
/// overwrites what the others applied); here one session holds all three:
///
/// - When any of the three begins, the session starts again from the view's current place: the
///   values already applied become offsets, and the **pivot** is the fingers' touch-down centroid
///   moved by the translation so far.
/// - On every change the view's window matrix becomes
///   `session ∘ translate(−pivot) ∘ scale(s) ∘ rotate(θ) ∘ translate(pivot + t)`, with `t`, `s`
///   and `θ` the pan's translation, the pinch's scale and the rotation's angle since the session
///   began. Each touch-down point of the content thus follows its finger.
/// - The session ends when none of the three is active.
///
/// The view moves once per input instant, after every recognizer has seen it (so the three
/// values of one frame are applied together, and an action of yours that reads the view's
/// transform sees the previous frame's place); ``onChange`` is called then.
///
/// The recognizers are added to `view` and allowed to recognize simultaneously with each other
/// (their delegate; set your own and call ``recognizesTogether(_:_:)`` from it to keep that).
/// The helper lives as long as the view's recognizers (their actions hold it); it holds the
/// view unowned.
@MainActor
public final class TransformGestures {
    /// The view moved. (Its `center` and `transform` are set; `bounds` is untouched.)
    public unowned let view: View
    public let pan: PanGestureRecognizer
    public let pinch: PinchGestureRecognizer
    public let rotation: RotationGestureRecognizer
    /// Called after every change of the view's place (once per input instant).
    @exclusivity(unchecked) public var onChange: ((TransformGestures) -> Void)?
    /// Called when the session ends (none of the three is active any more), after the last
    /// ``onChange``: where an app starts a fling or a spring back, from ``panVelocity``,
    /// ``pinchVelocity`` and ``rotationVelocity`` (the recognizers have reset by then: theirs
    /// read zero).
    @exclusivity(unchecked) public var onSessionEnd: ((TransformGestures) -> Void)?
    /// The pan's velocity when it ended (the lift velocity), window points per second; zero
    /// while it is active or when it took no part. UIKit: the velocity
    /// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)` passes.
    @exclusivity(unchecked) public private(set) var panVelocity = Vector.zero
    /// The pinch's velocity when it ended, scale per second (as ``panVelocity``).
    @exclusivity(unchecked) public private(set) var pinchVelocity = 0.0
    /// The rotation's velocity when it ended, radians per second (as ``panVelocity``).
    @exclusivity(unchecked) public private(set) var rotationVelocity = 0.0
    @exclusivity(unchecked) private var dirty = false
    /// The dispatcher this helper registered with (at its first action).
    @exclusivity(unchecked) private unowned(unsafe) var registeredWith: TouchDispatcher?

    private let togetherness = Together()
    @exclusivity(unchecked) private var inSession = false
    @exclusivity(unchecked) private var session = AffineTransform.identity
    /// The superview's window-to-local matrix, taken when the session (re)starts (a view does
    /// not change parents in the middle of a gesture), so a change does no tree walk.
    @exclusivity(unchecked) private var parentInverse = AffineTransform.identity
    @exclusivity(unchecked) private var pivot = Point.zero
    @exclusivity(unchecked) private var panIn = false
    @exclusivity(unchecked) private var pinchIn = false
    @exclusivity(unchecked) private var rotationIn = false
    @exclusivity(unchecked) private var panValue = Vector.zero
    @exclusivity(unchecked) private var scaleValue = 1.0
    @exclusivity(unchecked) private var angleValue = 0.0
    @exclusivity(unchecked) private var panOffset = Vector.zero
    @exclusivity(unchecked) private var scaleOffset = 1.0
    @exclusivity(unchecked) private var angleOffset = 0.0
    /// The view's transform scale when the session (re)started, and the un-banded scale the
    /// gestures had brought it to then (they differ while a rubber band stretches it).
    @exclusivity(unchecked) private var sessionViewScale = 1.0
    @exclusivity(unchecked) private var sessionRawScale = 1.0
    @exclusivity(unchecked) private var lastRawScale = 1.0
    @exclusivity(unchecked) private var lastShownScale = 1.0

    /// UIKit: `UIScrollView.minimumZoomScale` / `maximumZoomScale` (default 0 and ∞: no limits),
    /// for the scale of the view's `transform`. Past a limit the pinch's scale is shown through
    /// ``ScrollPhysics/rubberBandScale(_:minimum:maximum:)`` (UIKit's `bouncesZoom`): it follows the
    /// fingers with growing resistance and never beyond twice the maximum or half the minimum.
    /// Deviation: the spring back to the limit when the gesture ends is the app's to animate
    /// (``isOutsideScaleLimits`` says whether it is needed); this helper has no clock.
    @exclusivity(unchecked) public var minimumScale = 0.0
    @exclusivity(unchecked) public var maximumScale = Double.infinity

    /// Whether the view's transform scale is outside ``minimumScale``…``maximumScale`` (stretched
    /// by the rubber band).
    public var isOutsideScaleLimits: Bool {
        let s = view.transform.scale
        return s < minimumScale || s > maximumScale
    }

    private var hasScaleLimits: Bool { minimumScale > 0 || maximumScale < .infinity }

    /// Adds the three recognizers to `view` (new ones unless given: e.g. named ones for a log).
    public init(
        view: View, pan: PanGestureRecognizer = PanGestureRecognizer(),
        pinch: PinchGestureRecognizer = PinchGestureRecognizer(),
        rotation: RotationGestureRecognizer = RotationGestureRecognizer()
    ) {
        self.view = view
        self.pan = pan
        self.pinch = pinch
        self.rotation = rotation
        togetherness.members = [ObjectIdentifier(pan), ObjectIdentifier(pinch), ObjectIdentifier(rotation)]
        for r in [pan, pinch, rotation] as [GestureRecognizer] {
            r.delegate = togetherness
            view.addGestureRecognizer(r)
            r.addAction { [self] r in self.changed(r) }
        }
    }

    /// Whether `a` and `b` are two of this helper's recognizers (which recognize together).
    public func recognizesTogether(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        togetherness.members.contains(ObjectIdentifier(a)) && togetherness.members.contains(ObjectIdentifier(b))
    }

    /// The matrix mapping the view's own coordinates to the window's. Setting it moves the view
    /// (its centre and transform, through its superview's matrix).
    public var windowMatrix: AffineTransform {
        get { view.localToWindow }
        set {
            let parent = view.superview?.localToWindow ?? .identity
            place(newValue.concatenating(parent.inverted()))
        }
    }

    /// Sets the view's centre and transform from `m`, its local-to-superview matrix.
    private func place(_ m: AffineTransform) {
        let b = view.bounds
        view.center = Point(x: b.midX, y: b.midY).applying(m)
        view.transform = AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: 0, ty: 0)
    }

    /// Whether a session runs (one of the three has begun and one is still active).
    public var isInSession: Bool { inSession }

    /// Starts the session again from the view's current place without applying anything: after
    /// the view was moved by other means in the middle of a gesture (a key, a new layout), the
    /// gesture goes on from there.
    public func restartSession() {
        guard inSession else { return }
        startSession(continuing: false)
        panOffset = panIn ? panValue : .zero
        scaleOffset = pinchIn ? scaleValue : 1
        angleOffset = rotationIn ? angleValue : 0
        updatePivot()
    }

    /// Ends the session: the gestures in progress no longer move the view until one begins
    /// again (e.g. the view was put back to its home place).
    public func endSession() {
        inSession = false
    }

    private func changed(_ r: GestureRecognizer) {
        if registeredWith == nil, let d = r.dispatcher {
            d.instantObservers.append(self)
            registeredWith = d
        }
        switch r.state {
        case .began:
            rebase { join(r) }
            record(r)
            recordVelocity(of: r, ended: false)
            dirty = true
        case .changed:
            record(r)
            dirty = true
        case .ended:
            record(r)
            // Taken now: the recognizer resets before the session ends.
            recordVelocity(of: r, ended: true)
            dirty = true
        default:
            break
        }
    }

    /// Applies the instant's values (once), then ends the session when none of the three is
    /// active.
    private func flush() {
        if dirty {
            dirty = false
            apply()
            onChange?(self)
        }
        if inSession && !pan.state.isActive && !pinch.state.isActive && !rotation.state.isActive {
            inSession = false
            onSessionEnd?(self)
        }
    }

    private func join(_ r: GestureRecognizer) {
        if r === pan { panIn = true } else if r === pinch { pinchIn = true } else { rotationIn = true }
    }

    private func record(_ r: GestureRecognizer) {
        if r === pan {
            panValue = pan.translation(in: nil)
        } else if r === pinch {
            scaleValue = pinch.scale
        } else {
            angleValue = rotation.rotation
        }
    }

    /// The velocity `r` ends with (zero while it is active: measured only at its end, so the
    /// frames in between fit nothing).
    private func recordVelocity(of r: GestureRecognizer, ended: Bool) {
        if r === pan {
            panVelocity = ended ? pan.velocity(in: nil) : .zero
        } else if r === pinch {
            pinchVelocity = ended ? pinch.velocity : 0
        } else {
            rotationVelocity = ended ? rotation.velocity : 0
        }
    }

    /// A gesture begins: bring the view up to date with the others' values, then start the
    /// session again from here with the beginning gesture joined.
    private func rebase(join: () -> Void) {
        let continuing = inSession
        if inSession && dirty { apply() }
        if !inSession {
            panIn = false
            pinchIn = false
            rotationIn = false
            panValue = .zero
            scaleValue = 1
            angleValue = 0
        }
        join()
        inSession = true
        startSession(continuing: continuing)
        panOffset = panIn ? panValue : .zero
        scaleOffset = pinchIn ? scaleValue : 1
        angleOffset = rotationIn ? angleValue : 0
        updatePivot()
    }

    /// `continuing`: a gesture joins a running session, whose rubber band (if stretched) goes on
    /// from the un-banded scale rather than from what is shown.
    private func startSession(continuing: Bool) {
        parentInverse = (view.superview?.localToWindow ?? .identity).inverted()
        session = view.localToWindow
        let s = view.transform.scale
        sessionViewScale = s.isFinite && s > 0 ? s : 1
        sessionRawScale = sessionViewScale
        if continuing && hasScaleLimits && lastShownScale > 0 {
            let raw = lastRawScale * sessionViewScale / lastShownScale
            if raw.isFinite && raw > 0 { sessionRawScale = raw }
        }
        lastRawScale = sessionRawScale
        lastShownScale = sessionViewScale
    }

    /// The fingers' touch-down centroid moved by the translation already applied.
    private func updatePivot() {
        if pan.numberOfTouches > 0 {
            pivot = pan.location(in: nil) - pan.translation(in: nil) + panOffset
        } else if pinch.numberOfTouches > 0 {
            pivot = pinch.location(in: nil)
        } else {
            pivot = rotation.location(in: nil)
        }
    }

    private func apply() {
        guard inSession else { return }
        let t = panIn ? panValue - panOffset : .zero
        var f = pinchIn && scaleOffset != 0 ? scaleValue / scaleOffset : 1
        if !f.isFinite || f <= 0 { f = 1 }
        if hasScaleLimits {
            let raw = sessionRawScale * f
            let shown = ScrollPhysics.rubberBandScale(raw, minimum: minimumScale, maximum: maximumScale)
            if raw.isFinite && shown.isFinite && shown > 0 {
                lastRawScale = raw
                lastShownScale = shown
                f = shown / sessionViewScale
            }
        }
        var a = rotationIn ? angleValue - angleOffset : 0
        if !a.isFinite { a = 0 }
        let c = pivot
        guard c.isFinite, t.dx.isFinite, t.dy.isFinite else { return }
        let s = AffineTransform(translationX: -c.x, y: -c.y)
            .concatenating(AffineTransform(scaleX: f, y: f))
            .concatenating(AffineTransform(rotationAngle: a))
            .concatenating(AffineTransform(translationX: c.x + t.dx, y: c.y + t.dy))
        place(session.concatenating(s).concatenating(parentInverse))
    }
}

/// The three recognizers' delegate: they recognize with each other (and nothing else).
@MainActor
private final class Together: GestureRecognizerDelegate {
    @exclusivity(unchecked) var members: [ObjectIdentifier] = []

    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        members.contains(ObjectIdentifier(recognizer)) && members.contains(ObjectIdentifier(other))
    }
}

/// Something that acts once per input instant of a ``TouchDispatcher``, after every recognizer.
@MainActor
protocol InputInstantObserver: AnyObject {
    func inputInstantEnded()
}

extension TransformGestures: InputInstantObserver {
    func inputInstantEnded() { flush() }
}
