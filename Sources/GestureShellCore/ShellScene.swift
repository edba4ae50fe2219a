import GestureKit

/// A keyboard alternative for a multipoint gesture (WCAG 2.5.1), docs/DESIGN.md §5.
public enum KeyCommand: Hashable, Sendable {
    /// `+` / `-`: scale the image up / down one step.
    case scaleUp, scaleDown
    /// `[` / `]`: rotate the image counter-clockwise / clockwise one step.
    case rotateCounterClockwise, rotateClockwise
    /// Arrow keys: move the image by `dx`, `dy` points.
    case move(dx: Double, dy: Double)
    /// Ctrl+Z: shake (logged as a `shake` line).
    case shake
    /// `u` or Backspace: undo the last gesture or key on the image. (Not Ctrl+Z, which
    /// docs/DESIGN.md §5 makes the shake; the iOS convention is shake-to-undo, but the tutorial's
    /// shake resets.)
    case undo
}

/// What the X11 shell drives: the demo scene implements it (GesturesDemo.DemoScene), tests may
/// implement small ones. All coordinates are window points; the shell converts from pixels.
/// Time is seconds on the shell's monotonic clock (the same clock as the input timestamps).
@MainActor
public protocol ShellScene: AnyObject {
    /// The window's size in points: called once before the first frame and after every resize
    /// (possibly in the middle of a gesture).
    func resize(to size: Size, at time: Double)
    /// Touch frames, touchpad pinches, shakes, clock advances.
    func handle(_ event: InputEvent)
    /// Advances the recognizers' clock (timers fire). The shell calls it when `nextDeadline`
    /// passes; its `poll()` timeout is `nextDeadline - now`.
    func advance(to time: Double)
    /// The nearest timer deadline, if any.
    var nextDeadline: Double? { get }
    /// A keyboard alternative (the demo's keys; default: nothing).
    func perform(_ command: KeyCommand, at time: Double)
    /// Kiosk mode: no input for a while — put things back (default: nothing).
    func resetAfterIdle(at time: Double)
    /// Someone is there: real input (not a replay), hover motion, fingers held down. For
    /// policies such as a kiosk's idle timers (default: nothing).
    func noteActivity(at time: Double)
    /// The centre (window points) of the view under `point`: the simulated second finger is
    /// mirrored through it (iOS Simulator style). Default: `point` itself.
    func mirrorCenter(for point: Point) -> Point
    /// True when something changed since the last `draw`.
    var needsDisplay: Bool { get }
    /// Draws the whole scene into a cairo context (`cairo_t *`) whose user space is window
    /// points; clears `needsDisplay`. `overlay` are extra touch points to draw (the simulated
    /// fingers while the modifier is held); with `showTouches` every touch is drawn.
    func draw(into cairo: OpaquePointer, overlay: [Point], showTouches: Bool)
    /// The parts of the window (points) that changed since the last `draw`, when the scene can
    /// tell; nil means all of it. The shell draws and uploads only these (clipped), so they must
    /// cover every pixel that differs from the last frame. Read before `draw`.
    var damage: [Rect]? { get }
    /// Whether a gesture is live: a recognizer has begun, or still may recognize touches that
    /// are down, or waits on a timer. While none is, a drag that draws nothing is read in
    /// batches (``ShellOptions/inputBatchInterval``).
    var hasLiveGestures: Bool { get }
}

extension ShellScene {
    public func perform(_ command: KeyCommand, at time: Double) {}
    public func resetAfterIdle(at time: Double) {}
    public func noteActivity(at time: Double) {}
    public func mirrorCenter(for point: Point) -> Point { point }
    /// Default: the whole window.
    public var damage: [Rect]? { nil }
    /// Default: always live (never batch).
    public var hasLiveGestures: Bool { true }
}
