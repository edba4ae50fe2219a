import GestureKit
import GestureTrace

/// The picture stays usable: scale limits with a rubber band, never lost
/// off-screen, momentum after a fling, a double tap to go home, undo. UIKit counterparts:
/// `UIScrollView`'s `minimumZoomScale`/`maximumZoomScale`, `bouncesZoom`, `decelerationRate
/// .normal`, the double-tap-to-zoom convention and `UndoManager`.
///
/// Decisions:
/// - The scale, relative to the original frame, stays in 0.1…10. The monkey soak
///   takes the flower across exactly that range, and a tenth is still a visible stamp on a 4K
///   screen. Keys stop at the limits; a pinch past them stretches with
///   ``ScrollPhysics/rubberBandScale(_:minimum:maximum:)`` and springs back when it ends.
/// - The centre is kept in ``CenterBounds``: at least a quarter of an upright picture stays in
///   the window. Every change (gesture, key, resize, animation) is held there, without a rubber
///   band: the picture simply stops at the edge.
/// - A fling (the image pan ending at ≥ ``momentumStartSpeed``) carries on with
///   ``ScrollPhysics/normalDecelerationRate`` until it is slower than ``momentumStopSpeed`` or
///   stops at the bounds. A touch on the picture catches it (the animation is cancelled there).
/// - Undo is `u` or Backspace: Ctrl+Z stays the shake of docs/DESIGN.md §5 (which resets; a shake
///   can itself be undone). Each image gesture (from the first of its pan/pinch/rotation to
///   begin until none is active), region pinch or rotation, key step, double tap and shake is
///   one step; up to ``undoLimit`` steps.
/// - Every animation is a pure function of time driven by ``nextDeadline`` (one frame each
///   ``animationFrameInterval``, nothing once it ends), so a replay is repeatable. The log gets
///   an `animation` line when one begins and when it ends or is cancelled, with the image matrix:
///   `{"type":"animation","t":0.5,"animation":"momentum","state":"began","matrix":[…]}`;
///   `animation` is `momentum bounce reset undo`, `state` `began ended cancelled`.
extension DemoScene {
    /// The scale limits, relative to the original frame.
    public static let minimumImageScale = 0.1
    public static let maximumImageScale = 10.0
    /// A fling at least this fast (window points/s) carries the picture on.
    public static let momentumStartSpeed = 50.0
    /// The fling stops once slower than this.
    public static let momentumStopSpeed = ImageAnimation.stopSpeed
    /// Durations of the spring back, the double-tap reset and undo, seconds.
    public static let bounceDuration = 0.3
    public static let resetDuration = 0.25
    public static let undoDuration = 0.25
    /// One animation frame every this many seconds.
    public static let animationFrameInterval = 1.0 / 60
    /// The undo stack keeps this many steps.
    public static let undoLimit = 100

    /// Whether an animation of the picture runs.
    public var isAnimating: Bool { animation != nil }

    /// The next animation frame's time.
    var animationDeadline: Double? {
        animation.map { min(nextFrame, $0.end) }
    }

    /// The limits for the image's own pinch: relative to its transform (in `--classic` the
    /// bounds carry the region pinch's scale).
    func updateScaleLimits() {
        let home = layout.image.width
        let k = home > 0 && imageView.bounds.width > 0 ? imageView.bounds.width / home : 1
        imageGestures.minimumScale = Self.minimumImageScale / k
        imageGestures.maximumScale = Self.maximumImageScale / k
    }

    /// `scale` (relative to the original frame) as shown: with the rubber band past the limits.
    func limitedScale(_ scale: Double) -> Double {
        ScrollPhysics.rubberBandScale(scale, minimum: Self.minimumImageScale, maximum: Self.maximumImageScale)
    }

    /// Holds the picture's centre inside ``CenterBounds``.
    func keepImageInWindow() {
        let pose = ImagePose(of: imageView)
        let c = CenterBounds(half: pose.halfExtent, window: layout.size).clamp(pose.center)
        if c.isFinite && c != pose.center { imageView.center = c }
    }

    // MARK: Undo

    /// A change of the picture begins: its pose goes on the undo stack.
    func beginImageChange() {
        stopAnimation(at: dispatcher.now)
        pushUndo()
    }

    func pushUndo() {
        undoStack.append(ImagePose(of: imageView))
        if undoStack.count > Self.undoLimit { undoStack.removeFirst(undoStack.count - Self.undoLimit) }
    }

    /// Back to the pose before the last change, animated.
    func undo(at time: Double) {
        guard let pose = undoStack.popLast() else {
            feedback = .nothingToUndo
            return
        }
        feedback = .undone
        startAnimation(
            ImageAnimation(.undo, from: ImagePose(of: imageView), to: pose, at: time, duration: Self.undoDuration))
    }

    // MARK: Image gestures

