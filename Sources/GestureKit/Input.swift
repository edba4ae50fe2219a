/// The phase of one touch in one input frame. UIKit: `UITouch.Phase` (without `stationary`:
/// a touch that did not change is simply absent from the frame).
public enum TouchPhase: String, Sendable, Hashable, CaseIterable {
    case began, moved, ended, cancelled
}

extension TouchPhase {
    /// Began or moved: the touch is not ending in this frame.
    @inline(__always) var isDown: Bool { self == .began || self == .moved }
}

/// One touch's change in a frame: its id (unique while the touch is down), its phase and its
/// location in window points.
public struct TouchChange: Hashable, Sendable {
    public var id: Int
    public var phase: TouchPhase
    public var location: Point
    public init(id: Int, phase: TouchPhase, location: Point) {
        self.id = id
        self.phase = phase
        self.location = location
    }
}

/// One input instant: a monotonic timestamp in seconds and the touches that began, moved, ended
/// or were cancelled at that instant (UIKit: one `UIEvent` of type `.touches`). A `cancelled`
/// change may carry any location; the touch's last known location is kept.
public struct TouchFrame: Hashable, Sendable {
    public var timestamp: Double
    public var changes: [TouchChange]
    public init(timestamp: Double, changes: [TouchChange]) {
        self.timestamp = timestamp
        self.changes = changes
    }
}

/// The phase of a touchpad (XI 2.4) pinch gesture.
public enum TouchpadPhase: String, Sendable, Hashable, CaseIterable {
    case begin, update, end, cancel
}

/// One event of a touchpad pinch gesture (XInput 2.4 `XI_GesturePinch*`, libinput's pinch).
/// `scale` is absolute since the gesture began (1 at begin); `angleDelta` is the rotation since
/// the previous event in degrees, clockwise positive. `location` is the pointer, in window points.
/// UIKit has no counterpart (iPadOS trackpad pinches arrive as UIPinchGestureRecognizer input).
public struct TouchpadPinch: Hashable, Sendable {
    public var timestamp: Double
    public var phase: TouchpadPhase
    public var location: Point
    public var scale: Double
    public var angleDelta: Double
    public init(timestamp: Double, phase: TouchpadPhase, location: Point, scale: Double = 1, angleDelta: Double = 0) {
        self.timestamp = timestamp
        self.phase = phase
        self.location = location
        self.scale = scale
        self.angleDelta = angleDelta
    }
}

/// Everything the dispatcher can be fed, in time order: touch frames, touchpad pinch events, scrolls,
/// motion (shake) and bare clock advances (`wait`).
public enum InputEvent: Hashable, Sendable {
    case touches(TouchFrame)
    case touchpadPinch(TouchpadPinch)
    /// A wheel click or smooth-scroll step (or a scroll-zoom, with Ctrl).
    case scroll(ScrollInput)
    /// A shake (UIKit: `motionEnded(.motionShake, …)`).
    case shake(timestamp: Double)
    /// Advance the clock (timers fire) with no input.
    case wait(timestamp: Double)

    public var timestamp: Double {
        switch self {
        case .touches(let f): f.timestamp
        case .touchpadPinch(let p): p.timestamp
        case .scroll(let s): s.timestamp
        case .shake(let t): t
        case .wait(let t): t
        }
    }
}
