import CCairo
import GestureKit
import GestureTestSupport
import GestureX11
import Testing

@testable import GesturesDemo

/// The shell draws only what the scene says changed (``ShellScene/damage``). Each case drives
/// the demo scene through changes and, after each one, checks that a frame drawn only in the
/// damaged rectangles over the previous frame is pixel-identical to a frame drawn whole.
@MainActor
@Suite("Damage: an incremental frame equals a whole frame")
struct DamageTests {
    /// A step: input for the scene and the simulated fingers drawn with the frame.
    struct Step {
        var events: [InputEvent] = []
        var commands: [KeyCommand] = []
        var overlay: [Point] = []
    }

    static let image = try? DemoImage(path: repositoryRoot + "/Resources/flower.png")

    /// The steps before this one change small parts of the window (checked: less than a third
    /// drawn); later ones make the image large.
    static let partialSteps = 16

    static func steps() -> [Step] {
        let imageCentre = Point(x: 512, y: 584)
        let pinchCentre = Point(x: 276, y: 326)
        var steps: [Step] = []
        // A pan of the image in 8 frames, one step per frame.
        let pan = stroke(start: 1, steps: 8, [lerp(imageCentre, Point(x: 640, y: 520))])
        for e in pan { steps.append(Step(events: [e])) }
        // Key commands: shrink a lot, rotate, move (the image drawn downscaled and rotated).
        steps.append(Step(commands: Array(repeating: .scaleDown, count: 6)))
        steps.append(Step(commands: [.rotateClockwise, .rotateClockwise]))
        steps.append(Step(commands: [.move(dx: -40, dy: 25)]))
        // Simulated fingers appear, move and disappear.
        steps.append(Step(overlay: [Point(x: 300, y: 300), Point(x: 700, y: 500)]))
        steps.append(Step(overlay: [Point(x: 320, y: 310), Point(x: 680, y: 490)]))
        steps.append(Step(overlay: []))
        // A tap: only the label changes.
        steps.append(
            Step(events: [frame(5, Finger.down(9, 270, 160)), frame(5.05, Finger.up(9, 270, 160))]))
        // A two-finger spread in the pinch region: the label and the image change together.
        let spread = stroke(
            start: 3, steps: 6,
            [
                lerp(Point(x: pinchCentre.x - 20, y: pinchCentre.y), Point(x: pinchCentre.x - 80, y: pinchCentre.y)),
                lerp(Point(x: pinchCentre.x + 20, y: pinchCentre.y), Point(x: pinchCentre.x + 80, y: pinchCentre.y)),
            ])
        for e in spread { steps.append(Step(events: [e])) }
        steps.append(Step(commands: Array(repeating: .scaleUp, count: 12)))
        steps.append(Step(commands: [.shake]))
        return steps
    }

    @Test(
        "Incremental frames match whole frames",
        arguments: [
            (1.0, false, false), (1.5, false, false), (1.0, true, false), (1.0, false, true), (1.5, true, true),
        ])
    func incrementalMatchesWhole(scale: Double, showTouches: Bool, cached: Bool) throws {
        let size = Size(width: 1024, height: 768)
        // The whole frames come from a twin scene fed the same input, so that with a picture
        // cache both make the same choices (a copy is made when the scale settles).
        let scene = DemoScene(size: size, image: Self.image)
        let twin = DemoScene(size: size, image: Self.image)
        if cached {
            scene.imageCache = ScaledImageCache()
            twin.imageCache = ScaledImageCache()
        }
        let w = Int32((size.width * scale).rounded())
        let h = Int32((size.height * scale).rounded())
        let live = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h)!
        let whole = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h)!
        defer {
            cairo_surface_destroy(live)
            cairo_surface_destroy(whole)
        }
        var drawnOverlay: [Point] = []
        for (s, surface) in [(scene, live), (twin, whole)] {
            _ = DamageDrawing.draw(
                s, into: surface, scale: scale, overlay: [], drawnOverlay: [], showTouches: showTouches, full: true)
        }
        var time = 0.0
        for (i, step) in Self.steps().enumerated() {
            for e in step.events {
                time = max(time, e.timestamp)
                scene.handle(e)
                twin.handle(e)
            }
            for c in step.commands {
                time += 0.1
                scene.perform(c, at: time)
                twin.perform(c, at: time)
            }
            // The scenes' timers (the picture cache's settle delay), as the shell runs them.
            if let d = scene.nextDeadline, d <= time {
                scene.advance(to: time)
                twin.advance(to: time)
            }
            let rects = DamageDrawing.draw(
                scene, into: live, scale: scale, overlay: step.overlay, drawnOverlay: drawnOverlay,
                showTouches: showTouches, full: false)
            drawnOverlay = step.overlay
            // The whole frame starts from magenta: a pixel the renderer leaves unpainted (the
            // background is not painted under the opaque picture copy) shows.
            let c = cairo_create(whole)!
            cairo_set_source_rgb(c, 1, 0, 1)
            cairo_paint(c)
            cairo_destroy(c)
            _ = DamageDrawing.draw(
                twin, into: whole, scale: scale, overlay: step.overlay, drawnOverlay: [], showTouches: showTouches,
                full: true)
            let (differing, box) = Self.differingPixels(live, whole)
            #expect(differing == 0, "step \(i): \(differing) pixels differ in \(box) after drawing \(rects)")
            if i < Self.partialSteps {
                let area = rects.reduce(0) { $0 + $1.area }
                #expect(area < Int(w) * Int(h) / 3, "step \(i): \(area) pixels drawn")
            }
        }
        if cached {
            #expect(
                (scene.imageCache?.builds ?? 0) >= 3, "the picture copy was made \(scene.imageCache?.builds ?? 0) times"
            )
        }
    }

    /// Pixman composites a transformed image through a clip with its own rounding: the same
    /// pixel can come out up to 2/255 apart per channel with and without the clip (measured:
    /// 114 pixels of the downscaled, rotated flower, all within 2). A missed damage differs by
    /// far more (a whole edge of the flower or a glyph).
    static let tolerance = 2

    /// The number of pixels differing by more than ``tolerance`` in a channel, and their box.
    static func differingPixels(_ a: OpaquePointer, _ b: OpaquePointer) -> (Int, PixelRect) {
        cairo_surface_flush(a)
        cairo_surface_flush(b)
        let h = Int(cairo_image_surface_get_height(a))
        let stride = Int(cairo_image_surface_get_stride(a))
        let w = Int(cairo_image_surface_get_width(a))
        var box = PixelRect(x: 0, y: 0, width: 0, height: 0)
        guard let pa = cairo_image_surface_get_data(a), let pb = cairo_image_surface_get_data(b) else {
            return (-1, box)
        }
        var count = 0
        for y in 0..<h {
            let ra = UnsafeRawPointer(pa + y * stride).assumingMemoryBound(to: UInt32.self)
            let rb = UnsafeRawPointer(pb + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w where ra[x] & 0xFF_FFFF != rb[x] & 0xFF_FFFF {
                var d = 0
                for shift: UInt32 in [0, 8, 16] {
                    d = max(d, abs(Int((ra[x] >> shift) & 0xFF) - Int((rb[x] >> shift) & 0xFF)))
                }
                guard d > tolerance else { continue }
                count += 1
                box = box.union(PixelRect(x: x, y: y, width: 1, height: 1))
            }
        }
        return (count, box)
    }
}
