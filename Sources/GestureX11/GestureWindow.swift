@_exported import CCairo
import GestureShellCore

/// A window with a view tree whose gesture recognizers are driven by X input: the app API of
/// GestureX11. UIKit: a `UIWindow` and its root view, plus `UIApplication`'s run loop.
///
/// ```swift
/// let window = try GestureWindow(title: "Card", size: Size(width: 800, height: 600))
/// let card = View(frame: Rect(x: 250, y: 200, width: 300, height: 200))
/// window.root.addSubview(card)
/// _ = TransformGestures(view: card)
/// window.draw = { cr in
///     GestureWindow.transform(cr, to: card)
///     cairo_rectangle(cr, 0, 0, 300, 200)
///     cairo_fill(cr)
/// }
/// exit(window.run())
/// ```
///
/// Input comes from every source the shell reads — a touchscreen (XInput 2.2 touch), a touchpad's
/// pinch and swipe (XI 2.4), the mouse as one finger with a simulated second finger while Ctrl is
/// held at the press (mirrored through the centre of the visible part of the view under the
/// pointer, within the window and any clipping ancestor such as a `ScrollView`; Ctrl+Shift:
/// parallel), and each MPX pointer as a finger. Hit testing, delivery and arbitration are
/// GestureKit's (`TouchDispatcher`).
///
/// Drawing: views draw themselves (`View.backgroundColor`, ``Label``, ``ImageView``, a
/// `draw(_:in:)` override), back to front over a white window, as in UIKit:
///
/// ```swift
/// let label = Label(frame: Rect(x: 20, y: 20, width: 300, height: 40))
/// label.text = "Hello"
/// window.root.addSubview(label)
/// ```
///
/// A frame is drawn only when something changed, and only where: a view's change of geometry,
/// colour, alpha, visibility or order, or its `setNeedsDisplay()`, redraws the window boxes the
/// view covered and covers (``X11Shell/onFramePresented`` reports the rectangles).
///
/// The older whole-window hook ``draw`` is still offered: it is called with a `cairo_t *` whose
/// user space is window points, under the views, after any recognizer changed state, after
/// ``setNeedsDisplay()`` and after a resize; while it is set, every frame draws the whole window
/// (it cannot say what changed). A frame may call it more than once, each time clipped to a band
/// of the window (the first frame after a resize is uploaded in bands of 1 MiB): draw the same
/// picture every time, and keep animation steps and counters out of it.
@MainActor
public final class GestureWindow {
    /// The root view: it always fills the window. Add subviews and recognizers to it.
    public let root: View
    /// The dispatcher that delivers the window's input to the root view's tree.
    public let dispatcher: TouchDispatcher
    /// Draws the whole window under the views (`cairo_t *`, window points). The background is
    /// not cleared for you. Optional: without it the window is white and only views draw.
    public var draw: ((OpaquePointer) -> Void)?
    /// Called after the window changed size (the root view already has the new frame).
    public var onResize: ((Size) -> Void)?
    /// The shell underneath (for its options, `onInput`, screenshots…).
    public let shell: X11Shell
    private let scene: ViewTreeScene

    /// Opens the display and creates the window (mapped by ``run()``). `options.size` and
    /// `options.title` are replaced by `size` and `title`.
    public init(
        title: String = "Gestures", size: Size = ShellOptions.defaultSize, options: ShellOptions = ShellOptions()
    )
        throws(ShellError)
    {
        var o = options
        o.title = title
        o.size = size
        shell = try X11Shell(options: o)
        shell.quitsOnKeys = false
        root = View(frame: Rect(origin: .zero, size: shell.size), name: "root")
        dispatcher = TouchDispatcher(root: root)
        scene = ViewTreeScene(root: root, dispatcher: dispatcher)
        scene.window = self
    }

    /// The window's size in points.
    public var size: Size { shell.size }

    /// Every key pressed and released in the window. UIKit: `pressesBegan(_:with:)` /
    /// `pressesEnded(_:with:)`, and `UIKeyCommand` (match ``KeyPress/characters`` and
    /// ``KeyPress/modifiers`` here). Ctrl+Z still shakes (a `ShakeGestureRecognizer` hears it).
    public var onKey: ((KeyPress) -> Void)? {
        get { shell.onKey }
        set { shell.onKey = newValue }
    }

    /// Whether `q`, Ctrl+Q and Escape close the window, as they do in the `gestures` demo.
    /// Default false: a library app chooses its own keys (call ``quit()`` from ``onKey``).
    public var quitsOnKeys: Bool {
        get { shell.quitsOnKeys }
        set { shell.quitsOnKeys = newValue }
    }

