// Long (~600 lines): the scene is one class — its views, recognizers, actions, image model and
// ShellScene conformance, whose stored state must live here; motion and failure hints are split
// out (DemoScene+Motion.swift, RegionHints.swift, ImageMotion.swift).
import GestureKit
import GestureShellCore
import GestureTrace

/// The tutorial screen, without a window: views, recognizers and the controller of the iOS
/// "Gestures" app (docs/DESIGN.md §5). The X11 shell drives it through ``ShellScene``; `gestures
/// replay` drives it from a trace. UIKit counterpart: the tutorial's `ViewController` with its
/// storyboard (a label, four coloured views, an image view) and its `foundTap`, `foundSwipe`,
/// `foundPinch`, `foundRotation` actions and `motionEnded` shake handler.
///
/// Views: ``root`` (the window) holds, back to front, ``imageView``, ``labelView`` (not
/// interactive) and the four regions ``tapView``, ``swipeView``, ``pinchView``, ``rotateView``.
/// The image sits behind the regions (deviation from a storyboard that adds it last): an image
/// pinched large or dragged over a region never takes that region's touches; the renderer draws
/// the regions translucent so the picture shows through.
///
/// Recognizers, by their log names:
///
/// | name | kind | on | does |
/// |---|---|---|---|
/// | `tap` | tap | tap region | "Tapped" |
/// | `swipeRight`, `swipeLeft`, `swipeUp`, `swipeDown` | swipe (one direction each) | swipe region | "Swiped right" … |
/// | `pinch` | pinch | pinch region | "Pinched, Scale: …, Velocity: …"; scales the image about its centre |
/// | `rotation` | rotation | rotate region | "Rotated, Radians: …, Velocity: …"; rotates the image about its centre |
/// | `shake` | shake | root | "Shaking things up!"; the image goes back to its original frame |
/// | `imagePan` | pan | image | "Panned, X: …, Y: …"; moves the image with the fingers, or the wheel / smooth scroll over it |
/// | `imagePinch` | pinch | image | as `pinch`, about the fingers |
/// | `imageRotation` | rotation | image | as `rotation`, about the fingers |
/// | `imageLongPress` | long press | image | "Long pressed" |
/// | `edgePan` | screen-edge pan (left) | root | "Edge panned, X: …, Y: …" |
/// | `imageDoubleTap` | tap, 2 taps | image | "Double tapped"; the image goes home (animated) |
///
/// The picture stays usable (see `DemoScene+Motion.swift`): its scale stays in
/// ``minimumImageScale``…``maximumImageScale`` (a pinch past them stretches with a rubber band
/// and springs back on release), it is never lost off-screen (``CenterBounds``), a fling carries
/// it on with UIScrollView's normal deceleration, and `u`/Backspace undoes the last gesture.
/// These animations run on the scene's deadlines and are logged as `animation` lines.
///
/// When every recognizer of a region fails for a stroke, the label says why ("Swipe faster",
/// see `RegionHints.swift`); the tutorial's success strings are unchanged.
///
/// `imagePan`, `imagePinch` and `imageRotation` recognize simultaneously (the scene is their
/// delegate); every other pair is exclusive. The root's `edgePan` receives every touch (UIKit
/// delivers touches to the ancestors' recognizers too), so it logs a `failed` for touches that
/// do not start at the left edge.
///
/// Transforms accumulate (the default): a region pinch or rotation caches the image's transform
/// when it begins and applies the gesture's absolute scale or rotation to that cache, so a second
/// pinch starts from the first one's result and the label shows the gesture's own value. The
/// image's own gestures follow the same pattern together: at each of their `began` the image
/// matrix is cached, and their absolute values since then are applied as one similarity —
/// translation, and scale and rotation about the fingers' touch-down centroid — so the point of
/// the picture under each finger stays under it. With
/// `classic` the region gestures follow the book's listing instead: a pinch sets the frame to the
/// original rect × scale (about the original rect's centre) and resets the rotation; a rotation
/// sets the transform to the absolute angle.
///
/// Performance: the label is kept as a ``Feedback`` (kind and numbers) and formatted only when
/// drawn or logged; with no log attached, a move event allocates nothing here. While a pinch or
/// a rotation is in progress and no log is attached, its velocity is fitted when the label is
/// read (drawn), not at every move: the label then shows the gesture's current velocity. At
/// ended and cancelled, and whenever a log is attached, it is taken at the transition itself.
@MainActor
public final class DemoScene: ShellScene {
    // MARK: Views

