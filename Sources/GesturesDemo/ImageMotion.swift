import GestureKit

/// Where the picture is: what the undo stack keeps and an animation interpolates. The image
/// view's centre (window points), the scale and angle of its transform, its bounds' size
/// (`--classic` pinches the size).
struct ImagePose: Equatable {
    var center: Point
    var scale: Double
    var angle: Double
    var bounds: Size

    init(center: Point, scale: Double, angle: Double, bounds: Size) {
        self.center = center
        self.scale = scale
        self.angle = angle
        self.bounds = bounds
    }

    @MainActor init(of view: View) {
        center = view.center
        scale = view.transform.scale
        angle = view.transform.rotationAngle
        bounds = view.bounds.size
    }

    /// The original frame of `layout`.
    init(home layout: DemoLayout) {
        self.init(center: layout.image.center, scale: 1, angle: 0, bounds: layout.image.size)
    }

    var transform: AffineTransform {
        AffineTransform(rotationAngle: angle).scaledBy(x: scale, y: scale)
    }

    /// Half the width and height of the window box the picture covers.
    var halfExtent: Vector {
        let t = transform
        return Vector(
            dx: (abs(t.a) * bounds.width + abs(t.c) * bounds.height) / 2,
            dy: (abs(t.b) * bounds.width + abs(t.d) * bounds.height) / 2)
    }

    @MainActor func apply(to view: View) {
        view.bounds.size = bounds
        view.center = center
        view.transform = transform
    }

    /// The pose scaled by `f` about `pivot` (window points).
    func scaled(by f: Double, about pivot: Point) -> ImagePose {
        var p = self
        p.center = pivot + (center - pivot) * f
        p.scale *= f
        return p
    }
}

/// The range the picture's centre may take in a window of `size` so that it is never lost.
///
/// Two rules, each a range per axis; the centre must satisfy both (where they cannot both hold,
/// the second wins):
/// 1. The box of the picture's *visible* pixels (``VisibleRegion/box``; its whole box for a
///    picture without transparency) overlaps the window by at least half the smaller of the
///    two extents along each axis. An upright picture smaller than the window thus keeps at
///    least a quarter of that box in view; one larger covers at least half the window's width
///    and height.
/// 2. For a picture with transparent margins, the box can still show only transparent corners
///    (the flower's box at 10×): its anchor (``VisibleRegion/anchor``, a mostly opaque pixel at
///    its heart) stays at least ``anchorMargin`` window points inside the window, so some of its
///    pixels always show, at any scale and angle.
struct CenterBounds {
    var minX: Double, maxX: Double, minY: Double, maxY: Double

    /// How far inside the window a picture's anchor stays (window points; at most half the
    /// window): half of a 44-pt touch target, so a finger can still land on it.
    static let anchorMargin = 22.0

    private init(minX: Double, maxX: Double, minY: Double, maxY: Double) {
        (self.minX, self.maxX, self.minY, self.maxY) = (minX, maxX, minY, maxY)
    }

    /// Rule 1 for a box of half extent `half` centred on the picture's centre.
    init(half: Vector, window: Size) {
        let mx = min(2 * half.dx, window.width) / 2
        let my = min(2 * half.dy, window.height) / 2
        minX = mx - half.dx
        maxX = window.width - mx + half.dx
        minY = my - half.dy
        maxY = window.height - my + half.dy
    }

    /// Both rules for `pose`, whose visible pixels are `visible` (nil: all of its box).
    init(pose: ImagePose, visible: VisibleRegion?, window: Size) {
        guard let visible else {
            self.init(half: pose.halfExtent, window: window)
            return
        }
        let t = pose.transform
        let b = pose.bounds
        // A point of the picture (fractions of its size) relative to its centre, window points.
        func offset(_ p: Point) -> Vector {
            let x = (p.x - 0.5) * b.width
            let y = (p.y - 0.5) * b.height
            return Vector(dx: t.a * x + t.c * y, dy: t.b * x + t.d * y)
        }
        let box = visible.box
        let corners = [
            Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY),
            Point(x: box.minX, y: box.maxY), Point(x: box.maxX, y: box.maxY),
        ].map(offset)
        let (lowX, highX) = (corners.map(\.dx).min()!, corners.map(\.dx).max()!)
        let (lowY, highY) = (corners.map(\.dy).min()!, corners.map(\.dy).max()!)
        let boxRule = CenterBounds(half: Vector(dx: (highX - lowX) / 2, dy: (highY - lowY) / 2), window: window)
        let (shiftX, shiftY) = ((highX + lowX) / 2, (highY + lowY) / 2)
        let a = offset(visible.anchor)
        let mx = min(Self.anchorMargin, window.width / 2)
        let my = min(Self.anchorMargin, window.height / 2)
        let x = Self.both(boxRule.minX - shiftX, boxRule.maxX - shiftX, mx - a.dx, window.width - mx - a.dx)
        let y = Self.both(boxRule.minY - shiftY, boxRule.maxY - shiftY, my - a.dy, window.height - my - a.dy)
        self.init(minX: x.0, maxX: x.1, minY: y.0, maxY: y.1)
    }

    /// The range [lo1, hi1] ∩ [lo2, hi2], or [lo2, hi2] where they do not meet.
    private static func both(_ lo1: Double, _ hi1: Double, _ lo2: Double, _ hi2: Double) -> (Double, Double) {
        let (lo, hi) = (max(lo1, lo2), min(hi1, hi2))
        return lo <= hi ? (lo, hi) : (lo2, hi2)
    }

    func clamp(_ p: Point) -> Point {
        Point(x: min(max(p.x, minX), maxX), y: min(max(p.y, minY), maxY))
    }
}

