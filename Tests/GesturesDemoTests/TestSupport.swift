import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

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
