import CCairo
import GestureKit

/// Draws the demo scene with Cairo (UIKit counterpart: the views' own drawing, composed by Core
/// Animation). User space is window points. Text uses Cairo's toy font API with DejaVu Sans.
@MainActor
public enum DemoRenderer {
    /// An RGB colour, components 0…1.
    public struct Color: Sendable {
        public var r: Double
        public var g: Double
        public var b: Double
        public init(_ r: Double, _ g: Double, _ b: Double) {
            self.r = r
            self.g = g
            self.b = b
        }
    }

    public static let background = Color(0.96, 0.96, 0.94)
    public static let tapColor = Color(0.26, 0.55, 0.89)
    public static let swipeColor = Color(0.30, 0.69, 0.38)
    public static let pinchColor = Color(0.95, 0.58, 0.20)
    public static let rotateColor = Color(0.58, 0.39, 0.80)
    public static let labelColor = Color(0.13, 0.13, 0.16)
    public static let regionTextColor = Color(1, 1, 1)
    public static let touchColor = Color(0.90, 0.16, 0.22)
    /// The regions' opacity: the image, behind them, shows through.
    public static let regionAlpha = 0.88

    /// Draws the whole scene: background, regions with their labels, the feedback label, the
    /// image under its matrix, and the touch points (`overlay` always; every touch when
    /// `showTouches`).
    /// `aboveImageOnly`: neither the background nor the image (the X server draws them, see
    /// `ServerBackdrop`), onto a transparent target.
    public static func draw(
        _ scene: DemoScene, into cr: OpaquePointer, overlay: [Point], showTouches: Bool, aboveImageOnly: Bool = false
    ) {
        let layout = scene.layout
        let regions: [(Rect, Color, String)] = [
            (layout.tap, tapColor, "Tap Me!"), (layout.swipe, swipeColor, "Swipe Me!"),
            (layout.pinch, pinchColor, "Pinch Me!"), (layout.rotate, rotateColor, "Rotate Me!"),
        ]
        let radius = min(layout.size.width, layout.size.height) * 0.015
        cairo_save(cr)
        var fused: [NearestPainter.Tint?] = regions.map { _ in nil }
        if !aboveImageOnly {
            paintBackground(scene, cr)
            // Back to front, as the views are: the image, then the regions (translucent) and labels.
            // The regions' whole pixels go in the picture's pass when it is painted by hand.
            let cache = scene.imageCache
            let tints = cache == nil || !fusesRegionTints ? nil : regionTints(regions, radius: radius, cr)
            cache?.tints = tints?.tints ?? []
            drawImage(scene, cr)
            if let cache, let tints, cache.tintsApplied { fused = tints.boxes }
            cache?.tints = []
        }

        DemoFonts.select(DemoFonts.bold, on: cr)
        // What lies outside the clip (the damaged part of the window) is skipped, text included.
        var clip = (x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0)
        cairo_clip_extents(cr, &clip.x0, &clip.y0, &clip.x1, &clip.y1)
        func visible(_ r: Rect) -> Bool {
            r.maxX >= clip.x0 && r.minX <= clip.x1 && r.maxY >= clip.y0 && r.minY <= clip.y1
        }
        for (i, (rect, color, text)) in regions.enumerated() where visible(rect) {
            fillRegion(cr, rect, radius: radius, color: color, except: fused[i])
            setColor(cr, regionTextColor)
            let size = max(1, min(rect.height * 0.22, rect.width * 0.11))
            centredText(cr, text, in: rect, size: size)
        }

        if visible(layout.label) {
            DemoFonts.select(DemoFonts.regular, on: cr)
            setColor(cr, labelColor)
            centredText(cr, scene.label, in: layout.label, size: labelFontSize(layout.label))
        }

        var points = overlay
        if showTouches { points += scene.touchLocations }
        let r = max(6, min(layout.size.width, layout.size.height) * 0.025)
        for p in points where p.isFinite {
            cairo_new_path(cr)
            cairo_arc(cr, p.x, p.y, r, 0, 2 * Double.pi)
            cairo_set_source_rgba(cr, touchColor.r, touchColor.g, touchColor.b, 0.35)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, touchColor.r, touchColor.g, touchColor.b, 0.9)
            cairo_set_line_width(cr, 2)
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }

