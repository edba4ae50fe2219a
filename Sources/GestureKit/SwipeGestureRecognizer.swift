/// Swipe directions. UIKit: `UISwipeGestureRecognizer.Direction`.
public struct SwipeDirection: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let right = SwipeDirection(rawValue: 1 << 0)
    public static let left = SwipeDirection(rawValue: 1 << 1)
    public static let up = SwipeDirection(rawValue: 1 << 2)
    public static let down = SwipeDirection(rawValue: 1 << 3)
    /// Log names, in the order right, left, up, down.
    public static let named: [(String, SwipeDirection)] = [
        ("right", .right), ("left", .left), ("up", .up), ("down", .down),
    ]
    public var description: String {
        Self.named.filter { contains($0.1) }.map(\.0).joined(separator: " ")
    }
    public init?(name: String) {
        guard let d = Self.named.first(where: { $0.0 == name }) else { return nil }
        self = d.1
    }
}

/// Recognizes a quick stroke in one of the allowed directions. UIKit:
/// `UISwipeGestureRecognizer` (discrete).
///
/// Rules (docs/DESIGN.md §3): recognized at the first movement where the centroid of the
/// ``numberOfTouchesRequired`` touches has moved at least ``minimumDistance`` (50 pt) along an
/// allowed direction, the average speed since touch-down is at least ``minimumSpeed``
/// (300 pt/s), and the along-axis movement is at least ``axisRatio`` (1.5) × the cross-axis
/// movement. Fails on a lift before that, on more touches than required, on a reversal along
/// the axis, or once ``maximumDuration`` (0.5 s) has passed since touch-down.
///
/// A *reversal* (UIKit does not define one) is the centroid coming back by more than 10 pt from
/// its furthest point along the axis, once that point is more than 10 pt from the start.
/// With several touches the measurement starts when the last required touch lands.
@MainActor
public final class SwipeGestureRecognizer: GestureRecognizer {
    /// UIKit: `direction` (default `.right`).
    @exclusivity(unchecked) public var direction: SwipeDirection = .right
    /// UIKit: `numberOfTouchesRequired` (1).
    @exclusivity(unchecked) public var numberOfTouchesRequired = 1
    @exclusivity(unchecked) public var minimumDistance = 50.0
    @exclusivity(unchecked) public var minimumSpeed = 300.0
    @exclusivity(unchecked) public var axisRatio = 1.5
    @exclusivity(unchecked) public var maximumDuration = 0.5
    /// The tolerance of the reversal rule: 10 pt.
    @exclusivity(unchecked) public var reversalTolerance = 10.0
    /// The direction recognized (empty before).
    @exclusivity(unchecked) public private(set) var recognizedDirection: SwipeDirection = []

    @exclusivity(unchecked) private var startTime = 0.0
    @exclusivity(unchecked) private var start: Point?
    @exclusivity(unchecked) private var extremeX = 0.0
    @exclusivity(unchecked) private var extremeY = 0.0
    @exclusivity(unchecked) private var seenTouches = 0

    public required init(name: String? = nil) {
        super.init(builtIn: .swipe, name: name, continuous: false)
    }

    public override var logValues: GestureValues {
        .swipe(direction: recognizedDirection.isEmpty ? direction : recognizedDirection)
    }

    public override func touchesBegan(_ touches: [Touch]) {
        if seenTouches == 0 {
            startTime = now
            setTimer(at: now + maximumDuration)
        }
        seenTouches += touches.count
        if seenTouches > numberOfTouchesRequired {
            state = .failed
            return
        }
        if seenTouches == numberOfTouchesRequired {
            start = centroid(of: self.touches)
        }
    }

    public override func touchesMoved(_ touches: [Touch]) {
        guard let start, numberOfDownTouches == numberOfTouchesRequired else { return }
        let d = centroid(of: self.touches) - start
        // Reversal along the watched axes.
        let horizontal = direction.contains(.right) || direction.contains(.left)
        let vertical = direction.contains(.up) || direction.contains(.down)
        if horizontal && reversed(&extremeX, d.dx) || vertical && reversed(&extremeY, d.dy) {
            state = .failed
            return
        }
        let elapsed = now - startTime
        var best: SwipeDirection = []
        var bestAlong = 0.0
        for (_, dir) in SwipeDirection.named where direction.contains(dir) {
            let along: Double
            let cross: Double
            switch dir {
            case .right: (along, cross) = (d.dx, abs(d.dy))
            case .left: (along, cross) = (-d.dx, abs(d.dy))
            case .up: (along, cross) = (-d.dy, abs(d.dx))
            default: (along, cross) = (d.dy, abs(d.dx))
            }
            let speed = elapsed > 0 ? along / elapsed : Double.infinity
            if along >= minimumDistance && speed >= minimumSpeed && along >= axisRatio * cross && along > bestAlong {
                best = dir
                bestAlong = along
            }
        }
        if !best.isEmpty {
            recognizedDirection = best
            state = .recognized
        }
    }

    /// Tracks the furthest excursion on one axis; true once the centroid came back by more than
    /// the tolerance from an excursion beyond it.
    private func reversed(_ extreme: inout Double, _ value: Double) -> Bool {
        if abs(value) > abs(extreme) && (extreme == 0 || (value > 0) == (extreme > 0)) { extreme = value }
        if abs(extreme) <= reversalTolerance {
            extreme = value
            return false
        }
        return extreme > 0 ? value < extreme - reversalTolerance : value > extreme + reversalTolerance
    }

    public override func touchesEnded(_ touches: [Touch]) {
        state = .failed
    }

    public override func timerFired() {
        state = .failed
    }

    public override func reset() {
        start = nil
        extremeX = 0
        extremeY = 0
        seenTouches = 0
        recognizedDirection = []
    }
}
