import CCairo
import GestureKit

/// The visible part of a picture with transparent margins, in fractions of its size.
public struct VisibleRegion: Equatable, Sendable {
    /// The box of the mostly opaque pixels.
    public var box: Rect
    /// A mostly opaque pixel's centre near the middle of them.
    public var anchor: Point

    public init(box: Rect, anchor: Point) {
        self.box = box
        self.anchor = anchor
    }

    /// From an ARGB32 Cairo surface: pixels with alpha ≥ 128. Nil for another format or none.
    init?(surface s: OpaquePointer) {
        guard cairo_image_surface_get_format(s) == CAIRO_FORMAT_ARGB32, let data = cairo_image_surface_get_data(s)
        else { return nil }
        cairo_surface_flush(s)
        let (w, h) = (Int(cairo_image_surface_get_width(s)), Int(cairo_image_surface_get_height(s)))
        let stride = Int(cairo_image_surface_get_stride(s))
        func opaque(_ x: Int, _ y: Int) -> Bool {
            UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self) >> 24 >= 128
        }
        var (minX, minY, maxX, maxY) = (w, h, -1, -1)
        var (sumX, sumY, count) = (0.0, 0.0, 0.0)
        for y in 0..<h {
            for x in 0..<w where opaque(x, y) {
                (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                sumX += Double(x)
                sumY += Double(y)
                count += 1
            }
        }
        guard count > 0, w > 0, h > 0 else { return nil }
        var (ax, ay) = (Int((sumX / count).rounded()), Int((sumY / count).rounded()))
        if !opaque(ax, ay) {
            var best = Int.max
            for y in minY...maxY {
                for x in minX...maxX where opaque(x, y) {
                    let d = (x - ax) * (x - ax) + (y - ay) * (y - ay)
                    if d < best { (best, ax, ay) = (d, x, y) }
                }
            }
        }
        let (fw, fh) = (Double(w), Double(h))
        box = Rect(
            x: Double(minX) / fw, y: Double(minY) / fh, width: Double(maxX + 1 - minX) / fw,
            height: Double(maxY + 1 - minY) / fh)
        anchor = Point(x: (Double(ax) + 0.5) / fw, y: (Double(ay) + 0.5) / fh)
    }
}
