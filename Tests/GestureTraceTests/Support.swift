import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import Testing

/// One finger of a trace, from touch-down to lift.
struct FingerTrack {
    var id: Int
    var start: Point
    var end: Point
    var startTime: Double
    var endTime: Double?
    var points: [Point]
    var travel: Vector { end - start }
}

/// What a trace contains, as a person would count it.
struct TraceStats {
    var frames = 0
    var downs = 0
    var maxSimultaneous = 0
    var duration = 0.0
    var fingers: [FingerTrack] = []
    var stillDown = 0
    var allInside = true
    var consistent = true

    init(_ trace: Trace) {
        var open: [Int: Int] = [:]  // id → index in fingers
        let bounds = Rect(origin: .zero, size: trace.viewport)
        for f in trace.frames {
            frames += 1
            duration = f.timestamp
            for c in f.changes {
                if !bounds.contains(c.location) { allInside = false }
                switch c.phase {
                case .began:
                    if open[c.id] != nil { consistent = false }
                    downs += 1
                    open[c.id] = fingers.count
                    fingers.append(
                        FingerTrack(
                            id: c.id, start: c.location, end: c.location, startTime: f.timestamp, points: [c.location]))
                case .moved:
                    guard let i = open[c.id] else {
                        consistent = false
                        continue
                    }
                    fingers[i].end = c.location
                    fingers[i].points.append(c.location)
                case .ended, .cancelled:
                    guard let i = open[c.id] else {
                        consistent = false
                        continue
                    }
                    fingers[i].end = c.location
                    fingers[i].endTime = f.timestamp
                    open[c.id] = nil
                }
            }
            maxSimultaneous = max(maxSimultaneous, open.count)
        }
        stillDown = open.count
    }

    /// Groups fingers into strokes: fingers whose down-times overlap belong to one stroke.
    var strokes: [[FingerTrack]] {
        var result: [[FingerTrack]] = []
        var end = -Double.infinity
        for f in fingers.sorted(by: { $0.startTime < $1.startTime }) {
            if f.startTime <= end, !result.isEmpty {
                result[result.count - 1].append(f)
            } else {
                result.append([f])
            }
            end = max(end, f.endTime ?? .infinity)
        }
        return result
    }
}

/// Compresses `path` with `gzip -f` into `path.gz` (the original is removed).
func gzip(_ path: String) throws {
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = ["-f", path]
    try gzip.run()
    gzip.waitUntilExit()
    #expect(gzip.terminationStatus == 0)
}