    /// Ends ``run()`` after the current turn of the loop (UIKit has none; an app's window closes).
    public func quit() { shell.quit(status: 0) }

    /// Asks for a frame (UIKit: `setNeedsDisplay()`).
    public func setNeedsDisplay() { scene.needsDisplay = true }

    /// Shows the window and runs until it is closed (or SIGINT/SIGTERM/SIGHUP); returns the exit
    /// status (0). A lost X connection exits the process with status 1. A window runs once: it
    /// is destroyed, and its connection closed, when `run` returns.
    public func run() -> Int32 {
        shell.run(scene: scene)
    }

    /// Concatenates `view`'s local-to-window transform onto `cr`: draw in the view's own
    /// coordinates (its bounds) from then on. Save and restore the context around it yourself.
    public static func transform(_ cr: OpaquePointer, to view: View) {
        let m = view.localToWindow
        var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
        cairo_transform(cr, &cm)
    }

    fileprivate func drawFrame(_ cr: OpaquePointer) { draw?(cr) }
    fileprivate func resized(_ size: Size) { onResize?(size) }
}

/// The `ShellScene` behind a ``GestureWindow``: the view tree, redrawn whenever a recognizer
/// changes state.
@MainActor
private final class ViewTreeScene: ShellScene {
    let root: View
    let dispatcher: TouchDispatcher
    weak var window: GestureWindow?
    var needsDisplay = true

    let tracker = ViewDamageTracker()

    init(root: View, dispatcher: TouchDispatcher) {
        self.root = root
        self.dispatcher = dispatcher
        dispatcher.onTransition = { [unowned self] _ in self.needsDisplay = true }
        root.onDisplayChange = { [unowned self] view, geometry in
            self.tracker.note(view, geometry: geometry)
            self.needsDisplay = true
        }
    }

    /// The views' damage; all of the window when the app draws with ``GestureWindow/draw``.
    var damage: [Rect]? { window?.draw == nil ? tracker.damage(root) : nil }

    func resize(to size: Size, at time: Double) {
        dispatcher.advance(to: max(time, dispatcher.now))
        guard root.frame.size != size else { return }
        root.frame = Rect(origin: .zero, size: size)
        needsDisplay = true
        window?.resized(size)
    }

    func handle(_ event: InputEvent) { dispatcher.handle(event) }
    func advance(to time: Double) { dispatcher.advance(to: time) }
    var nextDeadline: Double? { dispatcher.nextDeadline }
    var hasLiveGestures: Bool { dispatcher.hasLiveGestures }

    /// The centre of the visible part of the view under `point`: its transformed bounds' box
    /// within the window and within every ancestor that clips (a zoomed view's own centre may be
    /// off-screen, or outside the scroll view that shows it, and a finger mirrored through it
    /// would be too).
    func mirrorCenter(for point: Point) -> Point {
        let v = root.hitTest(point) ?? root
        let box = v.bounds.applying(v.localToWindow)
        var x0 = max(box.minX, 0)
        var y0 = max(box.minY, 0)
        var x1 = min(box.maxX, root.bounds.width)
        var y1 = min(box.maxY, root.bounds.height)
        var ancestor = v.superview
        while let a = ancestor {
            if a.clipsToBounds {
                let clip = a.bounds.applying(a.localToWindow)
                x0 = max(x0, clip.minX)
                y0 = max(y0, clip.minY)
                x1 = min(x1, clip.maxX)
                y1 = min(y1, clip.maxY)
            }
            ancestor = a.superview
        }
        guard x1 > x0, y1 > y0 else { return v.convert(Point(x: v.bounds.midX, y: v.bounds.midY), to: nil) }
        return Point(x: (x0 + x1) / 2, y: (y0 + y1) / 2)
    }

    func draw(into cairo: OpaquePointer, overlay: [Point], showTouches: Bool) {
        cairo_save(cairo)
        if window?.draw == nil {
            // UIKit's default window background, under the root view's own colour.
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_paint(cairo)
        } else {
            window?.drawFrame(cairo)
        }
        cairo_restore(cairo)
        cairo_save(cairo)
        ViewTreeDrawing.draw(root, into: cairo)
        cairo_restore(cairo)
        tracker.commit(root)
        var points = overlay
        if showTouches { points += dispatcher.activeTouches.map(\.locationInWindow) }
        for p in points where p.isFinite {
            cairo_new_path(cairo)
            cairo_arc(cairo, p.x, p.y, 12, 0, 2 * Double.pi)
            cairo_set_source_rgba(cairo, 0.9, 0.16, 0.22, 0.4)
            cairo_fill(cairo)
        }
        needsDisplay = false
    }
}