    /// The window's background over the clip — except where the picture's cached copy will be
    /// drawn: that copy is opaque (the background is in it), so filling under it first was half
    /// of a drag's pixel work (a drag's damage is the picture's old and new place).
    /// Nothing at all under the moving, enlarged picture: it is drawn with the background
    /// around it (``ScaledImageCache/fillsClip(matrix:settled:)``).
    private static func paintBackground(_ scene: DemoScene, _ cr: OpaquePointer) {
        if let cache = scene.imageCache, let p = imagePixels(scene, cr),
            cache.fillsClip(matrix: p.device, settled: scene.imageSettled)
        {
            return
        }
        setColor(cr, background)
        cairo_save(cr)
        if let cache = scene.imageCache, let device = imageDeviceMatrix(scene, cr),
            let r = cache.opaqueRect(matrix: device)
        {
            cairo_identity_matrix(cr)
            var clip = (x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0)
            cairo_clip_extents(cr, &clip.x0, &clip.y0, &clip.x1, &clip.y1)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_rectangle(cr, clip.x0, clip.y0, clip.x1 - clip.x0, clip.y1 - clip.y0)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_fill(cr)
        } else {
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }

    /// Image pixel → device pixel for the scene's picture under `cr`'s current matrix; nil when
    /// there is no picture or the transform is degenerate.
    private static func imageDeviceMatrix(_ scene: DemoScene, _ cr: OpaquePointer) -> cairo_matrix_t? {
        let m = scene.imageMatrix
        let b = scene.imageBounds
        guard b.width > 0, b.height > 0, m.determinant != 0, m.determinant.isFinite,
            let image = scene.image, image.size.width > 0, image.size.height > 0, !image.awaitingFirstDecode
        else { return nil }
        var device = cairo_matrix_t()
        cairo_get_matrix(cr, &device)
        var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
        var scale = cairo_matrix_t()
        cairo_matrix_init_scale(&scale, b.width / image.size.width, b.height / image.size.height)
        // cairo_matrix_multiply(r, a, b): first a, then b.
        var imageToUser = cairo_matrix_t()
        cairo_matrix_multiply(&imageToUser, &scale, &cm)
        var result = cairo_matrix_t()
        cairo_matrix_multiply(&result, &imageToUser, &device)
        return result
    }

    /// The pixels the picture is drawn from (a larger rendition when it is enlarged and the
    /// picture has one) and image pixel → device pixel for them under `cr`'s current matrix
    /// (window points); nil when there is no picture or its transform is degenerate.
    static func imagePixels(
        _ scene: DemoScene, _ cr: OpaquePointer
    ) -> (surface: OpaquePointer, width: Int, height: Int, device: cairo_matrix_t)? {
        let m = scene.imageMatrix
        let b = scene.imageBounds
        guard b.width > 0, b.height > 0, m.determinant != 0, m.determinant.isFinite,
            let image = scene.image, image.size.width > 0, image.size.height > 0, !image.awaitingFirstDecode
        else { return nil }
        var device = imageToDevice(scene, cr, pixelWidth: nil, pixelHeight: nil)
        // Enlarged (a pinch, a 4K window): a larger rendition when the picture has one.
        let pixels = image.pixels(
            forScale: ScaledImageCache.drawnScale(device), load: scene.imageCache == nil || scene.imageSettled)
        if pixels.width != Int(image.size.width) || pixels.height != Int(image.size.height) {
            device = imageToDevice(scene, cr, pixelWidth: pixels.width, pixelHeight: pixels.height)
        }
        // The copy the decode thread made for these pixels, if any, is the cache's from now on.
        if let cache = scene.imageCache, let copy = image.takePreparedCopy(for: pixels.surface) {
            cache.adopt(copy)
        }
        return (pixels.surface, pixels.width, pixels.height, device)
    }

    /// Pixel → device pixel for the scene's picture under `cr`'s current matrix, drawn from
    /// `pixelWidth`×`pixelHeight` pixels (nil: its own size). The one computation of that
    /// matrix, so that a copy asked for before the pixels exist
    /// (``askForCopyOfFirstDecode(_:_:)``) has the very key the frame that draws them looks for.
    private static func imageToDevice(
        _ scene: DemoScene, _ cr: OpaquePointer, pixelWidth: Int?, pixelHeight: Int?
    ) -> cairo_matrix_t {
        let m = scene.imageMatrix
        let b = scene.imageBounds
        let size = scene.image?.size ?? Size(width: b.width, height: b.height)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
        cairo_transform(cr, &cm)
        cairo_scale(cr, b.width / size.width, b.height / size.height)
        if let pixelWidth, let pixelHeight {
            cairo_scale(cr, size.width / Double(pixelWidth), size.height / Double(pixelHeight))
        }
        var device = cairo_matrix_t()
        cairo_get_matrix(cr, &device)
        return device
    }

    /// While the live window's picture is still decoding, asks the decode thread to make the
    /// picture's cached copy for where this frame would draw it (the cache's good-filter copy
    /// at rest), so the frame after the hand-over only copies it into place.
    private static func askForCopyOfFirstDecode(_ scene: DemoScene, _ cr: OpaquePointer) {
        let m = scene.imageMatrix
        let b = scene.imageBounds
        guard scene.imageCache != nil, scene.imageSettled, b.width > 0, b.height > 0, m.determinant != 0,
            m.determinant.isFinite, let image = scene.image, image.size.width > 0, image.size.height > 0,
            let pixels = image.firstDecodeSize
        else { return }
        let own = pixels.width == Int(image.size.width) && pixels.height == Int(image.size.height)
        let device = imageToDevice(
            scene, cr, pixelWidth: own ? nil : pixels.width, pixelHeight: own ? nil : pixels.height)
        // Drawn enlarged, the cache draws the pixels straight (no copy to make ahead).
        guard ScaledImageCache.drawnScale(device) <= 1 else { return }
        let bg = (background.r, background.g, background.b)
        image.makeCopyWhenDecoded { surface in
            ScaledImageCache.makeCopy(
                surface, width: pixels.width, height: pixels.height, linear: device, background: bg)
        }
    }

    private static func drawImage(_ scene: DemoScene, _ cr: OpaquePointer) {
        let m = scene.imageMatrix
        let b = scene.imageBounds
        guard b.width > 0, b.height > 0, m.determinant != 0, m.determinant.isFinite else { return }
        // The live window's picture still decoding: its place shows the background until the
        // hand-over redraws it (``DemoImage/prepareWithPreview(toFit:height:)``).
        if scene.image?.awaitingFirstDecode == true { return askForCopyOfFirstDecode(scene, cr) }
        cairo_save(cr)
        if let pixels = imagePixels(scene, cr) {
            var device = pixels.device
            if let cache = scene.imageCache {
                cairo_identity_matrix(cr)
                cache.draw(
                    pixels.surface, width: pixels.width, height: pixels.height, matrix: device,
                    settled: scene.imageSettled, background: (background.r, background.g, background.b), into: cr)
            } else {
                cairo_set_matrix(cr, &device)
                cairo_set_source_surface(cr, pixels.surface, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                cairo_rectangle(cr, 0, 0, Double(pixels.width), Double(pixels.height))
                cairo_fill(cr)
            }
        } else {
            // No picture: a placeholder the size of the image view.
            var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
            cairo_transform(cr, &cm)
            cairo_rectangle(cr, 0, 0, b.width, b.height)
            cairo_set_source_rgb(cr, 0.85, 0.85, 0.85)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, 0.5, 0.5, 0.5)
            cairo_set_line_width(cr, 2)
            cairo_stroke(cr)
            setColor(cr, labelColor)
            centredText(cr, "no image", in: Rect(x: 0, y: 0, width: b.width, height: b.height), size: b.height * 0.1)
        }
        cairo_restore(cr)
    }

    static func setColor(_ cr: OpaquePointer, _ c: Color) {
        cairo_set_source_rgb(cr, c.r, c.g, c.b)
    }

    static func roundedRect(_ cr: OpaquePointer, _ r: Rect, radius: Double) {
        let rad = max(0, min(radius, r.width / 2, r.height / 2))
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - rad, r.minY + rad, rad, -Double.pi / 2, 0)
        cairo_arc(cr, r.maxX - rad, r.maxY - rad, rad, 0, Double.pi / 2)
        cairo_arc(cr, r.minX + rad, r.maxY - rad, rad, Double.pi / 2, Double.pi)
        cairo_arc(cr, r.minX + rad, r.minY + rad, rad, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    /// Draws `text` centred in `rect` at `size` points, shrunk to fit the rect's width. The text
    /// is turned into glyphs once (measuring and showing the same glyphs; `cairo_text_extents`
    /// then `cairo_show_text` converted it twice, and the feedback label changes every frame of
    /// a drag).
    static func centredText(_ cr: OpaquePointer, _ text: String, in rect: Rect, size: Double) {
        guard let run = fitted(cr, text, in: rect, size: size) else { return }
        run.show(cr)
    }

    /// `text` as glyphs fitted into `rect` (`size` points, shrunk to 94 % of the rect's width),
    /// with the origin that centres it; sets `cr`'s font size to the size used.
    private static func fitted(_ cr: OpaquePointer, _ text: String, in rect: Rect, size: Double) -> GlyphRun? {
        guard size.isFinite, size > 0, rect.width > 0, !text.isEmpty else { return nil }
        cairo_set_font_size(cr, size)
        guard var run = GlyphRun(cr, text) else { return nil }
        let maxWidth = rect.width * 0.94
        if run.extents.x_advance > maxWidth && run.extents.x_advance > 0 {
            cairo_set_font_size(cr, size * maxWidth / run.extents.x_advance)
            guard let smaller = GlyphRun(cr, text) else { return nil }
            run = smaller
        }
        var fe = cairo_font_extents_t()
        cairo_font_extents(cr, &fe)
        run.x = rect.midX - run.extents.x_advance / 2
        run.y = rect.midY + (fe.ascent - fe.descent) / 2
        run.ascent = fe.ascent
        run.descent = fe.descent
        return run
    }

    /// The feedback label's font size in `rect` (before shrinking to fit).
    static func labelFontSize(_ rect: Rect) -> Double {
        max(1, min(rect.height * 0.55, rect.width * 0.06))
    }

    /// A context to measure text with, outside drawing (a 1×1 image).
    static let measuring: OpaquePointer = {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        defer { cairo_surface_destroy(surface) }
        return cairo_create(surface)
    }()

    /// The part of the label's `rect` that `text` can touch when drawn there: the box of its ink,
    /// its advance and the font's ascent and descent, plus a margin of 4 pt and 3 % of its width
    /// (hinting at another pixel scale moves each glyph by a fraction of a pixel), within `rect`.
    /// A label change damages the old and the new text's boxes only, not the whole label: a
    /// drag changes the label every frame, and the label's width was a third of the pixels a
    /// drag redrew.
    public static func labelTextBox(_ text: String, in rect: Rect) -> Rect? {
        let cr = measuring
        DemoFonts.select(DemoFonts.regular, on: cr)
        guard let run = fitted(cr, text, in: rect, size: labelFontSize(rect)) else { return nil }
        let e = run.extents
        let x = run.x
        let left = min(x, x + e.x_bearing)
        let right = max(x + e.x_advance, x + e.x_bearing + e.width)
        guard left.isFinite, right.isFinite else { return rect }
        let top = min(run.y - run.ascent, run.y + e.y_bearing)
        let bottom = max(run.y + run.descent, run.y + e.y_bearing + e.height)
        guard top.isFinite, bottom.isFinite else { return rect }
        let margin = 4 + 0.03 * (right - left)
        let minX = max(rect.minX, left - margin)
        let maxX = min(rect.maxX, right + margin)
        let minY = max(rect.minY, top - 4)
        let maxY = min(rect.maxY, bottom + 4)
        return maxX > minX && maxY > minY ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil
    }

    /// `text` as glyphs of `cr`'s current font, laid out from (0, 0), with their extents, and
    /// the origin (`x`, `y`) they are shown at.
    private struct GlyphRun: ~Copyable {
        let glyphs: UnsafeMutablePointer<cairo_glyph_t>
        let count: Int32
        var extents = cairo_text_extents_t()
        var x = 0.0
        var y = 0.0
        /// The font's ascent and descent (set by `fitted`).
        var ascent = 0.0
        var descent = 0.0

        init?(_ cr: OpaquePointer, _ text: String) {
            var pointer: UnsafeMutablePointer<cairo_glyph_t>?
            var n: Int32 = 0
            let status = cairo_scaled_font_text_to_glyphs(
                cairo_get_scaled_font(cr), 0, 0, text, -1, &pointer, &n, nil, nil, nil)
            guard status == CAIRO_STATUS_SUCCESS, let pointer else { return nil }
            glyphs = pointer
            count = n
            cairo_glyph_extents(cr, glyphs, count, &extents)
        }

        deinit { cairo_glyph_free(glyphs) }

        /// Shows the glyphs with their origin at (`x`, `y`).
        func show(_ cr: OpaquePointer) {
            for i in 0..<Int(count) {
                glyphs[i].x += x
                glyphs[i].y += y
            }
            cairo_show_glyphs(cr, glyphs, count)
            cairo_new_path(cr)
        }
    }

    /// Renders one frame of `scene` (no touches drawn unless `showTouches`) into a PNG file.
    public static func renderPNG(_ scene: DemoScene, to path: String, showTouches: Bool = false) throws(RenderError) {
        try writePNG(size: scene.layout.size, to: path) { cr in
            draw(scene, into: cr, overlay: [], showTouches: showTouches)
        }
    }

    /// Creates an ARGB image surface of `size` (at least 1×1 pixel), lets `body` draw into it
    /// and writes it to `path` as PNG.
    public static func writePNG(size: Size, to path: String, _ body: (OpaquePointer) -> Void) throws(RenderError) {
        let w = Int32(max(1, min(16384, size.width.isFinite ? size.width.rounded(.up) : 1)))
        let h = Int32(max(1, min(16384, size.height.isFinite ? size.height.rounded(.up) : 1)))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h) else {
            throw RenderError(message: "cannot create a \(w)x\(h) image")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
            throw RenderError(message: "cannot create a \(w)x\(h) image")
        }
        body(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError(
                message: "\(path): cannot write the PNG (\(String(cString: cairo_status_to_string(status))))")
        }
    }
}

/// Rendering failed (a runtime failure: exit status 1). `message` is one line.
public struct RenderError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
