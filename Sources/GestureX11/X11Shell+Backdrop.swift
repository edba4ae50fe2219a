import CCairo
import CXCB
import GestureKit
import GestureShellCore

/// A frame whose picture the X server resamples (``RenderBackdrop``, ``ServerBackdrop``).
extension X11Shell {
    /// Draws the frame through RENDER when the scene offers a backdrop for it and the server can
    /// take it: what lies above the picture is drawn by the client where it changed (the whole
    /// extent when the overlay pixmap is new or the last frame was the client's) and uploaded to
    /// the overlay pixmap; the rest is the server's. False, having drawn nothing, otherwise.
    func drawResampled(_ rects: [PixelRect], full: Bool, overlay: [Point], now: Double) -> Bool {
        guard let render = drawing.render, let scene = scene as? ServerBackdropScene,
            let backdrop = scene.serverBackdrop(scale: scale), RenderBackdrop.fits(backdrop),
            let transform = RenderBackdrop.transform(for: backdrop)
        else { return false }
        let presenter = drawing.presenter!
        let bounds = PixelRect(x: 0, y: 0, width: presenter.width, height: presenter.height)
        let size = Size(width: Double(bounds.width) / scale, height: Double(bounds.height) / scale)
        let scale = self.scale
        func pixels(_ r: [Rect]) -> [PixelRect] { r.map { DamageDrawing.pixelRect($0, scale: scale, bounds: bounds) } }
        let extent = DamageDrawing.merged(
            pixels(scene.overlayExtent + overlay.map { DamageDrawing.touchBox($0, in: size) }), limit: .max)
        let target = render.overlayTarget(width: bounds.width, height: bounds.height)
        var changed: [PixelRect]
        if !full, render.overlayCurrent, let damage = scene.overlayDamage {
            changed = pixels(damage)
            if overlay != drawing.drawnOverlay {
                changed += pixels((overlay + drawing.drawnOverlay).map { DamageDrawing.touchBox($0, in: size) })
            }
            changed = DamageDrawing.merged(changed, limit: 6)
        } else {
            changed = extent
        }
        let showTouches = options.showTouches
        // Uploads larger than the buffer go in bands (`full`): the buffer does not grow to the
        // window's size for them.
        presenter.draw(changed, full: true, now: now, into: target) { cr in
            if scale != 1 { cairo_scale(cr, scale, scale) }
            scene.drawOverlay(into: cr, overlay: overlay, showTouches: showTouches)
        }
        render.overlayUploaded()
        let sequence = render.compose(backdrop, transform: transform, damage: rects, extent: extent)
        presenter.alsoSent(through: sequence, now: now)
        let drawn = changed.map { $0.intersection(bounds) }.reduce(0) { $0 + $1.area }
        drawing.lastFrame = FrameReport(clientPixels: drawn, serverResampled: true)
        return true
    }
}
