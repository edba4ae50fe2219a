import GestureKit

extension Trace {
    /// The events with every location mapped from `from` (the trace's viewport) to `to` (a
    /// window of another size), per axis. The demo lays itself out in proportion to the window,
    /// so a trace made for one size lands in the same regions at another: the kiosk's bundled
    /// tour (made for 1024×768) plays on any screen. Times, ids, phases, touchpad scales and
    /// angles are unchanged (a pinch's scale is a ratio; per-axis scaling of the fingers may make
    /// a touch pinch's numbers differ a little on a window of another aspect ratio).
    public static func scaled(_ events: [InputEvent], from: Size, to: Size) -> [InputEvent] {
        guard from.width > 0, from.height > 0, from != to else { return events }
        let sx = to.width / from.width
        let sy = to.height / from.height
        return events.map { scaled($0, sx: sx, sy: sy) }
    }

    /// One event of a trace made for `from`, mapped to `to` as ``scaled(_:from:to:)`` maps
    /// them all (a streamed tour is scaled as it plays).
    public static func scaled(_ event: InputEvent, from: Size, to: Size) -> InputEvent {
        guard from.width > 0, from.height > 0, from != to else { return event }
        return scaled(event, sx: to.width / from.width, sy: to.height / from.height)
    }

    private static func scaled(_ event: InputEvent, sx: Double, sy: Double) -> InputEvent {
        func map(_ p: Point) -> Point { Point(x: p.x * sx, y: p.y * sy) }
        switch event {
        case .touches(var frame):
            for i in frame.changes.indices { frame.changes[i].location = map(frame.changes[i].location) }
            return .touches(frame)
        case .touchpadPinch(var pinch):
            pinch.location = map(pinch.location)
            return .touchpadPinch(pinch)
        case .scroll(var scroll):
            scroll.location = map(scroll.location)
            scroll.delta = Vector(dx: scroll.delta.dx * sx, dy: scroll.delta.dy * sy)
            return .scroll(scroll)
        case .shake, .wait:
            return event
        }
    }
}
