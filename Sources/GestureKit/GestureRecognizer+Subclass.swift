/// One input frame as a recognizer subclass sees it. UIKit: `UIEvent` of type `.touches`.
///
/// Deviations: a value made for each delivery, not an object that lives on; it has no `type`
/// (every event is a touch event) and no coalesced or predicted touches (a frame already
/// carries the latest location of each touch).
@MainActor
public struct TouchEvent {
    /// UIKit: `timestamp`: when the frame happened, seconds on the dispatcher's clock.
    public let timestamp: Double
    let dispatcher: TouchDispatcher?

    init(timestamp: Double, dispatcher: TouchDispatcher?) {
        self.timestamp = timestamp
        self.dispatcher = dispatcher
    }

    /// UIKit: `allTouches`: every touch down (and those ending in this frame).
    public var allTouches: Set<Touch>? {
        dispatcher.map { Set($0.activeTouches) }
    }

    /// UIKit: `touches(for:)`: the touches delivered to `gestureRecognizer`.
    public func touches(for gestureRecognizer: GestureRecognizer) -> Set<Touch>? {
        Set(gestureRecognizer.touches)
    }

    /// UIKit: `touches(for:)`: the touches that went down on `view`.
    public func touches(for view: View) -> Set<Touch>? {
        allTouches.map { $0.filter { $0.view === view } }
    }
}

/// A touch is itself: two references are equal when they are the same touch, as `UITouch`s are.
extension Touch: Hashable {
    public nonisolated static func == (a: Touch, b: Touch) -> Bool { a === b }
    public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Gives every recognizer type actions that take the recognizer as its own type:
/// `PinchGestureRecognizer { pinch in label.text = "\(pinch.scale)" }`, with no cast. Every
/// ``GestureRecognizer`` conforms; there is nothing to implement.
@MainActor
public protocol TypedGestureActions: GestureRecognizer {}

extension GestureRecognizer: TypedGestureActions {}

extension TypedGestureActions {
    /// UIKit: `init(target:action:)`, with the action a closure that receives this
    /// recognizer as its own type. `name` is the name in the event log (by default the kind's).
    public init(name: String? = nil, action: @escaping @MainActor (Self) -> Void) {
        self.init(name: name)
        addTarget(action)
    }

    /// UIKit: `addTarget(_:action:)`: `action` runs at each transition that fires actions
    /// (began, changed, ended, cancelled; never failed) and receives this recognizer as its own
    /// type.
    public func addTarget(_ action: @escaping @MainActor (Self) -> Void) {
        addAction { r in action(unsafeDowncast(r, to: Self.self)) }
    }
}