    public let root: View
    public let labelView: View
    public let tapView: View
    public let swipeView: View
    public let pinchView: View
    public let rotateView: View
    public let imageView: View
    public let dispatcher: TouchDispatcher

    // MARK: Recognizers

    public let tap = TapGestureRecognizer(name: "tap")
    /// Right, left, up, down.
    public let swipes: [SwipeGestureRecognizer]
    public let pinch = PinchGestureRecognizer(name: "pinch")
    public let rotation = RotationGestureRecognizer(name: "rotation")
    public let shake = ShakeGestureRecognizer(name: "shake")
    public let imagePan = PanGestureRecognizer(name: "imagePan")
    public let imagePinch = PinchGestureRecognizer(name: "imagePinch")
    public let imageRotation = RotationGestureRecognizer(name: "imageRotation")
    public let imageLongPress = LongPressGestureRecognizer(name: "imageLongPress")
    public let edgePan = ScreenEdgePanGestureRecognizer(name: "edgePan")
    /// A double tap (or double click) on the image: it goes home, animated.
    public let imageDoubleTap = TapGestureRecognizer(name: "imageDoubleTap")

    // MARK: State
    // Stored state is `@exclusivity(unchecked)`: the scene is single-threaded (main actor) and
    // never passes these inout across a call that could reach them again, and the run-time
    // checks cost ~450 instructions per two-touch frame.

    /// The current layout (the window size and the image's original rect).
    @exclusivity(unchecked) public private(set) var layout: DemoLayout
    /// The feedback label's content.
    public internal(set) var feedback: Feedback {
        get {
            guard let source = pendingVelocity else { return feedbackStorage }
            switch (feedbackStorage, source) {
            case (.pinched(let s, _), .pinch): return .pinched(scale: s, velocity: pinch.velocity)
            case (.pinched(let s, _), .imagePinch): return .pinched(scale: s, velocity: imagePinch.velocity)
            case (.rotated(let r, _), .rotation): return .rotated(radians: r, velocity: rotation.velocity)
            case (.rotated(let r, _), .imageRotation):
                return .rotated(radians: r, velocity: imageRotation.velocity)
            default: return feedbackStorage
            }
        }
        set {
            feedbackStorage = newValue
            pendingVelocity = nil
        }
    }
    @exclusivity(unchecked) private var feedbackStorage: Feedback = .initial
    /// The recognizer whose velocity the label shows, fitted when the label is read.
    @exclusivity(unchecked) private var pendingVelocity: VelocitySource?
    private enum VelocitySource { case pinch, imagePinch, rotation, imageRotation }

    /// Sets a pinch/rotation label: the velocity now if a log listens or the gesture is over,
    /// else when the label is read.
    private func setVelocityFeedback(_ value: Feedback, from r: GestureRecognizer, _ source: VelocitySource) {
        feedbackStorage = value
        pendingVelocity = source
        if onLogLine != nil || !r.state.isActive {
            feedback = feedback  // fit the velocity now
        }
    }

    /// The feedback label's text (formatted now).
    public var label: String { feedback.text }
    /// The book's listing instead of accumulating transforms (`--classic`).
    public let classic: Bool
    /// The picture, when one was loaded; the layout uses its aspect ratio.
    public let image: DemoImage?
    /// The picture kept at its drawn size (the live window sets one; see ``ScaledImageCache``).
    /// Nil draws the picture exactly, straight from the source, every frame.
    @exclusivity(unchecked) public var imageCache: ScaledImageCache?
    /// The picture's size in pixels (``DemoLayout/defaultImageSize`` without a picture).
    public let imageSize: Size
    @exclusivity(unchecked) public internal(set) var needsDisplay = true
    @exclusivity(unchecked) private var touchesShown = false

