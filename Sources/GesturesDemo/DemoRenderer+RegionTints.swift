import CCairo
import CPixelSpan
import GestureKit

/// The regions' fill over a moving, enlarged picture, in the picture's own pass.
///
/// A region is a translucent rounded rectangle over the picture. Filled by Cairo after the
/// picture, it is a second read and write of up to half the frame's pixels: at 3840×2160 about
/// a fifth of the frame's CPU. When ``NearestPainter`` draws the picture, the part of each region
/// that covers whole pixels is composited in the painter's pass instead (same colour, same
/// rounding: `gestures_tint_span`), and Cairo fills only the rest of the rounded rectangle (the
/// antialiased edge and corners), so the frame's pixels are the same as Cairo's.
extension DemoRenderer {
    /// Whether the regions' whole pixels go in the picture's pass (tests compare both ways).
    static var fusesRegionTints = true

    /// The whole-pixel box of each region (nil where there is none or the user space is not an
    /// axis-aligned scale of device pixels), and the tints for the painter, in region order.
    static func regionTints(
        _ regions: [(Rect, Color, String)], radius: Double, _ cr: OpaquePointer
    ) -> (boxes: [NearestPainter.Tint?], tints: [NearestPainter.Tint]) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xy == 0, m.yx == 0, m.xx > 0, m.yy > 0 else { return (regions.map { _ in nil }, []) }
        var boxes: [NearestPainter.Tint?] = []
        var tints: [NearestPainter.Tint] = []
        for (rect, color, _) in regions {
            // Between the corners' arcs the rounded rectangle's sides are straight: the pixels
            // wholly inside its full width and its height less the corners are fully covered.
            let rad = max(0, min(radius, rect.width / 2, rect.height / 2))
            let x0 = (m.xx * rect.minX + m.x0).rounded(.up)
            let x1 = (m.xx * rect.maxX + m.x0).rounded(.down)
            let y0 = (m.yy * (rect.minY + rad) + m.y0).rounded(.up)
            let y1 = (m.yy * (rect.maxY - rad) + m.y0).rounded(.down)
            guard x0 < x1, y0 < y1, abs(x0) < 1e6, abs(x1) < 1e6, abs(y0) < 1e6, abs(y1) < 1e6 else {
                boxes.append(nil)
                continue
            }
            let box = NearestPainter.Tint(
                x0: Int(x0), y0: Int(y0), x1: Int(x1), y1: Int(y1), solid: solidPixel(color, alpha: regionAlpha))
            boxes.append(box)
            tints.append(box)
        }
        return (boxes, tints)
    }

    /// Cairo's colour as pixman composites it: premultiplied 16-bit components, their high bytes.
    static func solidPixel(_ c: Color, alpha: Double) -> UInt32 {
        func short(_ d: Double) -> UInt32 { UInt32(max(0, min(65535, d * 65535 + 0.5))) >> 8 }
        return short(alpha) << 24 | short(c.r * alpha) << 16 | short(c.g * alpha) << 8 | short(c.b * alpha)
    }

    /// Fills region `rect`'s rounded rectangle with `color`, except `box` (device pixels) when
    /// the picture's pass has composited it already.
    static func fillRegion(
        _ cr: OpaquePointer, _ rect: Rect, radius: Double, color: Color, except box: NearestPainter.Tint?
    ) {
        roundedRect(cr, rect, radius: radius)
        cairo_set_source_rgba(cr, color.r, color.g, color.b, regionAlpha)
        guard let box else { return cairo_fill(cr) }
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_rectangle(cr, Double(box.x0), Double(box.y0), Double(box.x1 - box.x0), Double(box.y1 - box.y0))
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_fill(cr)
        cairo_restore(cr)
    }
}
