import CCairo
import CPixelSpan
import Foundation
import GestureKit
import GestureShellCore
import GestureTestSupport
import Testing

@testable import GesturesDemo

/// The regions' fill composited in the moving picture's own pass (`gestures_tint_span`, the
/// painter's tints) writes the pixels Cairo's fill writes.
@MainActor
@Suite("Region tints in the picture's pass")
struct RegionTintTests {
    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["REGION_TINT_SEED"], let s = UInt64(text) { return s }
        return UInt64.random(in: 0..<1_000_000_000)
    }()

    @Test("a tinted span equals Cairo's fill of a whole-pixel rectangle, colour by colour")
    func tintSpanEqualsCairo() {
        print("RegionTintTests seed \(Self.seed) (replay: REGION_TINT_SEED=\(Self.seed))")
        var random = SplitMix64(seed: Self.seed)
        let width = 301
        var mismatches = 0
        var colours = [(DemoRenderer.Color, Double)]()
        for c in [DemoRenderer.tapColor, DemoRenderer.swipeColor, DemoRenderer.pinchColor, DemoRenderer.rotateColor] {
            colours.append((c, DemoRenderer.regionAlpha))
        }
        for _ in 0..<60 {
            let c = DemoRenderer.Color(
                Double.random(in: 0...1, using: &random), Double.random(in: 0...1, using: &random),
                Double.random(in: 0...1, using: &random))
            colours.append((c, Double.random(in: 0...1, using: &random)))
        }
        for (colour, alpha) in colours {
            let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), 2)!
            defer { cairo_surface_destroy(s) }
            cairo_surface_flush(s)
            let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(s)!).assumingMemoryBound(to: UInt32.self)
            let stride = Int(cairo_image_surface_get_stride(s)) / 4
            for x in 0..<width {
                let p = UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000
                data[x] = p
                data[stride + x] = p
            }
            cairo_surface_mark_dirty(s)
            let cr = cairo_create(s)!
            cairo_rectangle(cr, 0, 0, Double(width), 1)
            cairo_set_source_rgba(cr, colour.r, colour.g, colour.b, alpha)
            cairo_fill(cr)
            cairo_destroy(cr)
            cairo_surface_flush(s)
            gestures_tint_span(data + stride, width, DemoRenderer.solidPixel(colour, alpha: alpha))
            for x in 0..<width where data[x] | 0xFF00_0000 != data[stride + x] { mismatches += 1 }
        }
        #expect(mismatches == 0, "seed \(Self.seed)")
    }

    /// A two-finger spread about the picture's centre, turned by `turn` radians over its course,
    /// stopped before the fingers lift (the picture moves, enlarged).
    static func movingFrame(turn: Double, fused: Bool) throws -> [UInt32] {
        let image = try DemoImage(path: repositoryRoot + "/Resources/flower.png")
        let size = Size(width: 1280, height: 800)
        let scene = DemoScene(size: size, image: image)
        scene.resize(to: size, at: 0)
        scene.imageCache = ScaledImageCache()
        let c = scene.layout.image.center
        func finger(_ sign: Double) -> (Double) -> Point {
            { t in
                let r = 40 + 260 * t
                let a = turn * t
                return Point(x: c.x + sign * r * cos(a), y: c.y + sign * r * sin(a))
            }
        }
        let events = stroke(start: 0.1, steps: 20, dt: 0.016, [finger(-1), finger(1)])
        for e in events.prefix(18) { scene.handle(e) }
        #expect(!scene.imageSettled)
        let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(size.width), Int32(size.height))!
        defer { cairo_surface_destroy(s) }
        let cr = cairo_create(s)!
        DemoRenderer.fusesRegionTints = fused
        defer { DemoRenderer.fusesRegionTints = true }
        DemoRenderer.draw(scene, into: cr, overlay: [], showTouches: false)
        cairo_destroy(cr)
        #expect(scene.imageCache?.tintsApplied == fused, "the regions went in the picture's pass: \(fused)")
        cairo_surface_flush(s)
        let data = UnsafeRawPointer(cairo_image_surface_get_data(s)!).assumingMemoryBound(to: UInt32.self)
        let stride = Int(cairo_image_surface_get_stride(s)) / 4
        var out: [UInt32] = []
        for y in 0..<Int(size.height) {
            for x in 0..<Int(size.width) { out.append(data[y * stride + x] | 0xFF00_0000) }
        }
        return out
    }

    @Test(
        "a moving, enlarged picture's frame is the same with the regions in its pass as with Cairo's fill",
        arguments: [0.0, 0.6])
    func frameUnchanged(turn: Double) throws {
        let fused = try Self.movingFrame(turn: turn, fused: true)
        let cairo = try Self.movingFrame(turn: turn, fused: false)
        let differ = zip(fused, cairo).filter { $0 != $1 }.count
        #expect(differ == 0, "\(differ) of \(fused.count) pixels differ")
        // The regions are over the picture: the frame has tinted picture pixels to compare.
        #expect(Set(fused).count > 1000)
    }
}
