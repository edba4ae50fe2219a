import CCairo
import GestureKit
import GestureShellCore

/// The demo scene's motion frames drawn by the X server: while a pinch moves the picture
/// enlarged (``ScaledImageCache/fillsClip(matrix:settled:)``: the nearest pixel, the background
/// around it), the picture composited over the background is the frame's lowest layer, and the
/// regions, the label and the touch points are drawn over it by the shell. Settled frames, the
/// kiosk's frames around its PIN pad (``KioskDirector`` passes the rest on), screenshots and
/// `gestures replay --png` are drawn whole by ``DemoRenderer``.
extension DemoScene: ServerBackdropScene {
    public func serverBackdrop(scale: Double) -> ServerBackdrop? {
        DemoRenderer.backdrop(self, scale: scale)
    }

    /// The regions, the label's rect and the touch points drawn by the last frame.
    public var overlayExtent: [Rect] {
        let l = layout
        var rects = [l.tap, l.swipe, l.pinch, l.rotate, l.label]
        if touchesDrawn {
            let r = max(6, min(l.size.width, l.size.height) * 0.025) + 2
            for p in touchLocations where p.isFinite {
                rects.append(Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
            }
        }
        return rects
    }

    public func drawOverlay(into cairo: OpaquePointer, overlay: [Point], showTouches: Bool) {
        DemoRenderer.draw(self, into: cairo, overlay: overlay, showTouches: showTouches, aboveImageOnly: true)
        noteDrawn(showTouches: showTouches)
    }
}

extension DemoRenderer {
    /// The scene's picture as a ``ServerBackdrop`` for the next frame at `scale` window pixels
    /// per point: only while it moves enlarged without a copy (what ``NearestPainter`` draws in
    /// the client), from the source composited over the background that the cache keeps.
    static func backdrop(_ scene: DemoScene, scale: Double) -> ServerBackdrop? {
        // A settled picture (a drag at its scale) is drawn from its copy: nothing to ask.
        guard let cache = scene.imageCache, !scene.imageSettled, scale.isFinite, scale > 0 else { return nil }
        let cr = measuring
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_identity_matrix(cr)
        cairo_scale(cr, scale, scale)
        guard let p = imagePixels(scene, cr), cache.fillsClip(matrix: p.device, settled: scene.imageSettled),
            let source = cache.serverSource(
                p.surface, width: p.width, height: p.height, background: (background.r, background.g, background.b)),
            let data = cairo_image_surface_get_data(source.surface)
        else { return nil }
        let m = p.device
        return ServerBackdrop(
            pixels: UnsafeRawPointer(data), width: p.width, height: p.height,
            stride: Int(cairo_image_surface_get_stride(source.surface)), identity: source.identity,
            background: source.background, xx: m.xx, yx: m.yx, xy: m.xy, yy: m.yy, x0: m.x0, y0: m.y0)
    }
}
