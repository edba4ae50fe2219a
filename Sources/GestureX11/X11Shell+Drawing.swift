import CCairo
import GestureKit

/// Drawing: a frame when one is wanted and the pacer allows it, exposed parts uploaded again,
/// screenshots, and the ready report after the first frame.
extension X11Shell {
    // MARK: Drawing

    /// Draws and presents a frame when one is wanted and allowed now (see the type's timing
    /// rules); uploads exposed parts otherwise. Returns whether a frame was drawn.
    @discardableResult
    func drawIfNeeded(now: Double) -> Bool {
        guard everExposed else { return false }
        var drew = false
        if frameWanted && !presenter.isBusy && pacer.mayDraw(now: now) {
            drawFrame(now: now)
            drew = true
        } else if let r = exposedRect, presenter.surface != nil {
            presenter.present([r], now: now)
        } else if presenter.surface == nil && !presenter.isBusy {
            drawFrame(now: now)
            drew = true
        }
        exposedRect = nil
        if !pendingScreenshots.isEmpty, let surface = presenter.surface, !frameWanted {
            cairo_surface_flush(surface)
            for path in pendingScreenshots where cairo_surface_write_to_png(surface, path) != CAIRO_STATUS_SUCCESS {
                writeStderr("gestures: cannot write the screenshot \(path)")
            }
            pendingScreenshots.removeAll()
        }
        if drew && !isReady {
            isReady = true
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
            let t = max(clock.now(), lastFed)
            onReady?(
                ShellReady(
                    time: t, window: window, size: size, scale: scale, xinputVersion: xinputVersion,
                    inputBatchInterval: batchHold, pacing: pacer.mode == .present ? "present" : "deadline",
                    frameInterval: pacer.interval))
            watchdog?.ready(now: t)
            replay?.begin(at: t)
        }
        return drew
    }

    func drawFrame(now: Double) {
        let overlay = currentOverlay
        let full = presenter.resize(width: pixelSize.width, height: pixelSize.height) || forceRedraw
        guard let surface = presenter.surface else { return }
        var extra: [PixelRect] = []
        if let e = exposedRect { extra.append(e) }
        let rects = DamageDrawing.draw(
            scene, into: surface, scale: scale, overlay: overlay, drawnOverlay: drawnOverlay,
            showTouches: options.showTouches, full: full, extra: extra)
        drawnOverlay = overlay
        forceRedraw = false
        presenter.present(rects, now: now)
        pacer.framePresented(now: now)
    }

    func point(_ x: Double, _ y: Double) -> Point {
        Point(x: quantize(x / scale), y: quantize(y / scale))
    }

    /// A window size in pixels, in points.
    func pointSize(width: Int, height: Int) -> Size {
        Size(width: quantize(Double(width) / scale), height: quantize(Double(height) / scale))
    }
}
