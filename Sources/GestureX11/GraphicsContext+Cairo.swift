import CCairo
import GestureKit

/// `CGContext`-shaped drawing for `View.draw(_:in:)` overrides: the calls a UIKit developer
/// reaches for, each one Cairo call (or two). Anything else: `cairo`.
extension GraphicsContext {
    /// UIKit: `setFillColor(_:)` (Cairo has one source for fill and stroke: the last set wins).
    public func setFillColor(_ color: Color) {
        cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
    }
    /// UIKit: `setStrokeColor(_:)` (see ``setFillColor(_:)``).
    public func setStrokeColor(_ color: Color) { setFillColor(color) }
    /// UIKit: `setLineWidth(_:)`.
    public func setLineWidth(_ width: Double) { cairo_set_line_width(cairo, width) }
    /// UIKit: `fill(_:)`: fills `rect` with the current colour.
    public func fill(_ rect: Rect) {
        cairo_new_path(cairo)
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
        cairo_fill(cairo)
    }
    /// UIKit: `stroke(_:)`.
    public func stroke(_ rect: Rect) {
        cairo_new_path(cairo)
        cairo_rectangle(cairo, rect.minX, rect.minY, rect.width, rect.height)
        cairo_stroke(cairo)
    }
    /// UIKit: `fillEllipse(in:)`.
    public func fillEllipse(in rect: Rect) {
        addEllipse(in: rect)
        cairo_fill(cairo)
    }
    /// UIKit: `addEllipse(in:)`.
    public func addEllipse(in rect: Rect) {
        cairo_new_sub_path(cairo)
        cairo_save(cairo)
        cairo_translate(cairo, rect.midX, rect.midY)
        cairo_scale(cairo, max(rect.width / 2, 1e-9), max(rect.height / 2, 1e-9))
        cairo_arc(cairo, 0, 0, 1, 0, 2 * Double.pi)
        cairo_restore(cairo)
    }
    /// UIKit: `move(to:)`.
    public func move(to point: Point) { cairo_move_to(cairo, point.x, point.y) }
    /// UIKit: `addLine(to:)`.
    public func addLine(to point: Point) { cairo_line_to(cairo, point.x, point.y) }
    /// UIKit: `strokePath()`.
    public func strokePath() { cairo_stroke(cairo) }
    /// UIKit: `fillPath()`.
    public func fillPath() { cairo_fill(cairo) }
    /// UIKit: `saveGState()` / `restoreGState()`.
    public func saveGState() { cairo_save(cairo) }
    public func restoreGState() { cairo_restore(cairo) }
}
