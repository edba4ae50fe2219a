/// Zooming: the scale of the delegate's zooming view, by pinch, double tap or code.
extension ScrollView {
    /// The view that zooms (the delegate's ``ScrollViewDelegate/viewForZooming(in:)``), when
    /// zooming is on: it must be a subview, and the limits must leave room to zoom.
    var zoomView: View? {
        guard let v = delegate?.viewForZooming(in: self), v.superview === self else { return nil }
        return v
    }

    /// UIKit: `zoomScale` (default 1). Setting it is ``setZoomScale(_:animated:)`` unanimated.
    public var zoomScale: Double {
        get { scale }
        set { setZoomScale(newValue, animated: false) }
    }

    /// UIKit: `setZoomScale(_:animated:)`: stops any motion and zooms to `scale`, held within
    /// the limits, about the centre of the view; the offset is then held within its limits.
    /// Without a zooming view it does nothing.
    public func setZoomScale(_ scale: Double, animated: Bool) {
        guard scale.isFinite, scale > 0, zoomView != nil else { return }
        let s = min(max(scale, minimumZoomScale), maximumZoomScale)
        let centre = Vector(dx: bounds.width / 2, dy: bounds.height / 2)
        let offset = anchoredOffset(content: (contentOffset + centre), from: self.scale, to: s, at: centre)
        zoom(toScale: s, offset: offset, animated: animated)
    }

    /// UIKit: `zoom(to:animated:)`: zooms so that `rect` (in the zooming view's coordinates)
    /// fills the view as far as the limits allow, centred.
    public func zoom(to rect: Rect, animated: Bool) {
        guard zoomView != nil, rect.width > 0, rect.height > 0, rect.origin.isFinite else { return }
        var s = min(bounds.width / rect.width, bounds.height / rect.height)
        s = min(max(s, minimumZoomScale), maximumZoomScale)
        guard s.isFinite, s > 0 else { return }
        let offset = Point(x: rect.midX * s - bounds.width / 2, y: rect.midY * s - bounds.height / 2)
        zoom(toScale: s, offset: offset, animated: animated)
    }

    /// Zooms to `s` with the offset held within the limits at that scale.
    private func zoom(toScale s: Double, offset: Point, animated: Bool) {
        stopMotion()
        let target = offsetClamped(offset, atScale: s)
        let t = ZoomTransition(
            fromScale: scale, toScale: s, fromOffset: contentOffset, toOffset: target,
            curve: .easeOut(duration: animated ? ScrollMotion.animationDuration : 0))
        if animated {
            start(.transition(t, endsZoom: true))
        } else {
            place(scale: s, offset: target)
        }
    }

    /// The offset that keeps the content point `content` (content coordinates at scale `a`) at
    /// the view point `at` (from the view's top-left) at scale `b`.
    private func anchoredOffset(content: Point, from a: Double, to b: Double, at: Vector) -> Point {
        let f = a > 0 ? b / a : 1
        return Point(x: content.x * f - at.dx, y: content.y * f - at.dy)
    }

    /// `offset` held within the limits the content will have at scale `s`.
    private func offsetClamped(_ offset: Point, atScale s: Double) -> Point {
        guard let v = zoomView else { return offset }
        let kept = contentSize
        contentSize = Size(width: v.bounds.width * s, height: v.bounds.height * s)
        defer { contentSize = kept }
        return clamped(offset)
    }

    /// Scales the zooming view to `s` (its frame at the content's origin, the content size its
    /// scaled size) and sets the offset; tells the delegate of the zoom, then of the scroll.
    func place(scale s: Double, offset: Point) {
        guard s.isFinite, s > 0 else { return }
        if let v = zoomView {
            let size = v.bounds.size
            let zoomed = s != scale
            scale = s
            if v.transform != AffineTransform(scaleX: s, y: s) { v.transform = AffineTransform(scaleX: s, y: s) }
            let centre = Point(x: size.width * s / 2, y: size.height * s / 2)
            if v.center != centre { v.center = centre }
            contentSize = Size(width: size.width * s, height: size.height * s)
            if zoomed { delegate?.scrollViewDidZoom(self) }
        }
        contentOffset = offset
    }

    // MARK: Pinch

    func pinched(_ pinch: PinchGestureRecognizer) {
        adoptScheduler(of: pinch)
        guard let v = zoomView, minimumZoomScale < maximumZoomScale else { return }
        switch pinch.state {
        case .began:
            stopMotion()
            isZooming = true
            pinchStartScale = scale
            pinchBands = bouncesZoom && !pinch.touchpadActive
            pinchAnchor = pinch.location(in: v)
            delegate?.scrollViewWillBeginZooming(self, with: v)
            followPinch(pinch)
        case .changed:
            followPinch(pinch)
        case .ended, .cancelled:
            followPinch(pinch)
            isZooming = false
            dragNeedsStart = true
            settleZoom(at: pinch.location(in: self) - contentOffset)
        default:
            break
        }
    }

    /// The zooming view's anchor point stays under the fingers, at the pinch's scale (on the
    /// rubber band past the limits for fingers; held at them for a touchpad or Ctrl+wheel).
    private func followPinch(_ pinch: PinchGestureRecognizer) {
        let raw = pinchStartScale * pinch.scale
        guard raw.isFinite, raw > 0 else { return }
        let s =
            pinchBands
            ? ScrollPhysics.rubberBandScale(raw, minimum: minimumZoomScale, maximum: maximumZoomScale)
            : min(max(raw, minimumZoomScale), maximumZoomScale)
        let at = pinch.location(in: self) - contentOffset
        place(scale: s, offset: Point(x: pinchAnchor.x * s - at.dx, y: pinchAnchor.y * s - at.dy))
    }

    /// After a pinch: back within the zoom limits and the offset's, on the spring, about the
    /// view point `at`; the delegate hears ``ScrollViewDelegate/scrollViewDidEndZooming(_:with:atScale:)``
    /// once it rests.
    private func settleZoom(at: Vector) {
        let s = min(max(scale, minimumZoomScale), maximumZoomScale)
        let offset = offsetClamped(
            anchoredOffset(content: contentOffset + at, from: scale, to: s, at: at), atScale: s)
        guard s != scale || offset != contentOffset else {
            delegate?.scrollViewDidEndZooming(self, with: zoomView, atScale: scale)
            return
        }
        let t = ZoomTransition(
            fromScale: scale, toScale: s, fromOffset: contentOffset, toOffset: offset, curve: .spring)
        start(.transition(t, endsZoom: true))
    }

    // MARK: Double tap

    func doubleTapped(_ tap: TapGestureRecognizer) {
        adoptScheduler(of: tap)
        guard tap.state == .ended, let v = zoomView, minimumZoomScale < maximumZoomScale else { return }
        let zoomedIn = scale > minimumZoomScale * (1 + 1e-9)
        let target = zoomedIn ? minimumZoomScale : (doubleTapZoomScale ?? maximumZoomScale)
        let p = tap.location(in: v)
        let size = Size(width: bounds.width / target, height: bounds.height / target)
        let rect = Rect(x: p.x - size.width / 2, y: p.y - size.height / 2, width: size.width, height: size.height)
        zoom(to: rect, animated: true)
    }
}