/// An animation of the picture, a pure function of time (so it lands on the same values however
/// often the loop draws it, and a replay is repeatable).
struct ImageAnimation {
    enum Kind: String {
        /// After a fling: deceleration at UIScrollView's normal rate, stopped by the bounds.
        case momentum
        /// Back inside the scale limits after a pinch stretched it past them.
        case bounce
        /// A double tap: back to the original frame.
        case reset
        /// `u` / Backspace: back to the pose before the last gesture or key.
        case undo
    }

    /// The fling stops once slower than this (window points/s).
    static let stopSpeed = 10.0

    let kind: Kind
    let start: Double
    let end: Double
    let from: ImagePose
    let to: ImagePose
    /// Momentum only: the release velocity (window points/s) and the centre's bounds.
    let velocity: Vector
    let bounds: CenterBounds?

    /// A tween from `from` to `to` over `duration` seconds (ease-out cubic; the scale moves
    /// geometrically, the angle the short way round).
    init(_ kind: Kind, from: ImagePose, to: ImagePose, at start: Double, duration: Double) {
        self.kind = kind
        self.start = start
        self.end = start + duration
        self.from = from
        self.to = to
        velocity = .zero
        bounds = nil
    }

    /// A fling of `velocity` from `from`, until it has slowed to ``stopSpeed``
    /// or both axes have reached `bounds`.
    init(momentum velocity: Vector, from: ImagePose, bounds: CenterBounds, at start: Double) {
        kind = .momentum
        self.start = start
        self.from = from
        self.velocity = velocity
        self.bounds = bounds
        var duration = ScrollPhysics.momentumDuration(
            speed: velocity.length, minimumSpeed: Self.stopSpeed)
        // Both axes stopped at a bound before the fling ran out: it ends there.
        let hits = [
            (velocity.dx, from.center.x, bounds.minX, bounds.maxX),
            (velocity.dy, from.center.y, bounds.minY, bounds.maxY),
        ]
        .map { v, p, lo, hi -> Double in
            guard v != 0 else { return 0 }
            return ScrollPhysics.momentumTime(velocity: v, from: p, to: v > 0 ? hi : lo) ?? duration
        }
        duration = min(duration, hits.max() ?? duration)
        end = start + duration
        self.to = Self.carried(from, velocity, bounds, duration)
    }

    /// `pose` carried `elapsed` seconds by a fling of `velocity`, held in `bounds`.
    private static func carried(_ pose: ImagePose, _ velocity: Vector, _ bounds: CenterBounds, _ elapsed: Double)
        -> ImagePose
    {
        var p = pose
        p.center = bounds.clamp(
            pose.center
                + Vector(
                    dx: ScrollPhysics.momentumDistance(velocity: velocity.dx, elapsed: elapsed),
                    dy: ScrollPhysics.momentumDistance(velocity: velocity.dy, elapsed: elapsed)))
        return p
    }

    /// The pose at `time` (the end pose from ``end`` on).
    func pose(at time: Double) -> ImagePose {
        if time >= end { return to }
        let dt = max(0, time - start)
        if let bounds { return Self.carried(from, velocity, bounds, dt) }
        let u = end > start ? min(1, dt / (end - start)) : 1
        let e = 1 - (1 - u) * (1 - u) * (1 - u)
        var turn = to.angle - from.angle
        let full = 2 * Double.pi
        turn -= full * (turn / full).rounded()
        return ImagePose(
            center: from.center + (to.center - from.center) * e,
            scale: ScrollPhysics.interpolateScale(from: from.scale, to: to.scale, fraction: e),
            angle: from.angle + turn * e,
            bounds: Size(
                width: from.bounds.width + (to.bounds.width - from.bounds.width) * e,
                height: from.bounds.height + (to.bounds.height - from.bounds.height) * e))
    }
}

/// The picture's view. A picture pinched small stays within reach of two fingers: touches land
/// on it anywhere in its bounds and, however small it is drawn, anywhere within a square of
/// ``minimumTouchSize`` window points about its centre (UIKit apps enlarge tiny targets to
/// 44 pt; a pinch needs two such fingertips side by side). Views in front of it (the regions)
/// still take their own touches first.
@MainActor
final class PictureView: View {
    /// The side of the square that takes touches about the picture's centre, window points.
    static let minimumTouchSize = 88.0

    override func point(inside point: Point) -> Bool {
        if bounds.contains(point) { return true }
        let scale = transform.scale
        guard scale.isFinite, scale > 0, point.isFinite else { return false }
        let half = Self.minimumTouchSize / 2 / scale
        let c = bounds.center
        return abs(point.x - c.x) <= half && abs(point.y - c.y) <= half
    }
}