    /// Receives the event log (docs/DESIGN.md §4.2), one line at a time without a newline: the layout
    /// line when set and after every resize, then every gesture transition with the label.
    @exclusivity(unchecked) public var onLogLine: ((String) -> Void)? {
        didSet {
            updateTransitionHook()
            onLogLine?(layout.line)
        }
    }

    /// Receives every gesture transition itself, after its log line (for callers that act on
    /// gestures, e.g. screenshots after each recognized one, without parsing the log).
    @exclusivity(unchecked) public var onTransition: ((GestureTransition) -> Void)? {
        didSet { updateTransitionHook() }
    }

    /// The dispatcher reports transitions only while someone listens: with no listener nothing
    /// is formatted and no velocity is fitted on the per-event path.
    private func updateTransitionHook() {
        guard onLogLine != nil || onTransition != nil else {
            dispatcher.onTransition = nil
            return
        }
        dispatcher.onTransition = { [unowned self] t in
            if let log = self.onLogLine { log(EventLog.line(for: t, label: self.feedback.text)) }
            self.onTransition?(t)
        }
    }

    // Motion (DemoScene+Motion.swift).
    @exclusivity(unchecked) var animation: ImageAnimation?
    @exclusivity(unchecked) var nextFrame = 0.0
    @exclusivity(unchecked) var undoStack: [ImagePose] = []
    /// An image gesture session is open (its pose went on the undo stack at its start).
    @exclusivity(unchecked) var imageSessionOpen = false
    /// The image pan's velocity at its `ended`, window points/s (zero otherwise).
    @exclusivity(unchecked) var releaseVelocity = Vector.zero
    /// Where the image pinch's fingers were last (the rubber band springs back about it).
    @exclusivity(unchecked) var pinchAnchor: Point?
    /// The region pinch ended or was cancelled this input instant.
    @exclusivity(unchecked) var regionPinchEnded = false
    /// The image was double-tapped this input instant.
    @exclusivity(unchecked) var doubleTapPending = false

    // Failure hints (RegionHints.swift): the strokes in the regions, and which region each
    // touch went down in.
    @exclusivity(unchecked) var regionStrokes: [ObjectIdentifier: RegionStroke] = [:]
    @exclusivity(unchecked) var touchRegions: [Int: ObjectIdentifier] = [:]

    // Region gestures: the image transform when they began.
    @exclusivity(unchecked) private var pinchBase = AffineTransform.identity
    @exclusivity(unchecked) private var rotationBase = AffineTransform.identity
    /// The image's pan, pinch and rotation together, anchored at the fingers.
    var imageGestures: TransformGestures!

    /// Keyboard steps: `+`/`-` scale by this factor, `[`/`]` rotate by this angle (15°).
    public static let keyScaleStep = 1.1
    public static let keyRotationStep = Double.pi / 12

