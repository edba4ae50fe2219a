import RealModule

/// The two touches a pinch or a rotation tracks (docs/DESIGN.md §3): the first two to land; others
/// are ignored until one of the pair lifts, when another touch already down takes its place,
/// else the next one to land. Every change of the pair is a *re-base*: the owner freezes its
/// value and measures from the new pair's geometry, so the value never jumps.
@MainActor
struct TouchPair {
    // Strong (cleared at reset): weak references would give every Touch a side table.
    var first: Touch?
    var second: Touch?
    /// Incremented at every change of the complete pair (the owner re-bases when it changes).
    private(set) var generation = 0

    var isComplete: Bool { first != nil && second != nil }
    var count: Int { (first != nil ? 1 : 0) + (second != nil ? 1 : 0) }

    mutating func clear() {
        first = nil
        second = nil
    }

    /// Drops lifted touches and fills the pair from `candidates` (the recognizer's touches, in
    /// landing order). Returns true when a new complete pair formed.
    mutating func refill(from candidates: [Touch]) -> Bool {
        // The common case, a complete pair still down, changes nothing (and retains nothing).
        if first != nil && first!.phase.isDown && second != nil && second!.phase.isDown { return false }
        if first != nil && !first!.phase.isDown { first = nil }
        if second != nil && !second!.phase.isDown { second = nil }
        if first == nil, let s = second {
            first = s
            second = nil
        }
        let wasComplete = isComplete
        for t in candidates where t.phase.isDown {
            if isComplete { break }
            if t === first || t === second { continue }
            if first == nil { first = t } else { second = t }
        }
        if isComplete && !wasComplete {
            generation &+= 1
            return true
        }
        return false
    }

    var distance: Double {
        guard let a = first?.locationInWindow, let b = second?.locationInWindow else { return 0 }
        return Double.hypot(b.x - a.x, b.y - a.y)
    }

    /// Angle of the line first → second, radians, clockwise positive with y down.
    var angle: Double {
        guard let a = first?.locationInWindow, let b = second?.locationInWindow else { return 0 }
        return Double.atan2(y: b.y - a.y, x: b.x - a.x)
    }

    var midpoint: Point? {
        guard let a = first?.locationInWindow, let b = second?.locationInWindow else { return nil }
        return Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
    }
}

/// `a` brought into (−π, π].
func normalizedAngle(_ a: Double) -> Double {
    guard a.isFinite else { return 0 }
    var r = a.truncatingRemainder(dividingBy: 2 * .pi)
    if r > .pi { r -= 2 * .pi }
    if r <= -.pi { r += 2 * .pi }
    return r
}
