import GestureKit
import GestureTestSupport
import Testing

/// View geometry with UIView's conventions: center and bounds place a view in its superview, the
/// transform applies about the centre, hit testing goes through transforms, `convert` between
/// any two views of a tree.
@MainActor
@Suite struct ViewTests {
    private func close(_ p: Point, _ x: Double, _ y: Double, _ tol: Double = 1e-9) -> Bool {
        abs(p.x - x) <= tol && abs(p.y - y) <= tol
    }

    private func close(_ r: Rect, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Bool {
        abs(r.minX - x) < 1e-9 && abs(r.minY - y) < 1e-9 && abs(r.width - w) < 1e-9 && abs(r.height - h) < 1e-9
    }

    /// root (1024×768) ⊃ sub at (100, 100, 200, 100) turned a quarter clockwise about its centre
    /// (200, 150): it covers x 150…250, y 50…250; its local (0, 0) corner is at (250, 50).
    /// sub ⊃ deep at (0, 0, 20, 20) in sub's coordinates.
    private func tree() -> (root: View, sub: View, deep: View) {
        let root = View(frame: Rect(x: 0, y: 0, width: 1024, height: 768), name: "root")
        let sub = View(frame: Rect(x: 100, y: 100, width: 200, height: 100), name: "sub")
        let deep = View(frame: Rect(x: 0, y: 0, width: 20, height: 20), name: "deep")
        root.addSubview(sub)
        sub.addSubview(deep)
        sub.transform = AffineTransform(rotationAngle: .pi / 2)
        return (root, sub, deep)
    }

    @Test func frameCenterBounds() {
        let v = View(frame: Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(v.center == Point(x: 60, y: 45))
        #expect(v.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
        #expect(v.frame == Rect(x: 10, y: 20, width: 100, height: 50))
        v.frame = Rect(x: 0, y: 0, width: 20, height: 40)
        #expect(v.center == Point(x: 10, y: 20))
        #expect(v.bounds.size == Size(width: 20, height: 40))
        v.center = Point(x: 100, y: 100)
        #expect(v.frame == Rect(x: 90, y: 80, width: 20, height: 40))
        v.bounds.size = Size(width: 40, height: 40)
        #expect(v.frame == Rect(x: 80, y: 80, width: 40, height: 40))
    }

    /// With a transform, `frame` is the bounding box of the transformed bounds, about the centre.
    @Test func frameWithTransform() {
        let v = View(frame: Rect(x: 100, y: 100, width: 200, height: 100))
        v.transform = AffineTransform(rotationAngle: .pi / 2)
        #expect(close(v.frame, 150, 50, 100, 200))
        v.transform = AffineTransform(scaleX: 2, y: 2)
        #expect(close(v.frame, 0, 50, 400, 200))
        v.transform = AffineTransform(translationX: 10, y: -5)
        #expect(close(v.frame, 110, 95, 200, 100))
        #expect(v.center == Point(x: 200, y: 150))  // the centre does not move
        #expect(v.bounds == Rect(x: 0, y: 0, width: 200, height: 100))
    }

    @Test func convertThroughARotation() {
        let (root, sub, deep) = tree()
        #expect(close(sub.convert(Point(x: 0, y: 0), to: nil), 250, 50))
        #expect(close(sub.convert(Point(x: 200, y: 100), to: nil), 150, 250))
        #expect(close(sub.convert(Point(x: 100, y: 50), to: root), 200, 150))
        #expect(close(sub.convert(Point(x: 250, y: 50), from: nil), 0, 0))
        #expect(close(sub.convert(Point(x: 150, y: 250), from: root), 200, 100))
        // deep's (10, 10) is sub's (10, 10) (identity, at sub's origin): window (240, 60).
        #expect(close(deep.convert(Point(x: 10, y: 10), to: nil), 240, 60))
        #expect(close(deep.convert(Point(x: 240, y: 60), from: nil), 10, 10))
        #expect(close(deep.convert(Point(x: 10, y: 10), to: sub), 10, 10))
        #expect(close(root.convert(Point(x: 240, y: 60), to: deep), 10, 10))
        // Vectors rotate, without the translation: sub's x axis points down in the window.
        let w = sub.convert(Vector(dx: 1, dy: 0), to: nil)
        #expect(abs(w.dx) < 1e-12 && abs(w.dy - 1) < 1e-12)
        #expect(root.window === root && deep.window === root)
    }

    @Test func convertWithScaleAndBoundsOrigin() {
        let root = View(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let a = View(frame: Rect(x: 100, y: 100, width: 100, height: 100))
        let b = View(frame: Rect(x: 400, y: 100, width: 100, height: 100))
        root.addSubview(a)
        root.addSubview(b)
        a.transform = AffineTransform(scaleX: 2, y: 2)  // covers 50…250
        #expect(close(a.convert(Point(x: 0, y: 0), to: nil), 50, 50))
        #expect(close(a.convert(Point(x: 100, y: 100), to: nil), 250, 250))
        // Sibling to sibling: a's (50, 50) is its centre (150, 150) in the window: b's (−250, 50).
        #expect(close(a.convert(Point(x: 50, y: 50), to: b), -250, 50))
        #expect(close(b.convert(Point(x: -250, y: 50), to: a), 50, 50))
        // A bounds origin shifts the content (UIScrollView-like): b's local (30, 40) is now at
        // its top-left corner.
        b.bounds.origin = Point(x: 30, y: 40)
        #expect(close(b.convert(Point(x: 30, y: 40), to: nil), 400, 100))
        #expect(close(b.frame.origin, 400, 100))
    }

    @Test func hitTestThroughARotation() {
        let (root, sub, deep) = tree()
        #expect(root.hitTest(Point(x: 240, y: 60)) === deep)
        #expect(root.hitTest(Point(x: 230, y: 140)) === sub)
        #expect(root.hitTest(Point(x: 200, y: 240)) === sub)
        // Inside the untransformed frame (100…300 × 100…200) but outside the turned one.
        #expect(root.hitTest(Point(x: 120, y: 120)) === root)
        #expect(root.hitTest(Point(x: 280, y: 150)) === root)
        // Outside the window (half-open bounds).
        #expect(root.hitTest(Point(x: 1024, y: 10)) == nil)
        #expect(root.hitTest(Point(x: -1, y: 10)) == nil)
        #expect(root.hitTest(Point(x: .nan, y: 10)) == nil)
    }

    @Test func hitTestThroughAScale() {
        let root = View(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let v = View(frame: Rect(x: 400, y: 400, width: 100, height: 100))
        root.addSubview(v)
        v.transform = AffineTransform(scaleX: 0.5, y: 0.5)  // covers 425…475
        #expect(root.hitTest(Point(x: 410, y: 410)) === root)
        #expect(root.hitTest(Point(x: 430, y: 430)) === v)
        #expect(root.hitTest(Point(x: 474, y: 474)) === v)
        #expect(root.hitTest(Point(x: 476, y: 450)) === root)
    }

    @Test func hitTestSkipsNonInteractiveAndHiddenViews() {
        let (root, sub, deep) = tree()
        deep.isUserInteractionEnabled = false
        #expect(root.hitTest(Point(x: 240, y: 60)) === sub)
        deep.isUserInteractionEnabled = true
        sub.isUserInteractionEnabled = false  // and its subviews with it
        #expect(root.hitTest(Point(x: 240, y: 60)) === root)
        #expect(root.hitTest(Point(x: 230, y: 140)) === root)
        sub.isUserInteractionEnabled = true
        sub.isHidden = true
        #expect(root.hitTest(Point(x: 240, y: 60)) === root)
        sub.isHidden = false
        deep.isHidden = true
        #expect(root.hitTest(Point(x: 240, y: 60)) === sub)
    }

    /// The last added subview is in front.
    @Test func hitTestFrontToBack() {
        let root = View(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let back = View(frame: Rect(x: 0, y: 0, width: 200, height: 200), name: "back")
        let front = View(frame: Rect(x: 100, y: 100, width: 200, height: 200), name: "front")
        root.addSubview(back)
        root.addSubview(front)
        #expect(root.hitTest(Point(x: 150, y: 150)) === front)
        #expect(root.hitTest(Point(x: 50, y: 50)) === back)
        root.addSubview(back)  // re-adding brings it to the front
        #expect(root.subviews.map(\.name) == ["front", "back"])
        #expect(root.hitTest(Point(x: 150, y: 150)) === back)
        back.removeFromSuperview()
        #expect(back.superview == nil)
        #expect(root.hitTest(Point(x: 50, y: 50)) === root)
    }

    @Test func gestureRecognizerBelongsToOneView() {
        let a = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let b = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let tap = TapGestureRecognizer()
        a.addGestureRecognizer(tap)
        #expect(tap.view === a && a.gestureRecognizers.count == 1)
        b.addGestureRecognizer(tap)
        #expect(tap.view === b && a.gestureRecognizers.isEmpty && b.gestureRecognizers.count == 1)
        b.removeGestureRecognizer(tap)
        #expect(tap.view == nil && b.gestureRecognizers.isEmpty)
    }

    /// A touch goes to the recognizers of the view it hits through the transforms (and its
    /// ancestors'); `location(in:)` converts back.
    @Test func touchesAreHitTestedThroughTransforms() {
        let h = Harness()
        let sub = View(frame: Rect(x: 100, y: 100, width: 200, height: 100), name: "sub")
        sub.transform = AffineTransform(rotationAngle: .pi / 2)
        h.root.addSubview(sub)
        let tap = h.add(TapGestureRecognizer(name: "subtap"), to: sub)
        var local: Point?
        tap.addAction { local = $0.location(in: sub) }
        h.frame(0, Finger.down(1, 120, 120))  // in the old frame, outside the turned one
        h.frame(0.1, Finger.up(1, 120, 120))
        h.frame(1, Finger.down(2, 240, 60))
        h.frame(1.1, Finger.up(2, 240, 60))
        #expect(h.log.lines == ["1.1 subtap ended (240,60) n=1 taps=1 touches=1"])
        #expect(local.map { close($0, 10, 10) } == true)
    }

    /// A gesture keeps its touches when they leave the view.
    @Test func touchesStayWithTheViewTheyHit() {
        let h = Harness()
        let sub = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "sub")
        h.root.addSubview(sub)
        h.add(PanGestureRecognizer(name: "pan"), to: sub)
        h.frame(0, Finger.down(1, 50, 50))
        h.frame(0.01, Finger.move(1, 150, 50))
        h.frame(0.02, Finger.move(1, 300, 50))
        h.frame(0.03, Finger.up(1, 300, 50))
        #expect(h.log.states(of: "pan") == [.began, .changed, .ended])
    }
}
