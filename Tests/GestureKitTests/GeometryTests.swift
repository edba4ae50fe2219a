import GestureKit
import GestureTestSupport
import Testing

/// Points, vectors, rects and AffineTransform with CGAffineTransform's conventions: a point maps
/// to (a·x + c·y + tx, b·x + d·y + ty); `t1.concatenating(t2)` applies t1 then t2;
/// `translatedBy/scaledBy/rotated` prepend (act in the transformed space); positive angles turn
/// clockwise on a y-down screen.
@Suite struct GeometryTests {
    private func close(_ p: Point, _ x: Double, _ y: Double, _ tol: Double = 1e-12) -> Bool {
        abs(p.x - x) <= tol && abs(p.y - y) <= tol
    }

    private func close(_ a: AffineTransform, _ b: AffineTransform, _ tol: Double = 1e-12) -> Bool {
        zip(a.components, b.components).allSatisfy { abs($0 - $1) <= tol }
    }

    @Test func pointAndVectorArithmetic() {
        let p = Point(x: 1, y: 2)
        let q = Point(x: 4, y: 6)
        #expect(q - p == Vector(dx: 3, dy: 4))
        #expect(p + Vector(dx: 3, dy: 4) == q)
        #expect(q - Vector(dx: 3, dy: 4) == p)
        #expect(p.distance(to: q) == 5)
        #expect(Vector(dx: 3, dy: 4).length == 5)
        #expect(Vector(dx: 1, dy: 2) + Vector(dx: 3, dy: 4) == Vector(dx: 4, dy: 6))
        #expect(Vector(dx: 1, dy: 2) - Vector(dx: 3, dy: 4) == Vector(dx: -2, dy: -2))
        #expect(Vector(dx: 1, dy: -2) * 3 == Vector(dx: 3, dy: -6))
        #expect(Point(x: .nan, y: 0).isFinite == false)
        #expect(Point(x: 1, y: .infinity).isFinite == false)
        #expect(p.isFinite)
    }

    @Test func rectBasics() {
        let r = Rect(x: 10, y: 20, width: 100, height: 50)
        #expect(r.minX == 10 && r.minY == 20 && r.maxX == 110 && r.maxY == 70)
        #expect(r.midX == 60 && r.midY == 45 && r.center == Point(x: 60, y: 45))
        #expect(r.width == 100 && r.height == 50)
        // Half-open, as CGRect.contains: the max edges are outside.
        #expect(r.contains(Point(x: 10, y: 20)))
        #expect(r.contains(Point(x: 109.999, y: 69.999)))
        #expect(!r.contains(Point(x: 110, y: 30)))
        #expect(!r.contains(Point(x: 30, y: 70)))
        #expect(!r.contains(Point(x: 9.999, y: 30)))
        #expect(r.insetBy(dx: 10, dy: 5) == Rect(x: 20, y: 25, width: 80, height: 40))
        #expect(r.insetBy(dx: 60, dy: 0).width == 0)
    }

    @Test func primitives() {
        let p = Point(x: 3, y: 4)
        #expect(p.applying(.identity) == p)
        #expect(p.applying(AffineTransform(translationX: 10, y: -1)) == Point(x: 13, y: 3))
        #expect(p.applying(AffineTransform(scaleX: 2, y: -3)) == Point(x: 6, y: -12))
        // A quarter turn: the x axis turns to +y (down on screen: clockwise).
        #expect(close(Point(x: 1, y: 0).applying(AffineTransform(rotationAngle: .pi / 2)), 0, 1))
        #expect(close(p.applying(AffineTransform(rotationAngle: .pi / 2)), -4, 3))
        let t = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(p.applying(t) == Point(x: 1 * 3 + 3 * 4 + 5, y: 2 * 3 + 4 * 4 + 6))
        #expect(t.components == [1, 2, 3, 4, 5, 6])
        #expect(t.determinant == -2)
        #expect(AffineTransform.identity.isIdentity)
        #expect(!t.isIdentity)
    }

    /// `t1.concatenating(t2)` applies t1 first. Translate by (10, 0) then scale by 2: (1, 1) →
    /// (11, 1) → (22, 2); the other order: (1, 1) → (2, 2) → (12, 2).
    @Test func concatenatingOrder() {
        let tr = AffineTransform(translationX: 10, y: 0)
        let sc = AffineTransform(scaleX: 2, y: 2)
        let p = Point(x: 1, y: 1)
        #expect(p.applying(tr.concatenating(sc)) == Point(x: 22, y: 2))
        #expect(p.applying(sc.concatenating(tr)) == Point(x: 12, y: 2))
        // Matrix product: t1 = [1 2 3 4 5 6], t2 = [7 8 9 10 11 12] (CG row-vector convention).
        let t1 = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t2 = AffineTransform(a: 7, b: 8, c: 9, d: 10, tx: 11, ty: 12)
        #expect(t1.concatenating(t2).components == [25, 28, 57, 64, 100, 112])
        #expect(p.applying(t1.concatenating(t2)) == p.applying(t1).applying(t2))
    }

