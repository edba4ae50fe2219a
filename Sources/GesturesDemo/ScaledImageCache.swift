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
/// - The moving, enlarged picture is drawn by ``NearestPainter`` straight into the target's
///   pixels, background included (``fillsClip(matrix:settled:)``: nothing is painted under it),
///   from the source composited once over the background (kept while the picture is drawn
///   enlarged from that source without a copy, also at rest: the picture settles whenever 0.1 s
///   passes between two changes, e.g. frames on a loaded machine, and remaking it at the next
///   change cost 2–3 ms; let go when the picture is drawn from a copy or at most its own size). The same pixels as Cairo's nearest filter over the painted background,
///   at a tenth of the CPU (a frame covering 3840×2160 drew in 30–40 ms through pixman).
///   Where that is not possible (a target that is not a 32-bit image surface, a clip that is
///   not whole-pixel rectangles) the background is painted and Cairo draws it as before.
///   In the live window on a server with RENDER the X server resamples that same opaque source
///   instead (``serverSource(_:width:height:background:)``, `ServerBackdrop`): the client then
///   draws none of the picture's pixels.
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
    /// The source composited over the background (opaque), for ``NearestPainter``: the source
    /// it was made from (referenced), the background, and the copy (nil for an opaque source,
    /// which is drawn from directly).
    nonisolated(unsafe) private var opaqueSource: (of: OpaquePointer, background: UInt32, copy: OpaquePointer?)?
    /// Copies made so far (for tests and benchmarks).
    public private(set) var builds = 0
    /// The largest copy made, in pixels (2 Mpx, 8 MiB): a picture enlarged past it is drawn
    /// straight — then only its visible, damaged part is resampled, while making a copy of the
    /// whole enlarged picture takes 150–250 ms at ×11 (monkey soak, seed 670550535600),
    /// 40–50 ms at ×4.5 (3 Mpx; seed 42), and as much memory as its area.
    public nonisolated static let maximumPixels = 2 << 20

    public init() {}

    deinit {
        if let surface { cairo_surface_destroy(surface) }
        if let o = opaqueSource {
            cairo_surface_destroy(o.of)
            if let c = o.copy { cairo_surface_destroy(c) }
        }
    }

    /// Whether drawing the picture under `m` (image pixel → device pixel) now writes every pixel
    /// of the clip, the background around the picture included (the moving, enlarged picture:
    /// see the type's rules); then nothing need be drawn under it.
    func fillsClip(matrix m: cairo_matrix_t, settled: Bool) -> Bool {
        guard !settled, Self.drawnScale(m) > 1 else { return false }
        return SIMD4(m.xx, m.yx, m.xy, m.yy) != key || surface == nil
    }

    /// The larger of the lengths one image pixel's sides are drawn at, in device pixels.
    static func drawnScale(_ m: cairo_matrix_t) -> Double {
        max((m.xx * m.xx + m.yx * m.yx).squareRoot(), (m.xy * m.xy + m.yy * m.yy).squareRoot())
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
        tintsApplied = false
        let linear = SIMD4(m.xx, m.yx, m.xy, m.yy)
        if Self.drawnScale(m) <= 1 { dropOpaqueSource() }
        if linear != key {
            guard settled else {
                drawStraight(
                    image, width: width, height: height, matrix: m, moving: true, background: background, into: cr)
                return
            }
            build(image, width: width, height: height, linear: m, background: background)
        }
        guard let surface else {
            drawStraight(
                image, width: width, height: height, matrix: m, moving: !settled, background: background, into: cr)
            return
        }
        dropOpaqueSource()
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
    /// with the good filter, which is bilinear there), by ``NearestPainter`` with the background
    /// around it where it can; otherwise Cairo's good filter.
    private func drawStraight(
        _ image: OpaquePointer, width: Int, height: Int, matrix m: cairo_matrix_t, moving: Bool,
        background: (Double, Double, Double), into cr: OpaquePointer
    ) {
        var m = m
        let drawnScale = Self.drawnScale(m)
        let enlargedAndMoving = moving && drawnScale > 1
        if enlargedAndMoving {
            if drawNearest(image, width: width, height: height, matrix: m, background: background, into: cr) {
                return
            }
            // The caller painted no background (``fillsClip``).
            cairo_save(cr)
            cairo_set_source_rgb(cr, background.0, background.1, background.2)
            cairo_paint(cr)
            cairo_restore(cr)
        }
        cairo_save(cr)
        cairo_transform(cr, &m)
        cairo_set_source_surface(cr, image, 0, 0)
        let filter =
            drawnScale < 0.5 ? CAIRO_FILTER_BILINEAR : enlargedAndMoving ? CAIRO_FILTER_FAST : CAIRO_FILTER_GOOD
        cairo_pattern_set_filter(cairo_get_source(cr), filter)
        cairo_rectangle(cr, 0, 0, Double(width), Double(height))
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// What the next ``draw(_:width:height:matrix:settled:background:into:)`` composites over
    /// the picture when ``NearestPainter`` draws it (the renderer's regions); ``tintsApplied``
    /// says whether it did.
    var tints: [NearestPainter.Tint] = []
    /// Whether the last draw composited ``tints`` (else the caller draws them itself).
    private(set) var tintsApplied = false

    /// Draws `image` under `m` with ``NearestPainter`` into `cr`'s target, over every pixel of
    /// the clip (the background where the picture is not). False, drawing nothing, when the
    /// target is not a 32-bit image surface at a whole-pixel device offset of 0, the clip is not
    /// whole-pixel rectangles, or the source cannot be read.
    private func drawNearest(
        _ image: OpaquePointer, width: Int, height: Int, matrix m: cairo_matrix_t,
        background: (Double, Double, Double), into cr: OpaquePointer
    ) -> Bool {
        guard let target = cairo_get_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE
        else { return false }
        let format = cairo_image_surface_get_format(target)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32 else { return false }
        var offset = (x: 0.0, y: 0.0)
        cairo_surface_get_device_offset(target, &offset.x, &offset.y)
        var inverse = m
        guard offset == (0, 0), cairo_matrix_invert(&inverse) == CAIRO_STATUS_SUCCESS,
            let source = opaque(image, width: width, height: height, background: background),
            let list = cairo_copy_clip_rectangle_list(cr)
        else { return false }
        defer { cairo_rectangle_list_destroy(list) }
        let clip = list.pointee
        guard clip.status == CAIRO_STATUS_SUCCESS else { return false }
        let surfaceWidth = Int(cairo_image_surface_get_width(target))
        let surfaceHeight = Int(cairo_image_surface_get_height(target))
        var rects: [(x: Int, y: Int, width: Int, height: Int)] = []
        for i in 0..<Int(clip.num_rectangles) {
            let r = clip.rectangles[i]
            guard r.x == r.x.rounded(), r.y == r.y.rounded(), r.width == r.width.rounded(),
                r.height == r.height.rounded(), abs(r.x) < 1e6, abs(r.y) < 1e6, r.width < 1e6, r.height < 1e6
            else { return false }
            let x0 = max(0, Int(r.x))
            let y0 = max(0, Int(r.y))
            let x1 = min(surfaceWidth, Int(r.x + r.width))
            let y1 = min(surfaceHeight, Int(r.y + r.height))
            if x1 > x0 && y1 > y0 { rects.append((x0, y0, x1 - x0, y1 - y0)) }
        }
        cairo_surface_flush(source.surface)
        guard let pixels = cairo_image_surface_get_data(source.surface) else { return false }
        let painter = NearestPainter(
            source: UnsafeRawPointer(pixels).assumingMemoryBound(to: UInt32.self), sourceWidth: width,
            sourceHeight: height, sourceStride: Int(cairo_image_surface_get_stride(source.surface)) / 4,
            inverse: inverse, background: source.background, tints: tints)
        cairo_surface_flush(target)
        guard let data = cairo_image_surface_get_data(target) else { return false }
        let stride = Int(cairo_image_surface_get_stride(target))
        for r in rects where !painter.paint(into: data, stride: stride, rect: r) {
            // Nothing was written for this rectangle (nor for the ones after it).
            cairo_surface_mark_dirty(target)
            return false
        }
        cairo_surface_mark_dirty(target)
        tintsApplied = !tints.isEmpty
        return true
    }

    /// The picture the X server may resample for a frame drawn under `m` (see ``fillsClip(matrix:settled:)``,
    /// which must hold): ``opaque(_:width:height:background:)``'s surface and background pixel,
    /// and a number that changes whenever that surface is made again.
    func serverSource(
        _ image: OpaquePointer, width: Int, height: Int, background: (Double, Double, Double)
    ) -> (surface: OpaquePointer, background: UInt32, identity: UInt64)? {
        guard let o = opaque(image, width: width, height: height, background: background) else { return nil }
        return (o.surface, o.background, opaqueGeneration)
    }

    /// Counts the opaque sources made (``serverSource(_:width:height:background:)``'s identity);
    /// shared by every cache, so two caches never give the same number for different pixels.
    private static var opaqueSourcesMade: UInt64 = 0
    private var opaqueGeneration: UInt64 = 0

    /// `image` composited over the background, opaque, and the background's pixel: `image`
    /// itself when it has no alpha, else a copy made once and kept until the picture settles.
    private func opaque(
        _ image: OpaquePointer, width: Int, height: Int, background: (Double, Double, Double)
    ) -> (surface: OpaquePointer, background: UInt32)? {
        guard cairo_surface_get_type(image) == CAIRO_SURFACE_TYPE_IMAGE,
            Int(cairo_image_surface_get_width(image)) == width, Int(cairo_image_surface_get_height(image)) == height
        else { return nil }
        let format = cairo_image_surface_get_format(image)
        guard format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32 else { return nil }
        let pixel = pixel(background)
        if let o = opaqueSource, o.of == image, o.background == pixel { return (o.copy ?? image, pixel) }
        dropOpaqueSource()
        var copy: OpaquePointer?
        if format == CAIRO_FORMAT_ARGB32 {
            guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
                cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, let c = cairo_create(s)
            else { return nil }
            cairo_set_source_rgb(c, background.0, background.1, background.2)
            cairo_paint(c)
            cairo_set_source_surface(c, image, 0, 0)
            cairo_paint(c)
            cairo_destroy(c)
            cairo_surface_flush(s)
            copy = s
        }
        opaqueSource = (cairo_surface_reference(image), pixel, copy)
        Self.opaqueSourcesMade += 1
        opaqueGeneration = Self.opaqueSourcesMade
        return (copy ?? image, pixel)
    }

    private func dropOpaqueSource() {
        guard let o = opaqueSource else { return }
        cairo_surface_destroy(o.of)
        if let c = o.copy { cairo_surface_destroy(c) }
        opaqueSource = nil
    }

    /// The last colour given to ``pixel(_:)`` and its pixel.
    private var lastPixel: (colour: SIMD3<Double>, pixel: UInt32)?

    /// The pixel Cairo paints for an RGB colour (`0xFFRRGGBB`).
    private func pixel(_ c: (Double, Double, Double)) -> UInt32 {
        let colour = SIMD3(c.0, c.1, c.2)
        if let lastPixel, lastPixel.colour == colour { return lastPixel.pixel }
        let p = Self.paintedPixel(c)
        lastPixel = (colour, p)
        return p
    }

    private static func paintedPixel(_ c: (Double, Double, Double)) -> UInt32 {
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return 0xFF00_0000 }
        defer { cairo_surface_destroy(s) }
        guard let cr = cairo_create(s) else { return 0xFF00_0000 }
        cairo_set_source_rgb(cr, c.0, c.1, c.2)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        guard let d = cairo_image_surface_get_data(s) else { return 0xFF00_0000 }
        return UnsafeRawPointer(d).load(as: UInt32.self)
    }

    private func build(
        _ image: OpaquePointer, width: Int, height: Int, linear m: cairo_matrix_t,
        background: (Double, Double, Double)
    ) {
        if let s = surface { cairo_surface_destroy(s) }
        surface = nil
        key = SIMD4(m.xx, m.yx, m.xy, m.yy)
        guard let copy = Self.makeCopy(image, width: width, height: height, linear: m, background: background)
        else { return }
        surface = copy.surface
        offset = copy.offset
        size = copy.size
        builds += 1
    }

    /// A copy made before it was drawn (``makeCopy(_:width:height:linear:background:)``, e.g. on
    /// the decode thread right after the picture's decode): `surface` (owned) holds the picture
    /// drawn under `linear` over `background`, its pixel (0, 0) at `offset` from where the
    /// matrix puts image pixel (0, 0).
    public struct Copy: @unchecked Sendable {
        let surface: OpaquePointer
        let linear: SIMD4<Double>
        let offset: (x: Double, y: Double)
        let size: (width: Int, height: Int)
    }

    /// Takes `copy` as the cached copy, made for the picture's pixels that are drawn next: the
    /// same copy ``draw(_:width:height:matrix:settled:background:into:)`` would make there for
    /// the same pixels, linear part and background (``makeCopy(_:width:height:linear:background:)``
    /// is what it runs), so a frame that finds its key drawn from it shows the same pixels.
    func adopt(_ copy: Copy) {
        if let s = surface { cairo_surface_destroy(s) }
        dropOpaqueSource()
        surface = copy.surface
        key = copy.linear
        offset = copy.offset
        size = copy.size
        adopted += 1
    }

    /// Copies taken with ``adopt(_:)`` (made off the main thread; for tests and benchmarks).
    public private(set) var adopted = 0

    /// The picture `image` (`width`×`height`) drawn under the linear part of `m` with Cairo's good
    /// filter over `background`, into a new opaque surface at whole pixels; nil when it would be
    /// larger than ``maximumPixels`` or the transform is degenerate. Touches nothing but its
    /// arguments: any thread may make it (the image's pixels must not change meanwhile).
    public nonisolated static func makeCopy(
        _ image: OpaquePointer, width: Int, height: Int, linear m: cairo_matrix_t,
        background: (Double, Double, Double)
    ) -> Copy? {
        let w = Double(width)
        let h = Double(height)
        let xs = [0, m.xx * w, m.xy * h, m.xx * w + m.xy * h]
        let ys = [0, m.yx * w, m.yy * h, m.yx * w + m.yy * h]
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
            minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite
        else { return nil }
        let ox = minX.rounded(.down) - 1
        let oy = minY.rounded(.down) - 1
        let cw = Int((maxX - ox).rounded(.up)) + 1
        let ch = Int((maxY - oy).rounded(.up)) + 1
        guard cw > 0, ch > 0, cw * ch <= maximumPixels,
            let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(cw), Int32(ch)),
            cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, let c = cairo_create(s)
        else { return nil }
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
        return Copy(surface: s, linear: SIMD4(m.xx, m.yx, m.xy, m.yy), offset: (ox, oy), size: (cw, ch))
    }
}
