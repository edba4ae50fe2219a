import CX11
import Foundation
import GestureTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The wheel in the monkey's repertoire: XTest buttons 4–7 over the flower pan
/// it 40 pt a click (Shift turns the wheel sideways), and with Ctrl zoom it ×1.1 a click about
/// the pointer. The model follows the logged translation and scale.
extension Monkey {
    func wheel() throws {
        let c = flower.center
        let r = min(flower.innerRadius(layout) * 0.4, 20)
        let p = snap(c + (uniform(-r, r), uniform(-r, r)))
        guard isFree(p, margin: 8) else { return }
        let zoom = chance(0.4)
        var buttons: [UInt32]
        var modifiers: [Int32] = []
        if zoom {
            // Up zooms in: as many clicks as the scale tide's factor asks (1–4).
            let f = pinchFactor(1.1, 1.5)
            let clicks = max(1, min(4, Int((abs(log(f)) / log(1.1)).rounded())))
            buttons = Array(repeating: f >= 1 ? 4 : 5, count: clicks)
            modifiers = [Keysym.controlL]
        } else {
            // Towards a place in the safe box, along its longer axis.
            let target = randomPoint(in: safeBox)
            let (dx, dy) = (target.x - c.x, target.y - c.y)
            let clicks = max(1, min(4, Int((max(abs(dx), abs(dy)) / 40).rounded())))
            if abs(dx) > abs(dy) {
                // The content moves right with the tilt left (6) or Shift+wheel up (4).
                let sideways = chance(0.5)
                buttons = Array(repeating: dx > 0 ? (sideways ? 4 : 6) : (sideways ? 5 : 7), count: clicks)
                if sideways { modifiers = [Keysym.shiftL] }
            } else {
                buttons = Array(repeating: dy > 0 ? 4 : 5, count: clicks)
            }
        }
        begin(zoom ? "Ctrl+wheel on the flower" : "wheel on the flower")
        // Quiet before the first click, not between them: a pause over 0.15 s would end the
        // scroll sequence (the model follows several anyway, below).
        quiet()
        app.move(to: p)
        for m in modifiers { x.key(m, pressed: true) }
        x.sync()
        var t: Double?
        for (i, b) in buttons.enumerated() {
            let click = {
                self.x.button(b, pressed: true)
                self.x.button(b, pressed: false)
                self.x.sync()
            }
            if i == buttons.count - 1 { t = answer(quietFirst: false, click) } else { click() }
            pause(uniform(0.01, 0.04))
        }
        for m in modifiers.reversed() { x.key(m, pressed: false) }
        x.sync()
        let recognizer = zoom ? "imagePinch" : "imagePan"
        let recognized = settle([recognizer]) && began(recognizer)
        pause(0.2)  // every sequence of the burst has ended
        applyLines(allowed: [recognizer], pivot: p)
        // `applyLines` takes the last sequence's value; a burst the machine slowed into several
        // sequences moved the flower by each.
        for e in burstLines().filter({ $0.recognizer == recognizer && $0.state == "ended" }).dropLast() {
            if zoom {
                flower.transform(scale: e.scale ?? 1, rotation: 0, about: p)
            } else if let v = e.object["translation"] as? [NSNumber], v.count == 2 {
                flower.center = flower.center + (v[0].doubleValue, v[1].doubleValue)
            }
        }
        if zoom { lastLinearChange = monotonicNow() }
        let lines = burstLines().filter { $0.isGesture || $0.type == "animation" }.map(\.text)
        record(
            t, required: true, recognized: recognized,
            "\(buttons.count) clicks of button \(buttons[0])\(modifiers.isEmpty ? "" : " with \(modifiers)") at "
                + "(\(fixed(p.x, 1)), \(fixed(p.y, 1))) in \(Int(layout.width))x\(Int(layout.height)); "
                + lines.joined(separator: " | "))
        try end()
    }
}
