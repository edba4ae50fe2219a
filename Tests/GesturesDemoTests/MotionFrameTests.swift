import CCairo
import GestureKit
import GestureTestSupport
import GestureX11
import Testing

@testable import GesturesDemo

/// An enlarged picture in motion is drawn by ``NearestPainter`` (the nearest pixel, straight into
/// the frame, background included); at rest it is drawn at full quality, as the exact renderer
/// draws it.
@MainActor
@Suite("Motion frames of an enlarged picture")
struct MotionFrameTests {
    static let image = try? DemoImage(path: repositoryRoot + "/Resources/flower.png")
    static let background = (DemoRenderer.background.r, DemoRenderer.background.g, DemoRenderer.background.b)

    /// Image pixel → device pixel: the 300 px flower enlarged 5.3× and turned by 0.3 rad, its
    /// corner off the frame's top left (the picture covers part of the frame and leaves it).
    static let matrix: cairo_matrix_t = {
        var m = cairo_matrix_t()
        cairo_matrix_init_rotate(&m, 0.3)
        cairo_matrix_scale(&m, 5.3, 5.3)
        m.x0 = -180.25
        m.y0 = -410.6
        return m
    }()

    /// The flower enlarged 5.3× without a turn (the painter's path for transforms without
    /// rotation), its left and bottom edges inside the frame.
    static let unturned = cairo_matrix_t(xx: 5.3, yx: 0, xy: 0, yy: 5.3, x0: 120.25, y0: -1200.6)