    /// A scene for a window of `size`. `image` is the picture (nil draws a placeholder and lays
    /// out for ``DemoLayout/defaultImageSize``).
    public init(size: Size = Trace.defaultViewport, image: DemoImage? = nil, classic: Bool = false) {
        self.image = image
        self.imageSize = image?.size ?? DemoLayout.defaultImageSize
        self.classic = classic
        let layout = DemoLayout(size: size, imageSize: imageSize)
        self.layout = layout
        root = View(frame: Rect(origin: .zero, size: layout.size), name: "root")
        labelView = View(frame: layout.label, name: "label")
        labelView.isUserInteractionEnabled = false
        tapView = View(frame: layout.tap, name: "tap")
        swipeView = View(frame: layout.swipe, name: "swipe")
        pinchView = View(frame: layout.pinch, name: "pinch")
        rotateView = View(frame: layout.rotate, name: "rotate")
        imageView = PictureView(frame: layout.image, name: "image")
        // The image goes behind the regions: grown or moved over them, it never blocks them.
        for v in [imageView, labelView, tapView, swipeView, pinchView, rotateView] { root.addSubview(v) }
        dispatcher = TouchDispatcher(root: root)
        var swipes: [SwipeGestureRecognizer] = []
        for (name, direction) in [
            ("swipeRight", SwipeDirection.right), ("swipeLeft", .left), ("swipeUp", .up), ("swipeDown", .down),
        ] {
            let s = SwipeGestureRecognizer(name: name)
            s.direction = direction
            swipes.append(s)
        }
        self.swipes = swipes
        edgePan.edges = .left
        wire()
        lastImageInRange = (imageView.transform, imageView.center, imageView.bounds.size)
    }

    private func wire() {
        tapView.addGestureRecognizer(tap)
        tap.addAction { [unowned self] _ in self.foundTap() }
        for s in swipes {
            swipeView.addGestureRecognizer(s)
            s.addAction { [unowned self] r in self.foundSwipe(r) }
        }
        pinchView.addGestureRecognizer(pinch)
        pinch.addAction { [unowned self] _ in self.foundPinch() }
        rotateView.addGestureRecognizer(rotation)
        rotation.addAction { [unowned self] _ in self.foundRotation() }
        root.addGestureRecognizer(shake)
        shake.addAction { [unowned self] _ in self.foundShake() }
        imageGestures = TransformGestures(
            view: imageView, pan: imagePan, pinch: imagePinch, rotation: imageRotation)
        imagePan.addAction { [unowned self] _ in self.imagePanned() }
        imagePinch.addAction { [unowned self] _ in self.imagePinched() }
        imageRotation.addAction { [unowned self] _ in self.imageRotated() }
        imageView.addGestureRecognizer(imageLongPress)
        imageLongPress.addAction { [unowned self] _ in self.imageLongPressed() }
        root.addGestureRecognizer(edgePan)
        edgePan.addAction { [unowned self] _ in self.edgePanned() }
        imageDoubleTap.numberOfTapsRequired = 2
        imageView.addGestureRecognizer(imageDoubleTap)
        imageDoubleTap.addAction { [unowned self] _ in self.imageDoubleTapped() }
        imageGestures.onChange = { [unowned self] _ in self.keepImageInWindow() }
        imageGestures.onSessionEnd = { [unowned self] _ in
            if self.imageSessionOpen { self.imageSessionEnded() }
        }
        // The wheel and a touchpad's smooth scroll pan the picture under the pointer
        // (Ctrl+wheel zooms it: a scroll-zoom reaches the image pinch as a touchpad pinch).
        imagePan.allowedScrollTypesMask = .all
        // The book's app (`--classic`) shows only recognized gestures: no failure hints.
        if !classic { dispatcher.onFailure = { [unowned self] r in self.regionRecognizerFailed(r) } }
        updateScaleLimits()
    }

    /// The recognizers, in the order of the table above.
    public var recognizers: [GestureRecognizer] {
        [tap] + swipes + [
            pinch, rotation, shake, imagePan, imagePinch, imageRotation, imageLongPress, edgePan, imageDoubleTap,
        ]
    }

    // MARK: Actions (the tutorial's controller)

    private func foundTap() {
        feedback = .tapped
        needsDisplay = true
    }

    private func foundSwipe(_ r: GestureRecognizer) {
        guard let s = r as? SwipeGestureRecognizer else { return }
        feedback = .swiped(s.direction)
        needsDisplay = true
    }

