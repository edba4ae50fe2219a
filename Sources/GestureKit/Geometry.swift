import RealModule

// Geometry in points, y pointing down (window coordinates), as in UIKit's CGGeometry.

/// A point in some view's coordinate space. UIKit: `CGPoint`.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }

    @inlinable public static func + (a: Point, b: Vector) -> Point { Point(x: a.x + b.dx, y: a.y + b.dy) }
    @inlinable public static func - (a: Point, b: Vector) -> Point { Point(x: a.x - b.dx, y: a.y - b.dy) }
    @inlinable public static func - (a: Point, b: Point) -> Vector { Vector(dx: a.x - b.x, dy: a.y - b.y) }
    /// Distance to another point.
    @inlinable public func distance(to other: Point) -> Double { (self - other).length }
    /// True when both coordinates are finite numbers.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// A displacement or a velocity. UIKit uses `CGPoint` for translations and velocities; a separate
/// type keeps points and vectors apart.
public struct Vector: Hashable, Sendable, CustomStringConvertible {
    public var dx: Double
    public var dy: Double
    @inlinable public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }
    public static let zero = Vector(dx: 0, dy: 0)
    public var description: String { "[\(dx), \(dy)]" }
    @inlinable public var length: Double { (dx * dx + dy * dy).squareRoot() }
    @inlinable public static func + (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx + b.dx, dy: a.dy + b.dy) }
    @inlinable public static func - (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx - b.dx, dy: a.dy - b.dy) }
    @inlinable public static func * (a: Vector, s: Double) -> Vector { Vector(dx: a.dx * s, dy: a.dy * s) }
}

/// UIKit: `CGSize`.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    @inlinable public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)x\(height)" }
}

/// UIKit: `CGRect` (always standardized here: width and height are not negative).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size
    @inlinable public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    public var description: String { "[\(origin.x), \(origin.y), \(size.width), \(size.height)]" }
    @inlinable public var minX: Double { origin.x }
    @inlinable public var minY: Double { origin.y }
    @inlinable public var maxX: Double { origin.x + size.width }
    @inlinable public var maxY: Double { origin.y + size.height }
    @inlinable public var width: Double { size.width }
    @inlinable public var height: Double { size.height }
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    @inlinable public var center: Point { Point(x: midX, y: midY) }
    /// Half-open containment, as `CGRect.contains(_:)`: the max edges are outside.
    @inlinable public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }
    @inlinable public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }
    /// The smallest rectangle holding the four corners of this one mapped through `t`.
    /// UIKit: `CGRect.applying(_:)`.
    public func applying(_ t: AffineTransform) -> Rect {
        let corners = [
            Point(x: minX, y: minY).applying(t), Point(x: maxX, y: minY).applying(t),
            Point(x: minX, y: maxY).applying(t), Point(x: maxX, y: maxY).applying(t),
        ]
        let xs = corners.map(\.x)
        let ys = corners.map(\.y)
        let x0 = xs.min()!
        let y0 = ys.min()!
        return Rect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }
}

/// A 2-D affine transform with the layout and conventions of `CGAffineTransform`:
/// a point maps to `(a·x + c·y + tx, b·x + d·y + ty)`.
///
/// `concatenating(t2)` applies `self` first, then `t2` (CG order). `translatedBy`, `scaledBy` and
/// `rotatedBy` put the new operation *before* `self` (they act in the transformed space), exactly
/// like `CGAffineTransformTranslate/Scale/Rotate`. Angles are radians; with y pointing down a
/// positive angle turns clockwise on screen, as in UIKit.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    @inlinable public init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    @inlinable public init(scaleX sx: Double, y sy: Double) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    public init(rotationAngle angle: Double) {
        let s = Double.sin(angle)
        let co = Double.cos(angle)
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }
    public var isIdentity: Bool { self == .identity }
    public var description: String { "[\(a), \(b), \(c), \(d), \(tx), \(ty)]" }
    /// `[a, b, c, d, tx, ty]`, the order of the event log and the playground spec.
    public var components: [Double] { [a, b, c, d, tx, ty] }

    /// `self` then `t2`. UIKit: `concatenating(_:)`.
    @inlinable public func concatenating(_ t2: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }
    @inlinable public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(translationX: x, y: y).concatenating(self)
    }
    @inlinable public func scaledBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(scaleX: x, y: y).concatenating(self)
    }
    public func rotated(by angle: Double) -> AffineTransform {
        AffineTransform(rotationAngle: angle).concatenating(self)
    }
    public var determinant: Double { a * d - b * c }
    /// The inverse; a singular transform returns itself unchanged, as `CGAffineTransformInvert`.
    public func inverted() -> AffineTransform {
        let det = determinant
        guard det != 0, det.isFinite else { return self }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }
    /// Rotation angle of the linear part, radians (clockwise positive with y down).
    public var rotationAngle: Double { Double.atan2(y: b, x: a) }
    /// Uniform scale factor of the linear part (square root of the absolute determinant).
    public var scale: Double { abs(determinant).squareRoot() }
}

extension Point {
    /// UIKit: `CGPoint.applying(_:)`.
    @inlinable public func applying(_ t: AffineTransform) -> Point {
        Point(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension Vector {
    /// Applies only the linear part of `t` (translations do not move vectors).
    @inlinable public func applying(_ t: AffineTransform) -> Vector {
        Vector(dx: t.a * dx + t.c * dy, dy: t.b * dx + t.d * dy)
    }
}

extension Size {
    /// UIKit: `CGSize.applying(_:)`.
    @inlinable public func applying(_ t: AffineTransform) -> Size {
        Size(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}
