/// Scroll input (wheel clicks, XI 2.1 smooth scroll) and scroll-zoom (the same with Ctrl).
extension TouchDispatcher {
    /// A scroll sequence (or a scroll-zoom) ends this long after its last event: X reports no
    /// end of a wheel turn or of a smooth scroll. 0.15 s: longer than the gap between the clicks
    /// of a wheel turned on purpose, short enough that the pan's `ended` follows the hand.
    public static let scrollEndDelay = 0.15

    /// A scroll event. Plain: at the first event of a sequence it goes to the pan recognizers of
    /// the view under the pointer and its ancestors whose
    /// ``PanGestureRecognizer/allowedScrollTypesMask`` allows its type and that track no touches
    /// (UIKit: `UIPanGestureRecognizer.allowedScrollTypesMask`); they begin at the first event
    /// that moves, change with each, and end ``scrollEndDelay`` after the last. A change of
    /// type ends the sequence and starts another. With `zoom`: a touchpad pinch about the
    /// pointer (begin, then an update per event with the scale multiplied by
    /// ``ScrollInput/zoomFactor``, end after ``scrollEndDelay``), as XI 2.4 pinches arrive.
    public func handle(_ event: ScrollInput) {
        let t = beginInstant(event.timestamp)
        guard event.location.isFinite, event.delta.dx.isFinite, event.delta.dy.isFinite else {
            endInstant(t)
            return
        }
        if event.zoom {
            scrollZoom(event, at: t)
        } else {
            scroll(event, at: t)
        }
        endInstant(t)
    }

    private func scroll(_ e: ScrollInput, at t: Double) {
        if let first = scrollRecognizers.first, first.scrollType != e.type { endScroll(cancelled: false) }
        if scrollEnd == nil {
            let serial = nextSerial()
            var v = root.hitTest(e.location.applying(root.localToSuperview.inverted()))
            while let view = v {
                for case let r as PanGestureRecognizer in view.gestureRecognizers
                where r.isEnabled && r.allowedScrollTypesMask.contains(e.type) && r.touches.isEmpty
                    && !r.touchpadActive && r.stateStorage == .possible
                {
                    r.touchpadActive = true
                    r.touchpadLocation = e.location
                    r.scrollBegan(type: e.type)
                    scrollRecognizers.append(r)
                    involve(r)
                    arena.claim(serial, for: r)
                }
                v = view.superview
            }
        }
        for r in scrollRecognizers where r.touchpadActive {
            r.touchpadLocation = e.location
            if r.acceptsInput { r.scrolled(by: e.delta) }
        }
        scheduler.cancel(scrollEnd)
        scrollEnd = scheduler.schedule(at: t + Self.scrollEndDelay) { [unowned self] in
            self.scrollEnd = nil
            self.endScroll(cancelled: false)
        }
    }

    /// Ends the scroll sequence: its pans end (or fail if they never began).
    func endScroll(cancelled: Bool) {
        scheduler.cancel(scrollEnd)
        scrollEnd = nil
        let list = scrollRecognizers
        scrollRecognizers.removeAll()
        for r in list where r.touchpadActive {
            if r.acceptsInput { r.scrollEnded(cancelled: cancelled) }
            r.touchpadActive = false
        }
        needsHousekeeping = true
    }

    private func scrollZoom(_ e: ScrollInput, at t: Double) {
        if scrollZoomScale == nil {
            scrollZoomScale = 1
            deliver(TouchpadPinch(timestamp: t, phase: .begin, location: e.location))
        }
        let s = (scrollZoomScale ?? 1) * e.zoomFactor
        scrollZoomScale = s
        deliver(TouchpadPinch(timestamp: t, phase: .update, location: e.location, scale: s))
        scheduler.cancel(scrollZoomEnd)
        let location = e.location
        scrollZoomEnd = scheduler.schedule(at: t + Self.scrollEndDelay) { [unowned self] in
            let scale = self.scrollZoomScale ?? 1
            self.scrollZoomEnd = nil
            self.scrollZoomScale = nil
            self.deliver(TouchpadPinch(timestamp: self.now, phase: .end, location: location, scale: scale))
        }
    }
}
