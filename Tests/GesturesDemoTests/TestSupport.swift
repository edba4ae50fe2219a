import Foundation
import GestureKit
import GestureTrace
import GesturesDemo
import Testing

// Building input: touch frames on a virtual clock.

func down(_ id: Int, _ x: Double, _ y: Double) -> TouchChange {
    TouchChange(id: id, phase: .began, location: Point(x: x, y: y))
}

func move(_ id: Int, _ x: Double, _ y: Double) -> TouchChange {
    TouchChange(id: id, phase: .moved, location: Point(x: x, y: y))
}

func up(_ id: Int, _ x: Double, _ y: Double) -> TouchChange {
    TouchChange(id: id, phase: .ended, location: Point(x: x, y: y))
}

func frame(_ t: Double, _ changes: TouchChange...) -> InputEvent {
    .touches(TouchFrame(timestamp: t, changes: changes))
}

/// Fingers following paths: down at `start`, `steps` moves `dt` apart, up `lift` after the last
/// move (50 ms by default: the fingers have stopped, velocities read 0). `paths[i](u)` is finger
/// i's position for u in 0…1; ids are `firstID`, `firstID + 1`, ….
func stroke(
    start: Double, steps: Int, dt: Double = 0.016, lift: Double = 0.05, firstID: Int = 1,
    _ paths: [(Double) -> Point]
) -> [InputEvent] {
    var events: [InputEvent] = []
    events.append(
        .touches(
            TouchFrame(
                timestamp: start,
                changes: paths.enumerated().map {
                    TouchChange(id: firstID + $0.offset, phase: .began, location: $0.element(0))
                }
            )))
    for k in 1...steps {
        let u = Double(k) / Double(steps)
        events.append(
            .touches(
                TouchFrame(
                    timestamp: start + Double(k) * dt,
                    changes: paths.enumerated().map {
                        TouchChange(id: firstID + $0.offset, phase: .moved, location: $0.element(u))
                    })))
    }
    events.append(
        .touches(
            TouchFrame(
                timestamp: start + Double(steps) * dt + lift,
                changes: paths.enumerated().map {
                    TouchChange(id: firstID + $0.offset, phase: .ended, location: $0.element(1))
                }
            )))
    return events
}

func lerp(_ a: Point, _ b: Point) -> (Double) -> Point {
    { u in Point(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u) }
}

/// A finger on a circle about `c`, radius `r`, from angle `a0` to `a1` (radians, clockwise with y down).
func arc(_ c: Point, _ r: Double, _ a0: Double, _ a1: Double) -> (Double) -> Point {
    { u in
        let a = a0 + (a1 - a0) * u
        return Point(x: c.x + r * cos(a), y: c.y + r * sin(a))
    }
}

/// Replays `events` through a fresh demo scene and returns the whole log.
@MainActor
func replayLog(_ events: [InputEvent], size: Size = Size(width: 1024, height: 768), classic: Bool = false) -> (
    DemoScene, [String]
) {
    let scene = DemoScene(size: size, classic: classic)
    var log: [String] = []
    scene.onLogLine = { log.append($0) }
    replay(events, through: scene)
    return (scene, log)
}

/// The gesture lines reduced to "recognizer state" for sequence checks.
func transitions(_ log: [String]) -> [String] {
    log.compactMap { line -> String? in
        guard line.hasPrefix("{\"type\":\"gesture\"") else { return nil }
        return "\(field(line, "recognizer") ?? "?") \(field(line, "state") ?? "?")"
    }
}

/// A string or number field of a flat JSON line (good enough for the log's keys).
func field(_ line: String, _ key: String) -> String? {
    guard let r = line.range(of: "\"\(key)\":") else { return nil }
    var rest = line[r.upperBound...]
    if rest.first == "\"" {
        rest = rest.dropFirst()
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
    let end = rest.firstIndex(where: { $0 == "," || $0 == "}" }) ?? rest.endIndex
    return String(rest[..<end])
}

func number(_ line: String, _ key: String) -> Double? { field(line, key).flatMap(Double.init) }

let layout1024 = DemoLayout(size: Size(width: 1024, height: 768))
