import CCairo
import GestureKit

/// Draws a tree of views back to front (UIKit's order: a view, then its subviews in order) and
/// tracks which parts of the window a change touches. Both walks use an explicit stack, so a
/// tree of any depth is drawn without recursion.
@MainActor
enum ViewTreeDrawing {
    private enum Step {
        case enter(View, AffineTransform)
        case exit(View)
    }

    /// Draws `root` and its visible subviews into `cr` (user space: window points). Each view
    /// paints its background and ``View/draw(_:in:)`` clipped to its bounds; a view with alpha
    /// below 1 is drawn with its subviews into a group painted with that alpha.
    static func draw(_ root: View, into cr: OpaquePointer) {
        var base = cairo_matrix_t()
        cairo_get_matrix(cr, &base)
        var stack: [Step] = [.enter(root, .identity)]
        while let step = stack.popLast() {
            switch step {
            case .enter(let view, let parent):
                guard !view.isHidden, view.alpha > 0 else { continue }
                let m = view === root ? AffineTransform.identity : view.localToSuperview.concatenating(parent)
                cairo_save(cr)
                if view.alpha < 1 { cairo_push_group(cr) }
                var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
                var local = cairo_matrix_t()
                cairo_matrix_multiply(&local, &cm, &base)
                cairo_set_matrix(cr, &local)
                drawOwn(view, cr)
                if view.clipsToBounds {
                    let b = view.bounds
                    cairo_new_path(cr)
                    cairo_rectangle(cr, b.minX, b.minY, b.width, b.height)
                    cairo_clip(cr)
                }
                stack.append(.exit(view))
                for sub in view.subviews.reversed() { stack.append(.enter(sub, m)) }
            case .exit(let view):
                if view.alpha < 1 {
                    cairo_pop_group_to_source(cr)
                    cairo_paint_with_alpha(cr, view.alpha)
                }
                cairo_restore(cr)
            }
        }
    }

    /// The view's background and content, in its coordinates, clipped to its bounds.
    private static func drawOwn(_ view: View, _ cr: OpaquePointer) {
        let b = view.bounds
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_rectangle(cr, b.minX, b.minY, b.width, b.height)
        cairo_clip(cr)
        var x0 = 0.0
        var y0 = 0.0
        var x1 = 0.0
        var y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        if x1 > x0 && y1 > y0 {
            if let c = view.backgroundColor, c.alpha > 0 {
                cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
                cairo_paint(cr)
            }
            cairo_set_source_rgb(cr, 0, 0, 0)
            view.draw(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), in: GraphicsContext(cairo: cr))
        }
        cairo_restore(cr)
    }

    /// The window box (points) of each view of `view`'s subtree, `transform` being `view`'s
    /// local-to-window transform; hidden subtrees are skipped when `visibleOnly`.
    static func boxes(
        of view: View, transform: AffineTransform, visibleOnly: Bool, _ body: (View, Rect, Double) -> Void
    ) {
        var stack: [(View, AffineTransform, Double)] = [(view, transform, 1)]
        while let (v, m, parentAlpha) = stack.popLast() {
            if visibleOnly && (v.isHidden || v.alpha <= 0) { continue }
            let alpha = parentAlpha * v.alpha
            body(v, v.bounds.applying(m), alpha)
            for sub in v.subviews { stack.append((sub, sub.localToSuperview.concatenating(m), alpha)) }
        }
    }
}

/// What changed in a view tree since the last frame, as window rectangles (points): views whose
/// content changed (their subtree's boxes, where they are now), and — after any geometry change
/// — every view whose box or opacity differs from the last frame (where it was and where it is).
@MainActor
final class ViewDamageTracker {
    private struct Placement: Equatable {
        var box: Rect
        var alpha: Double
    }
    private var drawn: [ObjectIdentifier: Placement] = [:]
    private var invalid: [Rect] = []
    private var geometryChanged = true

    /// A view changed: `geometry` when it (or its subtree) moved, resized, or was added or removed.
    func note(_ view: View, geometry: Bool) {
        if geometry {
            geometryChanged = true
            return
        }
        ViewTreeDrawing.boxes(of: view, transform: view.localToWindow, visibleOnly: false) { _, box, _ in
            invalid.append(box)
        }
    }

    /// The rectangles to draw for the tree under `root` (not yet committed).
    func damage(_ root: View) -> [Rect] {
        var rects = invalid
        guard geometryChanged else { return rects }
        let now = placements(root)
        for (id, p) in now where drawn[id] != p {
            rects.append(p.box)
            if let old = drawn[id] { rects.append(old.box) }
        }
        for (id, old) in drawn where now[id] == nil { rects.append(old.box) }
        return rects
    }

    /// The frame is drawn: what it showed is now the reference.
    func commit(_ root: View) {
        invalid.removeAll(keepingCapacity: true)
        if geometryChanged { drawn = placements(root) }
        geometryChanged = false
    }

    private func placements(_ root: View) -> [ObjectIdentifier: Placement] {
        var map: [ObjectIdentifier: Placement] = [:]
        ViewTreeDrawing.boxes(of: root, transform: .identity, visibleOnly: true) { v, box, alpha in
            map[ObjectIdentifier(v)] = Placement(box: box, alpha: alpha)
        }
        return map
    }
}