    /// `translatedBy`, `scaledBy`, `rotated` put the new operation first, as
    /// CGAffineTransformTranslate/Scale/Rotate: `t.translatedBy(x, y)` = T(x, y) · t.
    @Test func prependingOperations() {
        let p = Point(x: 1, y: 1)
        let sc = AffineTransform(scaleX: 2, y: 2)
        // Translation in the scaled space: (1, 1) → (11, 1) → (22, 2).
        #expect(p.applying(sc.translatedBy(x: 10, y: 0)) == Point(x: 22, y: 2))
        #expect(sc.translatedBy(x: 10, y: 0) == AffineTransform(translationX: 10, y: 0).concatenating(sc))
        // Scaling before a translation: (1, 1) → (2, 3) → (12, 3).
        let tr = AffineTransform(translationX: 10, y: 0)
        #expect(p.applying(tr.scaledBy(x: 2, y: 3)) == Point(x: 12, y: 3))
        // Rotation before a translation: (1, 0) → (0, 1) → (10, 1).
        #expect(close(Point(x: 1, y: 0).applying(tr.rotated(by: .pi / 2)), 10, 1))
        #expect(close(tr.rotated(by: .pi / 2), AffineTransform(rotationAngle: .pi / 2).concatenating(tr)))
        // A chain: identity.translated(100, 0).rotated(π/2).scaled(2): (1, 0) → (2, 0) → (0, 2)
        // → (100, 2).
        let chain = AffineTransform.identity.translatedBy(x: 100, y: 0).rotated(by: .pi / 2).scaledBy(x: 2, y: 2)
        #expect(close(Point(x: 1, y: 0).applying(chain), 100, 2))
    }

    @Test(arguments: [
        AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6),
        AffineTransform(rotationAngle: 0.7).scaledBy(x: 3, y: 0.5).translatedBy(x: -20, y: 40),
        AffineTransform(scaleX: -1, y: 1),
    ])
    func inverted(t: AffineTransform) {
        #expect(close(t.concatenating(t.inverted()), .identity, 1e-9))
        #expect(close(t.inverted().concatenating(t), .identity, 1e-9))
        let p = Point(x: 12, y: -7)
        let back = p.applying(t).applying(t.inverted())
        #expect(close(back, p.x, p.y, 1e-9))
    }

    @Test func invertedByHand() {
        // [1 2 3 4 5 6]: det −2; inverse [−2 1 1.5 −0.5 1 −2].
        let t = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(t.inverted().components == [-2, 1, 1.5, -0.5, 1, -2])
        // Singular: returned unchanged, as CGAffineTransformInvert.
        let s = AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 1, ty: 1)
        #expect(s.inverted() == s)
    }

    @Test func rotationAngleAndScale() {
        let t = AffineTransform(rotationAngle: 0.5).scaledBy(x: 3, y: 3)
        #expect(abs(t.rotationAngle - 0.5) < 1e-12)
        #expect(abs(t.scale - 3) < 1e-12)
        #expect(abs(AffineTransform(rotationAngle: -2).rotationAngle + 2) < 1e-12)
        #expect(AffineTransform(scaleX: 2, y: 8).scale == 4)
    }

    /// Vectors take only the linear part; sizes map like CGSize.applying.
    @Test func vectorsAndSizes() {
        let t = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 100, ty: 200)
        #expect(Vector(dx: 1, dy: 1).applying(t) == Vector(dx: 4, dy: 6))
        #expect(Size(width: 1, height: 1).applying(t) == Size(width: 4, height: 6))
    }

    /// Rect.applying: the bounding box of the four transformed corners.
    @Test func rectApplying() {
        let r = Rect(x: 0, y: 0, width: 10, height: 20)
        // A quarter turn: corners (0,0) (10,0) (0,20) (10,20) → (0,0) (0,10) (−20,0) (−20,10).
        let q = r.applying(AffineTransform(rotationAngle: .pi / 2))
        #expect(abs(q.minX + 20) < 1e-12 && abs(q.minY) < 1e-12)
        #expect(abs(q.width - 20) < 1e-12 && abs(q.height - 10) < 1e-12)
        // An eighth turn about the origin of a unit square: width and height √2.
        let e = Rect(x: 0, y: 0, width: 1, height: 1).applying(AffineTransform(rotationAngle: .pi / 4))
        #expect(abs(e.width - 2.0.squareRoot()) < 1e-12 && abs(e.height - 2.0.squareRoot()) < 1e-12)
        #expect(abs(e.minX + 0.5.squareRoot()) < 1e-12 && abs(e.minY) < 1e-12)
        // Scale and translate; a negative scale still gives a standard rect.
        #expect(
            r.applying(AffineTransform(scaleX: -2, y: 0.5).concatenating(AffineTransform(translationX: 5, y: 5)))
                == Rect(x: -15, y: 5, width: 20, height: 10))
    }
}
