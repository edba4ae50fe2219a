import CCairo
import GestureKit

/// Drawing: a frame when one is wanted and the pacer allows it, exposed parts uploaded again,
/// screenshots, and the ready report after the first frame.
extension X11Shell {
    // MARK: Drawing

    /// Draws and presents a frame when one is wanted and allowed now (see the type's timing
    /// rules); the first frame at once. Returns whether a frame was drawn.
    @discardableResult
    func drawIfNeeded(now: Double) -> Bool {
        guard windowState.lifecycle.hasBeenExposed else { return false }
        var drew = false
        if !drawing.presenter.isBusy
            && (!drawing.presenter.hasFrame || (frameWanted && drawing.pacer.mayDraw(now: now)))
        {
            drawFrame(now: now)
            drew = true
        }
        if !drawing.pendingScreenshots.isEmpty, drawing.presenter.hasFrame, !frameWanted {
            for path in drawing.pendingScreenshots where !writeWindowPicture(to: path) {
                writeStderr("gestures: cannot write the screenshot \(path)")
            }
            drawing.pendingScreenshots.removeAll()
        }
        if drew && windowState.lifecycle.framePresented() {
            x.sync()
            // After the first frame, so that its connect and round trips are not on the way to it.
            if xinputVersion >= 2.2 && options.inputBatchInterval > 0 {
                wake = WakeConnection(display: options.display, window: xid)
            }
            // The icon too: decoding it is not on the way to the first frame (window managers
            // and taskbars follow the property when it changes).
            if let icon = options.icon ?? iconProvider?() {
                x.setProperty(xid, x.atom("_NET_WM_ICON"), type: PredefinedAtom.cardinal, words: icon.cardinals)
            }
            iconProvider = nil
            let t = max(clock.now(), input.lastFed)
            onReady?(
                ShellReady(
                    time: t, window: window, size: size, scale: scale, xinputVersion: xinputVersion,
                    inputBatchInterval: batchHold, pacing: drawing.pacer.mode == .present ? "present" : "deadline",
                    frameInterval: drawing.pacer.interval))
            kiosk.watchdog?.ready(now: t)
            playback.player?.begin(at: t)
        }
        return drew
    }

    /// Draws what changed (everything after a resize or a ``forceRedraw``, and the parts the
    /// server exposed) and presents it.
    func drawFrame(now: Double) {
        let overlay = currentOverlay
        let full =
            drawing.presenter.resize(width: windowState.pixelSize.width, height: windowState.pixelSize.height)
            || drawing.forceRedraw
        let bounds = PixelRect(x: 0, y: 0, width: drawing.presenter.width, height: drawing.presenter.height)
        let rects = DamageDrawing.rects(
            for: scene, bounds: bounds, scale: scale, overlay: overlay, drawnOverlay: drawing.drawnOverlay, full: full,
            extra: drawing.exposedRect.map { [$0] } ?? [])
        let scene: ShellScene = self.scene
        let scale = self.scale
        let showTouches = options.showTouches
        if !drawResampled(rects, full: full, overlay: overlay, now: now) {
            drawing.render?.release()
            // Exposures (after a resize, another window moved away) are rare: drawn in bands when
            // they do not fit, they never grow the buffer.
            drawing.presenter.draw(rects, full: full || drawing.exposedRect != nil, now: now) { cr in
                DamageDrawing.paint(scene, into: cr, scale: scale, overlay: overlay, showTouches: showTouches)
            }
            drawing.lastFrame = FrameReport(clientPixels: rects.reduce(0) { $0 + $1.area }, serverResampled: false)
        }
        drawing.drawnOverlay = overlay
        onFramePresented?(rects)
        drawing.forceRedraw = false
        drawing.exposedRect = nil
        drawing.pacer.framePresented(now: now)
    }

    /// How the last frame was drawn: the pixels the client drew, whether the X server resampled
    /// the picture.
    public var lastFrame: FrameReport { drawing.lastFrame }

    /// Writes the window's picture as a PNG: the scene as last presented, drawn whole into an
    /// image of the window's pixel size (the window keeps no client-side copy; see
    /// ``Presenter``). Only between frames (`!frameWanted`): drawing again then changes nothing
    /// the scene tracks.
    func writeWindowPicture(to path: String) -> Bool {
        guard
            let surface = cairo_image_surface_create(
                CAIRO_FORMAT_RGB24, Int32(drawing.presenter.width), Int32(drawing.presenter.height))
        else { return false }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return false }
        _ = DamageDrawing.draw(
            scene, into: surface, scale: scale, overlay: drawing.drawnOverlay, drawnOverlay: drawing.drawnOverlay,
            showTouches: options.showTouches, full: true)
        return cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS
    }

    func point(_ x: Double, _ y: Double) -> Point {
        Point(x: quantize(x / scale), y: quantize(y / scale))
    }

    /// A window size in pixels, in points.
    func pointSize(width: Int, height: Int) -> Size {
        Size(width: quantize(Double(width) / scale), height: quantize(Double(height) / scale))
    }
}