    /// After the dispatcher handled input or timers (and logged their transitions): the double
    /// tap's reset and the region pinch's spring back start here, so their `animation` lines
    /// follow the gesture's line.
    func afterDispatch() {
        if doubleTapPending { resetAnimated() }
        if regionPinchEnded {
            regionPinchEnded = false
            bounceIfNeeded(about: imageView.center)
        }
    }

    /// Every action of the image's pan, pinch and rotation: the first to begin opens the session
    /// (one undo step).
    func imageGestureAction(_ r: GestureRecognizer) {
        guard r.state == .began, !imageSessionOpen else { return }
        imageSessionOpen = true
        beginImageChange()
        updateScaleLimits()
        pinchAnchor = nil
    }

    /// None of the image's gestures is active any more: spring back inside the limits, or carry
    /// a fling on.
    func imageSessionEnded() {
        imageSessionOpen = false
        let now = dispatcher.now
        if bounceIfNeeded(about: pinchAnchor ?? imageView.center) { return }
        let v = releaseVelocity
        releaseVelocity = .zero
        guard v.length >= Self.momentumStartSpeed, v.dx.isFinite, v.dy.isFinite else { return }
        let pose = ImagePose(of: imageView)
        let bounds = CenterBounds(half: pose.halfExtent, window: layout.size)
        startAnimation(ImageAnimation(momentum: v, from: pose, bounds: bounds, at: now))
    }

    /// Starts the spring back when the scale is past a limit; whether it did.
    @discardableResult
    func bounceIfNeeded(about pivot: Point) -> Bool {
        let s = imageScale
        guard s.isFinite, s > 0, s < Self.minimumImageScale || s > Self.maximumImageScale else { return false }
        let target = min(max(s, Self.minimumImageScale), Self.maximumImageScale)
        let from = ImagePose(of: imageView)
        var to = from.scaled(by: target / s, about: pivot)
        if classic && from.scale == 1 {
            // --classic's region pinch scales the bounds, about the original centre.
            to = from
            to.bounds = Size(width: from.bounds.width * target / s, height: from.bounds.height * target / s)
        }
        to.center = CenterBounds(half: to.halfExtent, window: layout.size).clamp(to.center)
        startAnimation(
            ImageAnimation(.bounce, from: from, to: to, at: dispatcher.now, duration: Self.bounceDuration))
        return true
    }

    func imageDoubleTapped() {
        feedback = .doubleTapped
        doubleTapPending = true
    }

    /// After the double tap's log line: the image goes home, animated.
    func resetAnimated() {
        doubleTapPending = false
        beginImageChange()
        imageGestures.endSession()
        let home = ImagePose(home: layout)
        startAnimation(
            ImageAnimation(
                .reset, from: ImagePose(of: imageView), to: home, at: dispatcher.now, duration: Self.resetDuration))
    }

    // MARK: Animation

    func startAnimation(_ a: ImageAnimation) {
        stopAnimation(at: a.start)
        animation = a
        nextFrame = a.start
        logAnimation(a.kind, "began", at: a.start)
        stepAnimation(to: a.start)
    }

    /// Moves the picture to where the animation is at `time`; ends it at its end.
    func stepAnimation(to time: Double) {
        guard let a = animation else { return }
        needsDisplay = true
        if time >= a.end {
            animation = nil
            a.to.apply(to: imageView)
            if a.kind == .reset {
                imageView.transform = .identity
                imageView.frame = layout.image
            }
            logAnimation(a.kind, "ended", at: a.end)
            return
        }
        a.pose(at: time).apply(to: imageView)
        nextFrame = time + Self.animationFrameInterval
    }

    /// Stops the animation where it is at `time` (logged as cancelled unless it was over).
    func stopAnimation(at time: Double) {
        guard let a = animation else { return }
        stepAnimation(to: time)
        guard animation != nil else { return }
        animation = nil
        logAnimation(a.kind, "cancelled", at: time)
    }

    /// Input during an animation: catch up to its time, and a touch or touchpad pinch that
    /// lands on the picture stops it there.
    func interruptAnimation(for event: InputEvent) {
        let t = event.timestamp
        guard t.isFinite else { return }
        stepAnimation(to: t)
        switch event {
        case .touches(let frame):
            for c in frame.changes where c.phase == .began && root.hitTest(c.location) === imageView {
                stopAnimation(at: t)
                return
            }
        case .touchpadPinch(let p):
            if p.phase == .begin && root.hitTest(p.location) === imageView { stopAnimation(at: t) }
        default:
            break
        }
    }

    private func logAnimation(_ kind: ImageAnimation.Kind, _ state: String, at t: Double) {
        guard let log = onLogLine else { return }
        var l = JSONLine()
        l.add("type", "animation")
        l.add("t", t)
        l.add("animation", kind.rawValue)
        l.add("state", state)
        l.add("matrix", imageMatrix.components)
        log(l.text)
    }
}
