/// The kinds of scroll input. UIKit: `UIScrollType` (a trackpad's or a Magic Mouse's smooth
/// scroll is `continuous`, a mouse wheel's clicks are `discrete`).
public enum ScrollType: String, Sendable, Hashable, CaseIterable {
    case discrete, continuous
}

/// Which kinds of scroll input a pan recognizer takes. UIKit: `UIScrollTypeMask`.
public struct ScrollTypeMask: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let discrete = ScrollTypeMask(rawValue: 1 << 0)
    public static let continuous = ScrollTypeMask(rawValue: 1 << 1)
    public static let all: ScrollTypeMask = [.discrete, .continuous]

    /// The mask of one type.
    public init(_ type: ScrollType) {
        self = type == .discrete ? .discrete : .continuous
    }

    public func contains(_ type: ScrollType) -> Bool {
        contains(type == .discrete ? ScrollTypeMask.discrete : ScrollTypeMask.continuous)
    }
}

/// One scroll event: a wheel click or a smooth-scroll step (XI 2.1 scroll valuators), at the
/// pointer. `delta` is how far the content moves, in window points, as a finger dragging it
/// would (the wheel turned down scrolls down, so the content moves up: `dy` < 0); one wheel
/// click is ``clickDistance``. With `zoom` (Ctrl held) the event is a scroll-zoom instead: it
/// drives pinch recognizers as a touchpad pinch about the pointer would, by
/// ``zoomPerClick`` per click of `delta.dy` (up zooms in), and pans nothing.
///
/// UIKit has no event of its own for this (iPadOS feeds scrolls to `UIPanGestureRecognizer`s
/// whose ``PanGestureRecognizer/allowedScrollTypesMask`` allows them, and trackpad zooms to
/// pinches). A scroll has no begin or end on X: a sequence begins with the first event and ends
/// ``TouchDispatcher/scrollEndDelay`` after the last one.
public struct ScrollInput: Hashable, Sendable {
    /// Points per wheel click (`delta` of one click).
    public static let clickDistance = 40.0
    /// The scale one click of scroll-zoom multiplies by (the `+` key's step).
    public static let zoomPerClick = 1.1

    public var timestamp: Double
    public var location: Point
    public var delta: Vector
    public var type: ScrollType
    public var zoom: Bool

    public init(timestamp: Double, location: Point, delta: Vector, type: ScrollType, zoom: Bool = false) {
        self.timestamp = timestamp
        self.location = location
        self.delta = delta
        self.type = type
        self.zoom = zoom
    }

    /// The scale factor of a scroll-zoom event: ``zoomPerClick`` to the power of the clicks of
    /// `delta.dy` (horizontal scrolls do not zoom).
    public var zoomFactor: Double {
        let clicks = delta.dy / Self.clickDistance
        guard clicks.isFinite else { return 1 }
        return ScrollPhysics.interpolateScale(from: 1, to: Self.zoomPerClick, fraction: clicks)
    }
}
