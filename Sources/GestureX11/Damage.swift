import CCairo
import GestureKit

/// A rectangle in window pixels.
public struct PixelRect: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Int { isEmpty ? 0 : width * height }
    /// The smallest rectangle holding both.
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let x0 = min(x, o.x)
        let y0 = min(y, o.y)
        return PixelRect(
            x: x0, y: y0, width: max(x + width, o.x + o.width) - x0, height: max(y + height, o.y + o.height) - y0)
    }
    /// The part inside `o` (empty when they do not overlap).
    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x)
        let y0 = max(y, o.y)
        let x1 = min(x + width, o.x + o.width)
        let y1 = min(y + height, o.y + o.height)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}

/// Drawing only what changed: the scene's `ShellScene/damage` (points) and the simulated
/// fingers' old and new circles, as window pixels outset by 2 px for antialiasing, merged; the
/// scene is drawn clipped to them (pixman does no work outside the clip). Shared by the shell
/// (``rects(for:bounds:scale:overlay:drawnOverlay:full:extra:)`` and
/// ``paint(_:into:scale:overlay:showTouches:)`` per pass of its presenter) and by the test that
/// checks an incremental frame against a full one (``draw(_:into:scale:overlay:drawnOverlay:showTouches:full:extra:)``).
@MainActor
public enum DamageDrawing {
    /// The pixel rectangles of `bounds` that the next frame of `scene` must draw (all of
    /// `bounds` when `full` or the scene cannot tell). Read before the scene draws.
    public static func rects(
        for scene: ShellScene, bounds: PixelRect, scale: Double, overlay: [Point], drawnOverlay: [Point], full: Bool,
        extra: [PixelRect] = []
    ) -> [PixelRect] {
        guard !full, let damage = scene.damage else { return [bounds] }
        var rects = damage.map { pixelRect($0, scale: scale, bounds: bounds) }
        if overlay != drawnOverlay {
            let size = Size(width: Double(bounds.width) / scale, height: Double(bounds.height) / scale)
            for p in overlay + drawnOverlay {
                rects.append(pixelRect(touchBox(p, in: size), scale: scale, bounds: bounds))
            }
        }
        rects += extra.map { $0.intersection(bounds) }
        // Nothing visible changed: the scene still draws (into an empty clip: cairo does no
        // pixel work) so that it knows the frame is done.
        return merged(rects, limit: 6)
    }

    /// Draws `scene` into `cairo` (a `cairo_t *` whose user space is window pixels, clipped by
    /// the caller).
    public static func paint(
        _ scene: ShellScene, into cairo: OpaquePointer, scale: Double, overlay: [Point], showTouches: Bool
    ) {
        if scale != 1 { cairo_scale(cairo, scale, scale) }
        scene.draw(into: cairo, overlay: overlay, showTouches: showTouches)
    }

    /// Draws `scene` into `surface` (an image surface of window pixels) and returns the pixel
    /// rectangles drawn (the whole surface when `full` or the scene cannot tell).
    public static func draw(
        _ scene: ShellScene, into surface: OpaquePointer, scale: Double, overlay: [Point], drawnOverlay: [Point],
        showTouches: Bool, full: Bool, extra: [PixelRect] = []
    ) -> [PixelRect] {
        let bounds = PixelRect(
            x: 0, y: 0, width: Int(cairo_image_surface_get_width(surface)),
            height: Int(cairo_image_surface_get_height(surface)))
        let rects = rects(
            for: scene, bounds: bounds, scale: scale, overlay: overlay, drawnOverlay: drawnOverlay, full: full,
            extra: extra)
        let cr = cairo_create(surface)!
        for r in rects { cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height)) }
        cairo_clip(cr)
        paint(scene, into: cr, scale: scale, overlay: overlay, showTouches: showTouches)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return rects
    }

    /// The box a touch point's circle covers (the demo draws r = 2.5 % of the short side, at
    /// least 6 pt, with a 2 pt outline).
    static func touchBox(_ p: Point, in size: Size) -> Rect {
        let r = max(6, min(size.width, size.height) * 0.025) + 2
        return Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r)
    }

    /// A rectangle in points as the window pixels it touches, outset by 2 px, within `bounds`.
    static func pixelRect(_ r: Rect, scale: Double, bounds: PixelRect) -> PixelRect {
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return bounds }
        let limit = 1e6
        let x0 = Int(max(-limit, min(limit, (r.minX * scale).rounded(.down)))) - 2
        let y0 = Int(max(-limit, min(limit, (r.minY * scale).rounded(.down)))) - 2
        let x1 = Int(max(-limit, min(limit, (r.maxX * scale).rounded(.up)))) + 2
        let y1 = Int(max(-limit, min(limit, (r.maxY * scale).rounded(.up)))) + 2
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersection(bounds)
    }

    /// Overlapping rectangles become their union; past `limit` rectangles, the two whose union
    /// grows least are merged.
    static func merged(_ input: [PixelRect], limit: Int) -> [PixelRect] {
        var rects = input.filter { !$0.isEmpty }
        var changed = true
        while changed {
            changed = false
            outer: for i in rects.indices {
                for j in rects.indices where j > i && !rects[i].intersection(rects[j]).isEmpty {
                    rects[i] = rects[i].union(rects[j])
                    rects.remove(at: j)
                    changed = true
                    break outer
                }
            }
        }
        while rects.count > max(1, limit) {
            var best = (0, 1, Int.max)
            for i in rects.indices {
                for j in rects.indices where j > i {
                    let u = rects[i].union(rects[j])
                    let cost = u.area - rects[i].area - rects[j].area
                    if cost < best.2 { best = (i, j, cost) }
                }
            }
            rects[best.0] = rects[best.0].union(rects[best.1])
            rects.remove(at: best.1)
        }
        return rects
    }
}