    private func foundPinch() {
        let s = pinch.scale
        setVelocityFeedback(.pinched(scale: s, velocity: 0), from: pinch, .pinch)
        needsDisplay = true
        if pinch.state == .began { beginImageChange() }
        if !pinch.state.isActive { regionPinchEnded = true }
        guard pinch.state != .cancelled, s.isFinite, s > 0 else { return }
        if classic {
            let home = layout.image
            let shown = limitedScale(s)
            imageView.transform = .identity
            imageView.bounds.size = Size(width: home.width * shown, height: home.height * shown)
            imageView.center = home.center
        } else {
            if pinch.state == .began { pinchBase = imageView.transform }
            let b = pinchBase.scale
            let f = b > 0 ? limitedScale(b * s) / b : s
            imageView.transform = pinchBase.scaledBy(x: f, y: f)
        }
        keepImageInWindow()
    }

    private func foundRotation() {
        let r = rotation.rotation
        setVelocityFeedback(.rotated(radians: r, velocity: 0), from: rotation, .rotation)
        needsDisplay = true
        if rotation.state == .began { beginImageChange() }
        guard rotation.state != .cancelled, r.isFinite else { return }
        if classic {
            imageView.transform = AffineTransform(rotationAngle: r)
        } else {
            if rotation.state == .began { rotationBase = imageView.transform }
            imageView.transform = rotationBase.rotated(by: r)
        }
        keepImageInWindow()
    }

    private func foundShake() {
        stopAnimation(at: dispatcher.now)
        pushUndo()
        feedback = .shaking
        resetImage()
    }

    private func imagePanned() {
        imageGestureAction(imagePan)
        releaseVelocity = imagePan.state == .ended ? imagePan.velocity(in: nil) : .zero
        let t = imagePan.translation(in: nil)
        feedback = .panned(dx: t.dx, dy: t.dy)
        needsDisplay = true
    }

    private func imagePinched() {
        imageGestureAction(imagePinch)
        if imagePinch.numberOfTouches > 0 { pinchAnchor = imagePinch.location(in: nil) }
        let s = imagePinch.scale
        setVelocityFeedback(.pinched(scale: s, velocity: 0), from: imagePinch, .imagePinch)
        needsDisplay = true
    }

    private func imageRotated() {
        imageGestureAction(imageRotation)
        let r = imageRotation.rotation
        setVelocityFeedback(.rotated(radians: r, velocity: 0), from: imageRotation, .imageRotation)
        needsDisplay = true
    }

    private func imageLongPressed() {
        if imageLongPress.state == .began {
            feedback = .longPressed
            needsDisplay = true
        }
    }

    private func edgePanned() {
        let t = edgePan.translation(in: nil)
        feedback = .edgePanned(dx: t.dx, dy: t.dy)
        needsDisplay = true
    }

    // MARK: The image model

    /// Maps image-local points (0…w, 0…h of ``imageBounds``) to window points: the `matrix` of
    /// the final line. Setting it moves the image view's centre and sets its transform to the
    /// linear part.
    public var imageMatrix: AffineTransform {
        get { imageView.localToWindow }
        set {
            let b = imageView.bounds
            imageView.center = Point(x: b.midX, y: b.midY).applying(newValue)
            imageView.transform = AffineTransform(
                a: newValue.a, b: newValue.b, c: newValue.c, d: newValue.d, tx: 0, ty: 0)
            needsDisplay = true
        }
    }

    /// The image view's bounds size: the `bounds` of the final line.
    public var imageBounds: Size { imageView.bounds.size }

    /// The image's scale relative to its original frame.
    public var imageScale: Double {
        let home = layout.image.width
        return imageView.transform.scale * (home > 0 ? imageView.bounds.width / home : 1)
    }

    /// Puts the image back to its original frame (shake).
    public func resetImage() {
        imageGestures.endSession()
        imageView.transform = .identity
        imageView.frame = layout.image
        pinchBase = .identity
        rotationBase = .identity
        lastImageInRange = (imageView.transform, imageView.center, imageView.bounds.size)
        needsDisplay = true
    }

