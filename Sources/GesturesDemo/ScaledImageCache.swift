import CCairo

/// The picture kept at the size (and angle) it is drawn at, so that a drag composites a plain
/// copy instead of resampling the whole picture every frame (UIKit: Core Animation rasterizing a
/// layer once, `shouldRasterize`).
///
/// Rules:
/// - The key is the *linear part* of the image-pixel → device-pixel matrix (scale, rotation,
///   HiDPI); a translation only moves the copy.
/// - The copy is made when that linear part **settles**: unchanged for
///   ``DemoScene/imageSettleDelay`` (the scene's timer; it then redraws the picture). While it
///   changes (a pinch or rotation in progress) the picture is drawn straight from the source,
///   with a bilinear filter when the source is much larger than the drawn size and the nearest
///   pixel when it is enlarged (cheap, at the price of some aliasing or blockiness while it
///   moves), else Cairo's good filter. A settled picture is drawn from the copy made with the
///   good filter.
/// - The copy is drawn at a whole-pixel offset (at most half a pixel from the exact place), and
///   is opaque — the picture already composited over the window's background, which is all that
///   lies under it (the picture is the scene's lowest layer) — so drawing it is a plain copy.
/// - One copy at a time: its memory is the drawn size (not the source's), and it is dropped when
///   the key changes.
///
/// Deviation: the exact renderer (`gestures replay --png`, tests) uses no cache: ``DemoScene``
/// has none unless the live shell gives it one.
@MainActor
public final class ScaledImageCache {
    nonisolated(unsafe) private var surface: OpaquePointer?
    private var key = SIMD4<Double>(.nan, .nan, .nan, .nan)
    /// The copy's pixel (0, 0) relative to where the matrix puts image pixel (0, 0).
    private var offset = (x: 0.0, y: 0.0)
    private var size = (width: 0, height: 0)
    /// Copies made so far (for tests and benchmarks).
    public private(set) var builds = 0
    /// The largest copy made, in pixels (2 Mpx, 8 MiB): a picture enlarged past it is drawn
    /// straight — then only its visible, damaged part is resampled, while making a copy of the
    /// whole enlarged picture takes 150–250 ms at ×11 (monkey soak, seed 670550535600),
    /// 40–50 ms at ×4.5 (3 Mpx; seed 42), and as much memory as its area.
    public static let maximumPixels = 2 << 20

    public init() {}

    deinit {
        if let surface { cairo_surface_destroy(surface) }
    }

    /// The device-pixel rectangle the copy will cover, opaquely, when the picture is drawn under
    /// `m` now; nil when it will be drawn another way (straight, or after a new copy is made).
    /// What lies under that rectangle need not be drawn first.
    func opaqueRect(matrix m: cairo_matrix_t) -> (x: Double, y: Double, width: Double, height: Double)? {
        guard surface != nil, SIMD4(m.xx, m.yx, m.xy, m.yy) == key else { return nil }
        return ((m.x0 + offset.x).rounded(), (m.y0 + offset.y).rounded(), Double(size.width), Double(size.height))
    }

    /// Draws `image` (a cairo image surface of `width`×`height`) under `m` (image pixel → device
    /// pixel) into `cr`, whose current matrix must be the identity. Uses or refreshes the copy
    /// per the type's rules.
    func draw(
        _ image: OpaquePointer, width: Int, height: Int, matrix m: cairo_matrix_t, settled: Bool,
        background: (Double, Double, Double), into cr: OpaquePointer
    ) {
        let linear = SIMD4(m.xx, m.yx, m.xy, m.yy)
        if linear != key {
            guard settled else {
                drawStraight(image, width: width, height: height, matrix: m, moving: true, into: cr)
                return
            }
            build(image, width: width, height: height, linear: m, background: background)
        }
        guard let surface else {
            drawStraight(image, width: width, height: height, matrix: m, moving: !settled, into: cr)
            return
        }
        let x = (m.x0 + offset.x).rounded()
        let y = (m.y0 + offset.y).rounded()
        cairo_save(cr)
        cairo_set_source_surface(cr, surface, x, y)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_rectangle(cr, x, y, Double(size.width), Double(size.height))
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Draws the source resampled under `m`: bilinear below half size; nearest above its own size
    /// while `moving` (an enlarged picture that covers a 4K window cost ~120 ms of CPU a frame
    /// with the good filter, which is bilinear there); otherwise Cairo's good filter.
    private func drawStraight(
        _ image: OpaquePointer, width: Int, height: Int, matrix m: cairo_matrix_t, moving: Bool,
        into cr: OpaquePointer
    ) {
        var m = m
        cairo_save(cr)
        cairo_transform(cr, &m)
        cairo_set_source_surface(cr, image, 0, 0)
        let drawnScale = max((m.xx * m.xx + m.yx * m.yx).squareRoot(), (m.xy * m.xy + m.yy * m.yy).squareRoot())
        let enlargedAndMoving = moving && drawnScale > 1
        let filter =
            drawnScale < 0.5 ? CAIRO_FILTER_BILINEAR : enlargedAndMoving ? CAIRO_FILTER_FAST : CAIRO_FILTER_GOOD
        cairo_pattern_set_filter(cairo_get_source(cr), filter)
        cairo_rectangle(cr, 0, 0, Double(width), Double(height))
        cairo_fill(cr)
        cairo_restore(cr)
    }

    private func build(
        _ image: OpaquePointer, width: Int, height: Int, linear m: cairo_matrix_t,
        background: (Double, Double, Double)
    ) {
        if let s = surface { cairo_surface_destroy(s) }
        surface = nil
        key = SIMD4(m.xx, m.yx, m.xy, m.yy)
        let w = Double(width)
        let h = Double(height)
        let xs = [0, m.xx * w, m.xy * h, m.xx * w + m.xy * h]
        let ys = [0, m.yx * w, m.yy * h, m.yx * w + m.yy * h]
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
            minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite
        else { return }
        let ox = minX.rounded(.down) - 1
        let oy = minY.rounded(.down) - 1
        let cw = Int((maxX - ox).rounded(.up)) + 1
        let ch = Int((maxY - oy).rounded(.up)) + 1
        guard cw > 0, ch > 0, cw * ch <= Self.maximumPixels,
            let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(cw), Int32(ch)),
            cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, let c = cairo_create(s)
        else { return }
        cairo_set_source_rgb(c, background.0, background.1, background.2)
        cairo_paint(c)
        var t = cairo_matrix_t(xx: m.xx, yx: m.yx, xy: m.xy, yy: m.yy, x0: -ox, y0: -oy)
        cairo_transform(c, &t)
        cairo_set_source_surface(c, image, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(c), CAIRO_FILTER_GOOD)
        cairo_rectangle(c, 0, 0, w, h)
        cairo_fill(c)
        cairo_destroy(c)
        cairo_surface_flush(s)
        surface = s
        offset = (ox, oy)
        size = (cw, ch)
        builds += 1
    }
}
