import GestureKit

/// The admin gesture for a kiosk without a keyboard: two fingers held in opposite corners of the
/// window at once (top-left and bottom-right, or top-right and bottom-left) for ``hold``
/// seconds — a visitor does not do that by accident, a cleaner wiping the glass lifts a hand.
/// A corner is a square of side ``cornerSide(for:)`` (10 % of the shorter side, at least
/// 48 points). Fingers that leave their corner, or lift, start it over; after it fires, the
/// fingers must all lift before it can fire again. Only real touches count (not the tour, not
/// a replay).
public struct CornerPress: Sendable {
    /// Seconds the two corners are held (0: the corner gesture is off).
    public var hold: Double
    private var down: [Int: (location: Point, since: Double)] = [:]
    private var size = Size.zero
    private var fired = false

    public init(hold: Double = 5) {
        self.hold = hold
    }

    /// The side of a corner square for a window of `size` points.
    public static func cornerSide(for size: Size) -> Double {
        max(48, 0.1 * min(size.width, size.height))
    }

    /// Follows the touches of `frame` in a window of `size` points.
    public mutating func handle(_ frame: TouchFrame, size: Size) {
        guard hold > 0 else { return }
        self.size = size
        for c in frame.changes {
            switch c.phase {
            case .began: down[c.id] = (c.location, frame.timestamp)
            case .moved: down[c.id]?.location = c.location
            case .ended, .cancelled: down[c.id] = nil
            }
        }
        if down.isEmpty { fired = false }
    }

    /// When the gesture completes if the fingers stay (nil: no pair of opposite corners held).
    public var deadline: Double? {
        guard hold > 0, !fired else { return nil }
        let side = Self.cornerSide(for: size)
        func corner(_ p: Point) -> Int? {
            let left = p.x <= side
            let right = p.x >= size.width - side
            let top = p.y <= side
            let bottom = p.y >= size.height - side
            switch (left, right, top, bottom) {
            case (true, false, true, false): return 0  // top-left
            case (false, true, false, true): return 2  // bottom-right
            case (false, true, true, false): return 1  // top-right
            case (true, false, false, true): return 3  // bottom-left
            default: return nil
            }
        }
        var earliest: [Int: Double] = [:]
        for (_, d) in down {
            guard let c = corner(d.location) else { continue }
            earliest[c] = max(earliest[c] ?? -.infinity, d.since)
        }
        var best: Double?
        for (a, b) in [(0, 2), (1, 3)] {
            if let ta = earliest[a], let tb = earliest[b] { best = min(best ?? .infinity, max(ta, tb) + hold) }
        }
        return best
    }

    /// True once, when the held corners reach ``hold`` at `time`.
    public mutating func advance(to time: Double) -> Bool {
        guard let d = deadline, time >= d else { return false }
        fired = true
        return true
    }
}

/// The admin gesture for a touchscreen that reaches X as one pointer (a single-touch panel, or a
/// multitouch one without XInput 2 touch events), which cannot hold two corners at once: the
/// four corners tapped in order — top-left, top-right, bottom-right, bottom-left (clockwise from
/// top-left) — each within ``gap`` seconds of the one before. A corner is the square of
/// ``CornerPress/cornerSide(for:)``. A press anywhere else, or a corner out of order, starts it
/// over (a press in the top-left corner counts as its first). Only real input counts.
public struct CornerTaps: Sendable {
    /// The most seconds between two taps of the sequence (default 3).
    public var gap: Double
    private var next = 0
    private var last = -Double.infinity

    public init(gap: Double = 3) {
        self.gap = gap
    }

    /// Follows the presses of `frame` in a window of `size` points; true when it completes the
    /// sequence.
    public mutating func handle(_ frame: TouchFrame, size: Size) -> Bool {
        var done = false
        for c in frame.changes where c.phase == .began {
            let corner = Self.corner(of: c.location, in: size)
            if next > 0, frame.timestamp - last > gap { next = 0 }
            if corner == next {
                next += 1
            } else {
                next = corner == 0 ? 1 : 0
            }
            last = frame.timestamp
            if next == 4 {
                next = 0
                done = true
            }
        }
        return done
    }

    /// 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left, nil none.
    static func corner(of p: Point, in size: Size) -> Int? {
        let side = CornerPress.cornerSide(for: size)
        let left = p.x <= side
        let right = p.x >= size.width - side
        let top = p.y <= side
        let bottom = p.y >= size.height - side
        switch (left, right, top, bottom) {
        case (true, false, true, false): return 0
        case (false, true, true, false): return 1
        case (false, true, false, true): return 2
        case (true, false, false, true): return 3
        default: return nil
        }
    }
}
