import CX11
import Foundation
import GestureTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The rest of the repertoire: taps, swipes, the edge pan, a long press, clicks on nothing,
/// resizes, pauses, and genuine touch (one and two fingers).
extension Monkey {
    /// A click in the tap region: "Tapped" (a change unless the label says so already).
    func tapClick() throws {
        let area = rect("tap").insetBy(6)
        begin("click in the tap region")
        let required = label != "Tapped"
        let t = click(at: snap(randomPoint(in: area)), hold: uniform(0.02, 0.08))
        let recognized = settle(["tap"]) && burstLines().contains { $0.recognizer == "tap" && $0.state == "ended" }
        record(t, required: required, recognized: recognized)
        try end()
    }

    static let swipeNames = ["swipeRight", "swipeLeft", "swipeUp", "swipeDown"]

    /// A fast swipe in the swipe region, by mouse or by one finger: "Swiped …" (a change unless
    /// the label names that direction already).
    func swipe(touch: Bool) throws {
        let area = rect("swipe")
        let direction = int(0...3)
        let name = Self.swipeNames[direction]
        let words = ["right", "left", "up", "down"]
        begin("\(touch ? "touch" : "mouse") swipe \(words[direction])")
        let along = direction < 2 ? area.width : area.height
        let length = max(60, along * uniform(0.5, 0.8))
        let unit = [(1.0, 0.0), (-1, 0), (0, -1), (0, 1)][direction]
        let c = area.center
        let start = snap(c + (-unit.0 * length / 2, -unit.1 * length / 2))
        let points = distinct(
            straightPath(from: start, to: start + (unit.0 * length, unit.1 * length), steps: int(4...7)).map(snap))
        let required = label != "Swiped \(words[direction])"
        let t =
            touch
            ? try self.touch([points], interval: 0.002, wholeBurst: true, rest: false)
            : mouseDrag(points, on: x, interval: 0.002, wholeBurst: true, rest: false)
        let recognized =
            settle(Self.swipeNames) && burstLines().contains { $0.recognizer == name && $0.state == "ended" }
        record(t, required: required, recognized: recognized)
        try end()
    }

    /// A pan in from the left edge, where neither a region nor the flower is.
    func edgePan() throws {
        let y = uniform(layout.height * 0.55, layout.height * 0.95)
        let start = snap(LayoutPoint(x: uniform(2, 12), y: y))
        let r = flower.innerRadius(layout) * 1.5
        guard isFree(start, margin: 1), hypot(start.x - flower.center.x, start.y - flower.center.y) > r else { return }
        begin("edge pan")
        let finish = snap(start + (uniform(60, 200), uniform(-30, 30)))
        let points = distinct(straightPath(from: start, to: finish, steps: int(8...20)).map(snap))
        let t = mouseDrag(points, on: x, interval: uniform(0.004, 0.01))
        let recognized = settle(["edgePan"]) && began("edgePan")
        applyLines(allowed: [], pivot: flower.center)
        record(t, required: true, recognized: recognized)
        try end()
    }

    /// Press and hold the flower 0.6–0.8 s: "Long pressed", by a timer (no input to answer).
    func longPress() throws {
        begin("long press on the flower")
        let t = click(at: snap(flower.center), hold: uniform(0.6, 0.8))
        settle(Self.imageRecognizers)
        applyLines(allowed: [], pivot: flower.center)
        record(t, required: false)
        try end()
    }

    /// A click where nothing is: the picture must not change.
    func backgroundClick() throws {
        let p = snap(LayoutPoint(x: uniform(4, layout.width - 4), y: uniform(4, layout.height - 4)))
        let r = flower.innerRadius(layout) * 1.5
        guard isFree(p), hypot(p.x - flower.center.x, p.y - flower.center.y) > r, p.x > 25 else { return }
        begin("click on the background")
        let t = click(at: p, hold: uniform(0.02, 0.08))
        record(t, required: false)
        try end()
    }

    /// Window sizes the soak resizes to. A fixed few: the app lays text out at sizes in
    /// proportion to the window, and every new size fills cairo's scaled-font and glyph caches
    /// further (~30 KiB a size, up to ~8 MiB after a few hundred sizes, bounded by cairo), which
    /// would hide a leak behind a cache filling up.
    static let windowSizes = [
        (1024, 768), (800, 600), (1280, 800), (640, 480), (960, 720), (1152, 700), (720, 540), (1200, 780),
    ]

    /// Another window size of ``windowSizes``.
    func randomResize() throws {
        let others = Self.windowSizes.filter { Double($0.0) != layout.width || Double($0.1) != layout.height }
        let (w, h) = pick(others)
        try resize(width: w, height: h)
    }

    /// No input for 0.1–0.5 s.
    func idle() throws {
        stats.pauses += 1
        pause(uniform(0.1, 0.5))
    }

    // MARK: Touch

    /// A one-finger tap in the tap region.
    func touchTap() throws {
        let p = randomPoint(in: rect("tap").insetBy(6))
        begin("touch tap in the tap region")
        let required = label != "Tapped"
        let t = try touch([[p, p]], interval: uniform(0.02, 0.06), answerAtLift: true)
        let recognized = settle(["tap"]) && burstLines().contains { $0.recognizer == "tap" && $0.state == "ended" }
        record(t, required: required, recognized: recognized)
        try end()
    }

    /// One finger drags the flower to a random place in the safe box.
    func touchDrag() throws {
        begin("touch drag of the flower")
        let c = flower.center
        let r = min(flower.innerRadius(layout) * 0.5, 20)
        let start = c + (uniform(-r, r), uniform(-r, r))
        var target = randomPoint(in: safeBox)
        if hypot(target.x - start.x, target.y - start.y) < 30 { target = start + (30, 0) }
        let steps = max(2, min(int(8...25), Int(hypot(target.x - start.x, target.y - start.y) / 3)))
        let t = try touch([straightPath(from: start, to: target, steps: steps)], interval: uniform(0.003, 0.008))
        let recognized = settle(Self.imageRecognizers) && began("imagePan")
        applyLines(allowed: ["imagePan"], pivot: c)
        record(t, required: true, recognized: recognized)
        try end()
    }

    /// Two fingers pinch and turn the flower, or the pinch or rotate region, symmetric about
    /// its centre.
    func touchPinch() throws {
        guard
            let plan = twoFingerPlan(
                in: ["image", "image", "image", "pinch", "rotate"], "two-finger touch", maximumTurn: 1.8)
        else { return }
        let (place, onImage, c, r, a0, f, da) = (plan.place, plan.onImage, plan.c, plan.r, plan.a0, plan.f, plan.da)
        let steps = int(12...30)
        func path(_ start: Double) -> [LayoutPoint] {
            (0...steps).map { i in
                let k = Double(i) / Double(steps)
                let radius = r * pow(f, k)
                return c + (radius * cos(start + da * k), radius * sin(start + da * k))
            }
        }
        let t = try touch([path(a0), path(a0 + .pi)], interval: uniform(0.004, 0.01))
        lastLinearChange = monotonicNow()
        let recognizers = onImage ? Self.imageRecognizers : [place == "pinch" ? "pinch" : "rotation"]
        let recognized = settle(recognizers) && recognizers.contains(where: began)
        let allowed: Set<String> =
            onImage ? ["imagePinch", "imageRotation"] : [place == "pinch" ? "pinch" : "rotation"]
        applyLines(allowed: allowed, pivot: c)
        record(t, required: true, recognized: recognized, "×\(fixed(f, 2)), \(fixed(da * 180 / .pi, 0))°")
        try end()
    }
}