    static func surface(_ w: Int32 = 900, _ h: Int32 = 700, fill: (Double, Double, Double) = (1, 0, 1))
        -> OpaquePointer
    {
        let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h)!
        let cr = cairo_create(s)!
        cairo_set_source_rgb(cr, fill.0, fill.1, fill.2)
        cairo_paint(cr)
        cairo_destroy(cr)
        return s
    }

    /// The picture as Cairo draws it with its nearest filter over the painted background (what
    /// motion frames showed before ``NearestPainter``).
    static func cairoNearest(into s: OpaquePointer, _ image: OpaquePointer, matrix: cairo_matrix_t) {
        let cr = cairo_create(s)!
        cairo_set_source_rgb(cr, background.0, background.1, background.2)
        cairo_paint(cr)
        var m = matrix
        cairo_transform(cr, &m)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_rectangle(cr, 0, 0, 300, 300)
        cairo_fill(cr)
        cairo_destroy(cr)
    }

    static func pixels(_ s: OpaquePointer) -> (UnsafeMutablePointer<UInt32>, Int, Int, Int) {
        cairo_surface_flush(s)
        let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(s)!).assumingMemoryBound(to: UInt32.self)
        return (
            data, Int(cairo_image_surface_get_width(s)), Int(cairo_image_surface_get_height(s)),
            Int(cairo_image_surface_get_stride(s)) / 4
        )
    }

    @Test(
        "A moving, enlarged picture is where its transform puts it: Cairo's nearest pixel, within 1 px",
        arguments: [true, false])
    func motionFrameMatchesTransform(turned: Bool) throws {
        let matrix = turned ? Self.matrix : Self.unturned
        let image = try #require(Self.image)
        let source = image.pixels(forScale: 1, load: true).surface
        let drawn = Self.surface()
        let reference = Self.surface()
        defer {
            cairo_surface_destroy(drawn)
            cairo_surface_destroy(reference)
        }
        let cache = ScaledImageCache()
        #expect(cache.fillsClip(matrix: matrix, settled: false))
        let cr = cairo_create(drawn)!
        cache.draw(
            source, width: 300, height: 300, matrix: matrix, settled: false, background: Self.background, into: cr)
        cairo_destroy(cr)
        Self.cairoNearest(into: reference, source, matrix: matrix)

        let (a, w, h, stride) = Self.pixels(drawn)
        let (b, _, _, _) = Self.pixels(reference)
        var differing = 0
        var unexplained = 0
        var unpainted = 0
        for y in 0..<h {
            for x in 0..<w {
                let p = a[y * stride + x] & 0xFF_FFFF
                if p == 0xFF_00FF { unpainted += 1 }
                guard p != b[y * stride + x] & 0xFF_FFFF else { continue }
                differing += 1
                // A sample taken on the other side of a pixel edge: the pixel next to it in the
                // reference has the same colour.
                var near = false
                for dy in -1...1 {
                    for dx in -1...1 where (0..<w).contains(x + dx) && (0..<h).contains(y + dy) {
                        near = near || b[(y + dy) * stride + x + dx] & 0xFF_FFFF == p
                    }
                }
                if !near { unexplained += 1 }
            }
        }
        #expect(unpainted == 0, "\(unpainted) pixels left unpainted (the background is the painter's)")
        #expect(unexplained == 0, "\(unexplained) pixels match no reference pixel within 1 px")
        #expect(differing * 200 < w * h, "\(differing) of \(w * h) pixels differ (more than 0.5 %)")
    }

    @Test(
        "A motion frame drawn in clipped parts equals one drawn whole, and paints nothing outside them",
        arguments: [true, false])
    func clippedEqualsWhole(turned: Bool) throws {
        let matrix = turned ? Self.matrix : Self.unturned
        let image = try #require(Self.image)
        let source = image.pixels(forScale: 1, load: true).surface
        let whole = Self.surface()
        let parts = Self.surface()
        defer {
            cairo_surface_destroy(whole)
            cairo_surface_destroy(parts)
        }
        let cache = ScaledImageCache()
        var cr = cairo_create(whole)!
        cache.draw(
            source, width: 300, height: 300, matrix: matrix, settled: false, background: Self.background, into: cr)
        cairo_destroy(cr)
        let rects = [(13, 7, 300, 211), (400, 300, 499, 400), (0, 650, 900, 50), (620, 0, 17, 1)]
        cr = cairo_create(parts)!
        for r in rects { cairo_rectangle(cr, Double(r.0), Double(r.1), Double(r.2), Double(r.3)) }
        cairo_clip(cr)
        cache.draw(
            source, width: 300, height: 300, matrix: matrix, settled: false, background: Self.background, into: cr)
        cairo_destroy(cr)
        let (a, w, h, stride) = Self.pixels(whole)
        let (b, _, _, _) = Self.pixels(parts)
        var wrong = 0
        for y in 0..<h {
            for x in 0..<w {
                let inside = rects.contains { x >= $0.0 && x < $0.0 + $0.2 && y >= $0.1 && y < $0.1 + $0.3 }
                let expected = inside ? a[y * stride + x] & 0xFF_FFFF : 0xFF_00FF
                if b[y * stride + x] & 0xFF_FFFF != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) pixels differ from the whole frame or were painted outside the clip")
    }

    @Test("At rest the enlarged picture is drawn at full quality: as the exact renderer draws it")
    func restFrameIsFullQuality() throws {
        let size = Size(width: 1024, height: 768)
        let scene = DemoScene(size: size, image: Self.image)
        let exact = DemoScene(size: size, image: Self.image)
        scene.imageCache = ScaledImageCache()
        let live = Self.surface(1024, 768)
        let reference = Self.surface(1024, 768)
        defer {
            cairo_surface_destroy(live)
            cairo_surface_destroy(reference)
        }
        var time = 1.0
        var motion: [UInt32] = []
        // Enlarged and turned in steps, a frame drawn after each (motion frames).
        for command in Array(repeating: KeyCommand.scaleUp, count: 20) + [.rotateClockwise] {
            time += 0.02
            scene.perform(command, at: time)
            exact.perform(command, at: time)
            // As the shell's loop does after input: the scene notes the change (its settle delay).
            scene.advance(to: time)
            exact.advance(to: time)
            _ = DamageDrawing.draw(
                scene, into: live, scale: 1, overlay: [], drawnOverlay: [], showTouches: false, full: true)
        }
        #expect(!scene.imageSettled)
        let (m, w, h, stride) = Self.pixels(live)
        motion = (0..<h).flatMap { y in (0..<w).map { m[y * stride + $0] & 0xFF_FFFF } }
        // The settle delay passes: the shell's timer, then its frame.
        time += DemoScene.imageSettleDelay + 0.05
        scene.advance(to: time)
        exact.advance(to: time)
        #expect(scene.imageSettled)
        _ = DamageDrawing.draw(
            scene, into: live, scale: 1, overlay: [], drawnOverlay: [], showTouches: false, full: true)
        _ = DamageDrawing.draw(
            exact, into: reference, scale: 1, overlay: [], drawnOverlay: [], showTouches: false, full: true)
        // Enlarged past the copy's limit: drawn straight with Cairo's good filter, as the exact
        // renderer draws it.
        #expect(scene.imageCache?.builds == 0)
        let (differing, box) = DamageTests.differingPixels(live, reference)
        #expect(differing == 0, "\(differing) pixels differ from the exact renderer in \(box)")
        // The motion frame was the nearest pixel: many pixels differ from the rest frame.
        let (r, _, _, _) = Self.pixels(reference)
        var changed = 0
        for y in 0..<h {
            for x in 0..<w where motion[y * w + x] != r[y * stride + x] & 0xFF_FFFF { changed += 1 }
        }
        #expect(changed * 20 > w * h, "only \(changed) pixels of the motion frame differ from the rest frame")
    }
}