    /// The final line of a replay (docs/DESIGN.md §4.2):
    /// `{"type":"final","label":…,"image":{"matrix":[a,b,c,d,tx,ty],"bounds":[w,h]}}`.
    public func finalLine() -> String {
        var img = JSONLine()
        img.add("matrix", imageMatrix.components)
        img.add("bounds", [imageBounds.width, imageBounds.height])
        var l = JSONLine()
        l.add("type", "final")
        l.add("label", label)
        l.add("image", img)
        return l.text
    }

    // MARK: ShellScene

    /// Lays the screen out for the new size. The image keeps its transform; its centre keeps its
    /// place in proportion to the window and its size follows the new original rect.
    public func resize(to size: Size, at time: Double) {
        dispatcher.advance(to: time)
        stopAnimation(at: time)
        let old = layout
        let new = DemoLayout(size: size, imageSize: imageSize)
        guard new != old else { return }
        layout = new
        root.frame = Rect(origin: .zero, size: new.size)
        labelView.frame = new.label
        tapView.frame = new.tap
        swipeView.frame = new.swipe
        pinchView.frame = new.pinch
        rotateView.frame = new.rotate
        let k = old.image.width > 0 ? new.image.width / old.image.width : 1
        let c = imageView.center
        let b = imageView.bounds.size
        if old.size.width > 0 && old.size.height > 0 && k.isFinite && k > 0 {
            imageView.center = Point(
                x: c.x * new.size.width / old.size.width, y: c.y * new.size.height / old.size.height)
            imageView.bounds.size = Size(width: b.width * k, height: b.height * k)
        } else {
            imageView.frame = new.image
        }
        keepImageInWindow()
        updateScaleLimits()
        // An image gesture in progress goes on from the image's new place and size.
        imageGestures.restartSession()
        lastImageInRange = (imageView.transform, imageView.center, imageView.bounds.size)
        needsDisplay = true
        onLogLine?(new.line)
    }

    public func handle(_ event: InputEvent) {
        if animation != nil { interruptAnimation(for: event) }
        if !classic, case .touches(let frame) = event { trackRegionStrokes(frame) }
        dispatcher.handle(event)
        afterDispatch()
        if needsDisplay { keepImageInRange() }
        trackImageSettle()
        // The last frame drew the touches: any touch input changes what is drawn.
        if touchesShown, case .touches = event { needsDisplay = true }
    }

    public func advance(to time: Double) {
        dispatcher.advance(to: time)
        afterDispatch()
        stepAnimation(to: time)
        trackImageSettle()
        if let d = settleDeadline, time >= d {
            settleDeadline = nil
            settleRedraw = true
            needsDisplay = true
        }
    }

    public var nextDeadline: Double? {
        var d = dispatcher.nextDeadline ?? .infinity
        if let settle = settleDeadline { d = min(d, settle) }
        if let frame = animationDeadline { d = min(d, frame) }
        return d.isFinite ? d : nil
    }

    /// How long the image's scale and angle must stay the same before the picture cache makes
    /// its copy (``ScaledImageCache``): a pinch or rotation in progress is drawn straight.
    public static let imageSettleDelay = 0.1

    /// With a picture cache: notes a change of the image's scale or angle (its matrix's linear
    /// part) and starts the settle delay.
    /// (Only after input that changed what is drawn: the image moves only then. Its scale and
    /// angle are its view's transform and bounds' size — `--classic` pinches the size — read
    /// without walking the view tree.)
    private func trackImageSettle() {
        guard imageCache != nil, needsDisplay else { return }
        let t = imageView.transform
        let size = imageView.bounds.size
        let linear = SIMD8(t.a, t.b, t.c, t.d, size.width, size.height, 0, 0)
        guard linear != settleLinear else { return }
        settleLinear = linear
        settleDeadline = dispatcher.now + Self.imageSettleDelay
    }

