import GestureKit

/// What went down in one of the four regions since its last touch-down with nothing down: the
/// first finger's start, time and last place, and the most fingers down at once.
struct RegionStroke {
    var ids: Set<Int> = []
    var first: Int?
    var start = Point.zero
    var startTime = 0.0
    var last = Point.zero
    var maxDown = 0
    /// The region's recognizers that failed in this stroke (by identity).
    var failed: Set<ObjectIdentifier> = []
}

/// Feedback when a gesture fails in a region: the tutorial says nothing when a
/// swipe is too slow; the demo names what to change. The success strings are untouched; a hint
/// replaces the label only when every recognizer of the region failed for that stroke (so a
/// swipe right, whose three siblings fail, says "Swiped right").
///
/// | region | failed because | label |
/// |---|---|---|
/// | swipe | two or more fingers down at once (the swipes take one) | "Swipe with one finger" |
/// | swipe | along-axis movement ≥ 50 pt but slower than 300 pt/s on average, or held past 0.5 s | "Swipe faster" |
/// | swipe | moved mostly across the axis, or turned back | "Swipe in a straight line" |
/// | swipe | under 50 pt and quick | "Swipe further" |
/// | tap | two or more fingers down at once (a two-finger tap, a palm: the tap takes one) | "Tap with one finger" |
/// | tap | moved more than 10 pt or held more than 0.5 s | "Tap quickly without moving" |
/// | pinch | one finger | "Pinch with two fingers" |
/// | pinch | two fingers whose distance did not change by 8 pt | "Spread or pinch two fingers" |
/// | rotate | one finger | "Rotate with two fingers" |
/// | rotate | two fingers that did not turn | "Turn two fingers" |
///
/// The finger count comes first: with several fingers down, the speed or length of the stroke
/// is not what went wrong. `--classic` shows no hints at all (the book's app shows only the
/// gestures it recognized): the scene then neither follows the strokes nor listens for failures.
extension DemoScene {
    /// The region view of a touch at `p`, if it lands on one.
    private func region(at p: Point) -> View? {
        guard let v = root.hitTest(p) else { return nil }
        return v === tapView || v === swipeView || v === pinchView || v === rotateView ? v : nil
    }

    /// Follows the touches of a frame into the regions' strokes.
    func trackRegionStrokes(_ frame: TouchFrame) {
        for c in frame.changes {
            switch c.phase {
            case .began:
                guard let v = region(at: c.location) else { continue }
                let key = ObjectIdentifier(v)
                var s = regionStrokes[key] ?? RegionStroke()
                if s.ids.isEmpty {
                    s = RegionStroke()
                    s.first = c.id
                    s.start = c.location
                    s.startTime = frame.timestamp
                    s.last = c.location
                }
                s.ids.insert(c.id)
                s.maxDown = max(s.maxDown, s.ids.count)
                regionStrokes[key] = s
                touchRegions[c.id] = key
            case .moved, .ended, .cancelled:
                guard let key = touchRegions[c.id], var s = regionStrokes[key] else { continue }
                if s.first == c.id && c.phase != .cancelled { s.last = c.location }
                if c.phase != .moved {
                    s.ids.remove(c.id)
                    touchRegions[c.id] = nil
                }
                regionStrokes[key] = s
            }
        }
    }

    /// A recognizer failed: when it was the last of its region's to fail this stroke, the label
    /// says why.
    func regionRecognizerFailed(_ r: GestureRecognizer) {
        guard let v = r.view, v !== root, v !== imageView else { return }
        let key = ObjectIdentifier(v)
        guard var s = regionStrokes[key] else { return }
        s.failed.insert(ObjectIdentifier(r))
        regionStrokes[key] = s
        let all = v.gestureRecognizers.allSatisfy { s.failed.contains(ObjectIdentifier($0)) }
        guard all, let hint = hint(for: v, s) else { return }
        feedback = .hint(hint)
        needsDisplay = true
    }

    private func hint(for v: View, _ s: RegionStroke) -> Hint? {
        if v === tapView { return s.maxDown > 1 ? .tapOneFinger : .tapQuicker }
        if v === pinchView { return s.maxDown < 2 ? .pinchTwoFingers : .pinchFurther }
        if v === rotateView { return s.maxDown < 2 ? .rotateTwoFingers : .rotateFurther }
        guard v === swipeView else { return nil }
        if s.maxDown > 1 { return .swipeOneFinger }
        let d = s.last - s.start
        let along = max(abs(d.dx), abs(d.dy))
        let cross = min(abs(d.dx), abs(d.dy))
        let elapsed = dispatcher.now - s.startTime
        if along >= 10 && along < 1.5 * cross { return .swipeStraighter }
        let slow = elapsed >= 0.5 || (elapsed > 0 && along / elapsed < 300)
        if slow { return .swipeFaster }
        return along >= 50 ? .swipeStraighter : .swipeFurther
    }
}
