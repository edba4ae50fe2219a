/// The kind-specific values of a recognizer at one transition, for the event log.
public enum GestureValues: Equatable, Sendable {
    case tap(taps: Int, touches: Int)
    case longPress
    case swipe(direction: SwipeDirection)
    case pan(translation: Vector, velocity: Vector)
    case screenEdgePan(translation: Vector, velocity: Vector, edge: RectEdge)
    case pinch(scale: Double, velocity: Double)
    case rotation(rotation: Double, velocity: Double)
    case shake
    /// A recognizer that reports no values (a subclass that does not override
    /// ``GestureRecognizer/logValues``): its line carries its name, kind and state only.
    case stateOnly

    /// Equal apart from velocities: a `changed` is reported only when this differs.
    func sameIgnoringVelocity(_ o: GestureValues) -> Bool {
        switch (self, o) {
        case (.pan(let a, _), .pan(let b, _)): a == b
        case (.screenEdgePan(let a, _, let e), .screenEdgePan(let b, _, let f)): a == b && e == f
        case (.pinch(let a, _), .pinch(let b, _)): a == b || (a.isNaN && b.isNaN)
        case (.rotation(let a, _), .rotation(let b, _)): a == b || (a.isNaN && b.isNaN)
        default: self == o
        }
    }
}

/// One transition of one recognizer, as the event log writes it.
@MainActor
public struct GestureTransition {
    public let time: Double
    public let recognizer: GestureRecognizer
    public let state: GestureState
    /// Window points.
    public let location: Point
    public let numberOfTouches: Int
    public let values: GestureValues
}