    /// Keyboard alternatives (WCAG 2.5.1): scale by ``keyScaleStep``, rotate by
    /// ``keyRotationStep`` about the image's centre, move by the command's offset; shake goes
    /// through the shake recognizer (and is logged).
    public func perform(_ command: KeyCommand, at time: Double) {
        if command != .shake {
            dispatcher.advance(to: time)
            stopAnimation(at: time)
            if command != .undo { pushUndo() }
        }
        switch command {
        case .scaleUp, .scaleDown:
            let f = command == .scaleUp ? Self.keyScaleStep : 1 / Self.keyScaleStep
            let now = imageScale
            let target = min(max(now * f, Self.minimumImageScale), Self.maximumImageScale)
            let k = now > 0 ? target / now : f
            imageView.transform = imageView.transform.scaledBy(x: k, y: k)
            keepImageInWindow()
            feedback = .keyScaled(scale: imageScale)
        case .rotateClockwise, .rotateCounterClockwise:
            let a = command == .rotateClockwise ? Self.keyRotationStep : -Self.keyRotationStep
            imageView.transform = imageView.transform.rotated(by: a)
            keepImageInWindow()
            feedback = .keyRotated(radians: imageView.transform.rotationAngle)
        case .move(let dx, let dy):
            imageView.center = imageView.center + Vector(dx: dx, dy: dy)
            keepImageInWindow()
            let off = imageView.center - layout.image.center
            feedback = .keyMoved(dx: off.dx, dy: off.dy)
        case .shake:
            dispatcher.handle(.shake(timestamp: time))
        case .undo:
            undo(at: time)
        }
        // A finger gesture on the image in progress goes on from where the key put the image.
        if command != .shake { imageGestures.restartSession() }
        keepImageInRange()
        needsDisplay = true
    }

    /// The largest magnitude of the image's transform entries, centre and size: 10⁹. An input
    /// that would carry the image beyond (ten thousand key presses of `+`, or a pinch between
    /// touches that landed a hair apart and then spread, each accumulating on the last) leaves
    /// it where the input before left it, so that its matrix — drawn, and printed in the final
    /// line — stays finite. (UIKit would raise on a non-finite layer geometry.)
    public static let maximumImageMagnitude = 1e9

    @exclusivity(unchecked) private var labelBoxes: [(text: String, in: Rect, box: Rect?)] = []
    @exclusivity(unchecked) private var lastImageInRange = (AffineTransform.identity, Point.zero, Size.zero)

    private func keepImageInRange() {
        let t = imageView.transform
        let c = imageView.center
        let size = imageView.bounds.size
        let m = Self.maximumImageMagnitude
        let v = SIMD8(t.a, t.b, t.c, t.d, t.tx, t.ty, c.x, c.y)
        // (A NaN fails every comparison, so it is out of range too.)
        if all((v .<= m) .& (v .>= -m)), size.width <= m, size.height <= m {
            lastImageInRange = (t, c, size)
        } else {
            (imageView.transform, imageView.center, imageView.bounds.size) = lastImageInRange
            imageGestures.restartSession()
        }
    }

    /// Kiosk mode: the image back to its original frame and the label back to "Do something!".
    public func resetAfterIdle(at time: Double) {
        dispatcher.advance(to: time)
        stopAnimation(at: time)
        undoStack.removeAll()
        resetImage()
        feedback = .initial
    }

    /// The centre of the bounds of the view under `point`, window points.
    public func mirrorCenter(for point: Point) -> Point {
        let v = root.hitTest(point) ?? root
        return v.convert(Point(x: v.bounds.midX, y: v.bounds.midY), to: nil)
    }

    /// Draws the scene (``DemoRenderer``). After a frame drawn with `showTouches`, touch input
    /// sets ``needsDisplay``; otherwise only changes of the label or the image do.
    public func draw(into cairo: OpaquePointer, overlay: [Point], showTouches: Bool) {
        DemoRenderer.draw(self, into: cairo, overlay: overlay, showTouches: showTouches)
        noteDrawn(showTouches: showTouches)
    }

