/// Edges of a rectangle. UIKit: `UIRectEdge`.
public struct RectEdge: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let top = RectEdge(rawValue: 1 << 0)
    public static let left = RectEdge(rawValue: 1 << 1)
    public static let bottom = RectEdge(rawValue: 1 << 2)
    public static let right = RectEdge(rawValue: 1 << 3)
    public static let all: RectEdge = [.top, .left, .bottom, .right]
    /// Log names, in the order left, right, top, bottom.
    public static let named: [(String, RectEdge)] = [
        ("left", .left), ("right", .right), ("top", .top), ("bottom", .bottom),
    ]
    public var description: String {
        Self.named.filter { contains($0.1) }.map(\.0).joined(separator: " ")
    }
    public init?(name: String) {
        guard let d = Self.named.first(where: { $0.0 == name }) else { return nil }
        self = d.1
    }
}

/// Recognizes a pan that starts at an edge of the window. UIKit:
/// `UIScreenEdgePanGestureRecognizer` (the window stands for the screen).
///
/// Rules (docs/DESIGN.md §3): the first touch must go down within ``edgeDistance`` (20 pt) of an
/// allowed edge of the window, and its first 10 pt of movement must be mostly away from that
/// edge (the component along the edge's normal larger than the one along the edge), else the
/// recognizer fails; otherwise as a pan of that one touch: began once it has moved more than
/// 10 pt, ended when it lifts, failed when it lifts before that.
/// ``recognizedEdge`` is the nearest allowed edge the touch went down at (also when it was too
/// far from it and the recognizer failed, so that the log's `edge` always names an edge).
///
/// Later touches are ignored entirely (``GestureRecognizer/ignore(_:)``), whether they land
/// with the first, before the gesture began or after: they neither fail it nor count (not in
/// the location, the translation or `numberOfTouches`; their moves, lifts and cancels are not
/// seen; the gesture does not wait for them to lift), and the gesture does not compete with
/// the other recognizers of those touches for them. Touches landing in the same frame as the
/// first are later ones too, in the frame's order.
@MainActor
public final class ScreenEdgePanGestureRecognizer: PanGestureRecognizer {
    /// UIKit: `edges` (default none: set it).
    @exclusivity(unchecked) public var edges: RectEdge = []
    /// How close to the edge the first touch must land: 20 pt.
    @exclusivity(unchecked) public var edgeDistance = 20.0
    @exclusivity(unchecked) public private(set) var recognizedEdge: RectEdge = []
    @exclusivity(unchecked) private var first: Touch?
    @exclusivity(unchecked) private var checkedDirection = false

    public required init(name: String? = nil) {
        super.init(kind: .screenEdgePan, name: name)
        maximumNumberOfTouches = 1
    }

    public override var logValues: GestureValues {
        .screenEdgePan(
            translation: windowTranslation, velocity: velocityForLog ? windowVelocity : .zero, edge: recognizedEdge)
    }

    public override func touchesBegan(_ touches: [Touch]) {
        guard first == nil, let touch = touches.first else {
            for later in touches { ignore(later) }
            return
        }
        first = touch
        for later in touches.dropFirst() { ignore(later) }
        let bounds = windowView?.bounds ?? .zero
        let p = touch.locationInWindow
        var best: RectEdge = []
        var bestDistance = Double.infinity
        for (_, edge) in RectEdge.named where edges.contains(edge) {
            let d: Double
            switch edge {
            case .left: d = p.x - bounds.minX
            case .right: d = bounds.maxX - p.x
            case .top: d = p.y - bounds.minY
            default: d = bounds.maxY - p.y
            }
            if d < bestDistance && d >= -edgeDistance {
                best = edge
                bestDistance = d
            }
        }
        // The log names the nearest allowed edge even when the touch was too far from it.
        recognizedEdge = best
        if best.isEmpty || bestDistance > edgeDistance {
            state = .failed
            return
        }
        update()
    }

    public override func touchesMoved(_ touches: [Touch]) {
        guard let first else { return }
        if !checkedDirection {
            let d = first.locationInWindow - first.initialLocationInWindow
            if d.length >= 10 {
                checkedDirection = true
                let (normal, tangent): (Double, Double)
                switch recognizedEdge {
                case .left: (normal, tangent) = (d.dx, abs(d.dy))
                case .right: (normal, tangent) = (-d.dx, abs(d.dy))
                case .top: (normal, tangent) = (d.dy, abs(d.dx))
                default: (normal, tangent) = (-d.dy, abs(d.dx))
                }
                if !(normal > tangent) {
                    state = .failed
                    return
                }
            }
        }
        super.touchesMoved(touches)
    }

    public override func reset() {
        super.reset()
        first = nil
        checkedDirection = false
        recognizedEdge = []
    }
}
