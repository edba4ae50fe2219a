import GestureKit

#if canImport(Glibc)
    import Glibc
#endif

// Touch input written the way every suite reads it: fingers, frames on a virtual clock, strokes
// along paths. One vocabulary for the recognizer, trace, demo and shell tests.

/// Builds one finger's change in a touch frame: `Finger.down(1, 100, 200)`.
package enum Finger {
    package static func down(_ id: Int, _ x: Double, _ y: Double) -> TouchChange {
        TouchChange(id: id, phase: .began, location: Point(x: x, y: y))
    }
    package static func move(_ id: Int, _ x: Double, _ y: Double) -> TouchChange {
        TouchChange(id: id, phase: .moved, location: Point(x: x, y: y))
    }
    package static func up(_ id: Int, _ x: Double, _ y: Double) -> TouchChange {
        TouchChange(id: id, phase: .ended, location: Point(x: x, y: y))
    }
    /// A cancelled finger; where it was does not matter to a recognizer unless given.
    package static func cancel(_ id: Int, _ x: Double = 0, _ y: Double = 0) -> TouchChange {
        TouchChange(id: id, phase: .cancelled, location: Point(x: x, y: y))
    }
}

/// A touch frame at `t` seconds as an input event.
package func frame(_ t: Double, _ changes: TouchChange...) -> InputEvent {
    .touches(TouchFrame(timestamp: t, changes: changes))
}

/// Fingers following paths: down at `start`, `steps` moves `dt` apart, up `lift` after the last
/// move (50 ms by default: the fingers have stopped, velocities read 0). `paths[i](u)` is finger
/// i's position for u in 0…1; ids are `firstID`, `firstID + 1`, ….
package func stroke(
    start: Double, steps: Int, dt: Double = 0.016, lift: Double = 0.05, firstID: Int = 1,
    _ paths: [(Double) -> Point]
) -> [InputEvent] {
    func fingers(_ phase: TouchPhase, at u: Double, time: Double) -> InputEvent {
        .touches(
            TouchFrame(
                timestamp: time,
                changes: paths.enumerated().map {
                    TouchChange(id: firstID + $0.offset, phase: phase, location: $0.element(u))
                }))
    }
    var events = [fingers(.began, at: 0, time: start)]
    for k in 1...steps {
        events.append(fingers(.moved, at: Double(k) / Double(steps), time: start + Double(k) * dt))
    }
    events.append(fingers(.ended, at: 1, time: start + Double(steps) * dt + lift))
    return events
}

/// A straight path from `a` to `b`.
package func lerp(_ a: Point, _ b: Point) -> (Double) -> Point {
    { u in Point(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u) }
}

/// A finger on a circle about `c`, radius `r`, from angle `a0` to `a1` (radians, clockwise with y down).
package func arc(_ c: Point, _ r: Double, _ a0: Double, _ a1: Double) -> (Double) -> Point {
    { u in
        let a = a0 + (a1 - a0) * u
        return Point(x: c.x + r * cos(a), y: c.y + r * sin(a))
    }
}
