/// Input that is not touch frames: touchpad pinches (XI 2.4) and shakes. Same instants as touch
/// frames (timers before, housekeeping and timers after); the arena decides as for touches.
extension TouchDispatcher {
    /// A touchpad pinch event (XI 2.4): at `begin` it goes to the pinch and rotation recognizers
    /// of the view under the pointer and its ancestors that are not tracking touches.
    public func handle(_ event: TouchpadPinch) {
        let t = beginInstant(event.timestamp)
        var e = event
        e.timestamp = t
        deliver(e)
        endInstant(t)
    }

    /// A touchpad pinch event inside an instant (also a scroll-zoom's, synthesized).
    func deliver(_ e: TouchpadPinch) {
        if e.phase == .begin {
            for r in touchpadRecognizers where r.touchpadActive {
                // A begin without an end: finish the previous gesture first (a recognizer that
                // already failed or was recognized in it has nothing to finish).
                var end = e
                end.phase = .cancel
                if r.acceptsInput { r.touchpadPinch(end) }
                r.touchpadActive = false
            }
            touchpadRecognizers.removeAll()
            housekeeping()
            guard e.location.isFinite else { return }
            let serial = nextSerial()
            var v = root.hitTest(e.location.applying(root.localToSuperview.inverted()))
            while let view = v {
                for r in view.gestureRecognizers
                where r.isEnabled && r.acceptsTouchpadPinch && r.touches.isEmpty && r.stateStorage == .possible {
                    r.touchpadActive = true
                    r.touchpadLocation = e.location
                    touchpadRecognizers.append(r)
                    involve(r)
                    arena.claim(serial, for: r)
                }
                v = view.superview
            }
        }
        for r in touchpadRecognizers where r.touchpadActive {
            if e.location.isFinite { r.touchpadLocation = e.location }
            if r.acceptsInput { r.touchpadPinch(e) }
        }
        if e.phase == .end || e.phase == .cancel {
            needsHousekeeping = true
            for r in touchpadRecognizers { r.touchpadActive = false }
            touchpadRecognizers.removeAll()
        }
    }

    /// A shake: every enabled shake recognizer in the tree recognizes. UIKit:
    /// `motionEnded(.motionShake, with:)`.
    public func handleShake(at timestamp: Double) {
        let t = beginInstant(timestamp)
        var stack = [root]
        var found: [GestureRecognizer] = []
        while let v = stack.popLast() {
            for r in v.gestureRecognizers where r.kind == .shake && r.isEnabled { found.append(r) }
            stack.append(contentsOf: v.subviews.reversed())
        }
        for r in found {
            involve(r)
            r.state = .ended
        }
        endInstant(t)
    }
}