    /// Remembers what the frame just drawn shows (for ``damage``) and clears ``needsDisplay``.
    func noteDrawn(showTouches: Bool) {
        touchesShown = showTouches
        needsDisplay = false
        drawn = DrawnState(
            size: layout.size, imageMatrix: imageMatrix, imageBox: imageBox, label: label,
            touches: showTouches ? touchLocations : [])
        settleRedraw = false
    }

    /// What the last frame showed, for ``damage``.
    private struct DrawnState {
        var size: Size
        var imageMatrix: AffineTransform
        var imageBox: Rect
        var label: String
        var touches: [Point]
    }
    @exclusivity(unchecked) private var drawn: DrawnState?
    @exclusivity(unchecked) private var settleLinear = SIMD8<Double>(repeating: .nan)
    @exclusivity(unchecked) private var settleDeadline: Double?
    /// The settle delay passed: the next frame redraws the picture from its new copy.
    @exclusivity(unchecked) private var settleRedraw = false
    /// Whether the picture cache may make its copy now (the scale and angle have settled).
    var imageSettled: Bool { settleDeadline == nil }

    /// The picture's pixels were replaced (a decode made off the loop is ready, see
    /// `DemoImage.onDecoded`): the next frame redraws the picture from them.
    public func pictureDecoded() {
        settleRedraw = true
        needsDisplay = true
    }

    /// The window box the image covers now (its placeholder's 2 pt outline included).
    private var imageBox: Rect {
        let b = imageBounds
        let box = Rect(x: 0, y: 0, width: b.width, height: b.height).applying(imageMatrix)
        return Rect(x: box.minX - 2, y: box.minY - 2, width: box.width + 4, height: box.height + 4)
    }

    /// What changed since the last frame: the image's old and new boxes when it moved (or its
    /// copy is remade once its scale settled), the
    /// label's rect when its text changed, the old and new touch points when they are shown;
    /// everything after a resize or before the first frame.
    public var damage: [Rect]? {
        guard let d = drawn, d.size == layout.size else { return nil }
        var rects = aboveImageDamage(d)
        if imageMatrix != d.imageMatrix || settleRedraw {
            rects.append(d.imageBox)
            rects.append(imageBox)
        }
        return rects
    }

    /// What changed above the picture since the last frame (the label, the touch points), for
    /// the shell's overlay when the X server draws the picture (`ServerBackdropScene`); nil
    /// after a resize or before the first frame.
    public var overlayDamage: [Rect]? {
        guard let d = drawn, d.size == layout.size else { return nil }
        return aboveImageDamage(d)
    }

    /// Whether touch points were drawn by the last frame.
    var touchesDrawn: Bool { touchesShown }

    private func aboveImageDamage(_ d: DrawnState) -> [Rect] {
        var rects: [Rect] = []
        if label != d.label {
            for text in [d.label, label] {
                if let r = labelBox(text) { rects.append(r) }
            }
        }
        if touchesShown {
            let r = max(6, min(layout.size.width, layout.size.height) * 0.025) + 2
            for p in d.touches + touchLocations where p.isFinite {
                rects.append(Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
            }
        }
        return rects
    }

    /// `DemoRenderer.labelTextBox` of `text` in the layout's label, remembered for the last two
    /// texts asked (a frame asks for the drawn label's box and the new one's; the next frame's
    /// drawn label is this one's new label).
    private func labelBox(_ text: String) -> Rect? {
        if let hit = labelBoxes.first(where: { $0.text == text && $0.in == layout.label }) { return hit.box }
        let box = DemoRenderer.labelTextBox(text, in: layout.label)
        labelBoxes = [labelBoxes.last, (text, layout.label, box)].compactMap { $0 }
        return box
    }

    /// Whether the next move of the touches down could change what is drawn
    /// (`TouchDispatcher.hasLiveGestures`).
    public var hasLiveGestures: Bool { dispatcher.hasLiveGestures }

    /// The touches down now, window points (drawn with `showTouches`).
    public var touchLocations: [Point] { dispatcher.activeTouches.map(\.locationInWindow) }
}
