import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

/// The flower's motion on a virtual clock: its scale limits and rubber band, the bounds,
/// momentum, the double-tap reset and undo, each as the whole event log (1024×768: image
/// [343.04,414.72,337.92,337.92], centre (512, 583.68)).
@Suite @MainActor struct ImageMotionTests {
    nonisolated static let layoutLine = layout1024.line

    /// One finger from (512, 600) right by 20 pt every 10 ms, lifting at once: 2000 pt/s.
    static let fling: [InputEvent] =
        [frame(0, Finger.down(1, 512, 600))]
        + (1...5).map { frame(Double($0) * 0.01, Finger.move(1, 512 + 20 * Double($0), 600)) }
        + [frame(0.06, Finger.up(1, 612, 600))]

    /// Two fingers in the pinch region from 200 pt apart to 10: ×0.05, past the minimum.
    static let pinchToNothing = stroke(
        start: 0, steps: 10, lift: 0.05,
        [lerp(Point(x: 176, y: 326), Point(x: 271, y: 326)), lerp(Point(x: 376, y: 326), Point(x: 281, y: 326))])

    /// A scene with its log, fed by `body`, the final line last.
    static func logged(_ body: (DemoScene) -> Void) -> (DemoScene, [String]) {
        let scene = DemoScene(size: Size(width: 1024, height: 768))
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        body(scene)
        log.append(scene.finalLine())
        return (scene, log)
    }

    @Test("A fling at 2000 pt/s carries on, decelerating at 0.998/ms, and stops with the centre at the right edge")
    func flingStopsAtTheBound() {
        let (scene, log) = replayLog(Self.fling)
        // The centre (612) reaches x = 1024 after ln(1 − k·412/2000)/k s, k = 1000 ln 0.998.
        let k = 1000 * Foundation.log(0.998)
        let end = 0.06 + Foundation.log(1 + k * 412 / 2000) / k
        #expect(abs(end - 0.325599) < 1e-6)
        #expect(!scene.isAnimating && scene.nextDeadline == nil)
        #expect(
            log == [
                Self.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":512.0,"y":600.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.01,"recognizer":"imagePan","kind":"pan","state":"began","x":532.0,"y":600.0,"touches":1,"translation":[20.0,0.0],"velocity":[2000.0,0.0],"label":"Panned, X: 20.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.01,"recognizer":"imageLongPress","kind":"longPress","state":"failed","x":532.0,"y":600.0,"touches":1,"label":"Panned, X: 20.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.01,"recognizer":"imageDoubleTap","kind":"tap","state":"failed","x":532.0,"y":600.0,"touches":1,"taps":0,"label":"Panned, X: 20.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.02,"recognizer":"imagePan","kind":"pan","state":"changed","x":552.0,"y":600.0,"touches":1,"translation":[40.0,0.0],"velocity":[2000.0,0.0],"label":"Panned, X: 40.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.03,"recognizer":"imagePan","kind":"pan","state":"changed","x":572.0,"y":600.0,"touches":1,"translation":[60.0,0.0],"velocity":[2000.0,0.0],"label":"Panned, X: 60.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.04,"recognizer":"imagePan","kind":"pan","state":"changed","x":592.0,"y":600.0,"touches":1,"translation":[80.0,0.0],"velocity":[2000.0,0.0],"label":"Panned, X: 80.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.05,"recognizer":"imagePan","kind":"pan","state":"changed","x":612.0,"y":600.0,"touches":1,"translation":[100.0,0.0],"velocity":[2000.0,0.0],"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.06,"recognizer":"imagePan","kind":"pan","state":"ended","x":612.0,"y":600.0,"touches":1,"translation":[100.0,0.0],"velocity":[2000.0,0.0],"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.06,"recognizer":"imagePinch","kind":"pinch","state":"failed","x":612.0,"y":600.0,"touches":0,"scale":1.0,"velocity":0.0,"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.06,"recognizer":"imageRotation","kind":"rotation","state":"failed","x":612.0,"y":600.0,"touches":0,"rotation":0.0,"velocity":0.0,"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"animation","t":0.06,"animation":"momentum","state":"began","matrix":[1.0,0.0,0.0,1.0,443.04,414.72]}"#,
                #"{"type":"animation","t":0.325599,"animation":"momentum","state":"ended","matrix":[1.0,0.0,0.0,1.0,855.04,414.72]}"#,
                #"{"type":"final","label":"Panned, X: 100.00, Y: 0.00","image":{"matrix":[1.0,0.0,0.0,1.0,855.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test("A pinch to ×0.05 in the pinch region shows the rubber band (×0.078) and springs back to 0.1 in 0.3 s")
    func pinchPastTheMinimumSpringsBack() {
        let (scene, log) = replayLog(Self.pinchToNothing)
        let shown = ScrollPhysics.rubberBandScale(0.05, minimum: 0.1, maximum: 10)
        #expect(abs(shown - 0.0781962) < 1e-6)
        #expect(abs(scene.imageScale - 0.1) < 1e-12)
        #expect(
            log == [
                Self.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":176.0,"y":326.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.016,"recognizer":"pinch","kind":"pinch","state":"began","x":276.0,"y":326.0,"touches":2,"scale":0.905,"velocity":-5.9375,"label":"Pinched, Scale: 0.91, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.032,"recognizer":"pinch","kind":"pinch","state":"changed","x":276.0,"y":326.0,"touches":2,"scale":0.81,"velocity":-5.9375,"label":"Pinched, Scale: 0.81, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.048,"recognizer":"pinch","kind":"pinch","state":"changed","x":276.0,"y":326.0,"touches":2,"scale":0.715,"velocity":-5.9375,"label":"Pinched, Scale: 0.71, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.064,"recognizer":"pinch","kind":"pinch","state":"changed","x":276.0,"y":326.0,"touches":2,"scale":0.62,"velocity":-5.9375,"label":"Pinched, Scale: 0.62, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.08,"recognizer":"pinch","kind":"pinch","state":"changed","x":276.0,"y":326.0,"touches":2,"scale":0.525,"velocity":-5.9375,"label":"Pinched, Scale: 0.53, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.096,"recognizer":"pinch","kind":"pinch","state":"changed","x":276.0,"y":326.0,"touches":2,"scale":0.43,"velocity":-5.9375,"label":"Pinched, Scale: 0.43, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.112,"recognizer":"pinch","kind":"pinch","state":"changed","x":276.0,"y":326.0,"touches":2,"scale":0.335,"velocity":-5.9375,"label":"Pinched, Scale: 0.34, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.128,"recognizer":"pinch","kind":"pinch","state":"changed","x":276.0,"y":326.0,"touches":2,"scale":0.24,"velocity":-5.9375,"label":"Pinched, Scale: 0.24, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.144,"recognizer":"pinch","kind":"pinch","state":"changed","x":276.0,"y":326.0,"touches":2,"scale":0.145,"velocity":-5.9375,"label":"Pinched, Scale: 0.14, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.16,"recognizer":"pinch","kind":"pinch","state":"changed","x":276.0,"y":326.0,"touches":2,"scale":0.05,"velocity":-5.9375,"label":"Pinched, Scale: 0.05, Velocity: -5.94"}"#,
                #"{"type":"gesture","t":0.21,"recognizer":"pinch","kind":"pinch","state":"ended","x":276.0,"y":326.0,"touches":2,"scale":0.05,"velocity":0.0,"label":"Pinched, Scale: 0.05, Velocity: 0.00"}"#,
                #"{"type":"animation","t":0.21,"animation":"bounce","state":"began","matrix":[0.078196,0.0,0.0,0.078196,498.788054,570.468054]}"#,
                #"{"type":"animation","t":0.51,"animation":"bounce","state":"ended","matrix":[0.1,0.0,0.0,0.1,495.104,566.784]}"#,
                #"{"type":"final","label":"Pinched, Scale: 0.05, Velocity: 0.00","image":{"matrix":[0.1,0.0,0.0,0.1,495.104,566.784],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test("--classic: the region pinch scales the bounds, and springs back to a tenth of them")
    func classicPinchSpringsBack() {
        let (scene, log) = replayLog(Self.pinchToNothing, classic: true)
        #expect(
            log.suffix(3) == [
                #"{"type":"animation","t":0.21,"animation":"bounce","state":"began","matrix":[1.0,0.0,0.0,1.0,498.788054,570.468054]}"#,
                #"{"type":"animation","t":0.51,"animation":"bounce","state":"ended","matrix":[1.0,0.0,0.0,1.0,495.104,566.784]}"#,
                #"{"type":"final","label":"Pinched, Scale: 0.05, Velocity: 0.00","image":{"matrix":[1.0,0.0,0.0,1.0,495.104,566.784],"bounds":[33.792,33.792]}}"#,
            ])
        #expect(abs(scene.imageScale - 0.1) < 1e-12)
    }

    @Test("Dragged far to the left, the picture stops with its centre on the window's edge")
    func neverLostOffScreen() {
        let (_, log) = replayLog(stroke(start: 0, steps: 40, [lerp(Point(x: 512, y: 600), Point(x: -400, y: 600))]))
        #expect(
            log.filter { !$0.contains(#""state":"changed""#) } == [
                Self.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":512.0,"y":600.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.016,"recognizer":"imagePan","kind":"pan","state":"began","x":489.2,"y":600.0,"touches":1,"translation":[-22.8,0.0],"velocity":[-1425.0,0.0],"label":"Panned, X: -22.80, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.016,"recognizer":"imageLongPress","kind":"longPress","state":"failed","x":489.2,"y":600.0,"touches":1,"label":"Panned, X: -22.80, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.016,"recognizer":"imageDoubleTap","kind":"tap","state":"failed","x":489.2,"y":600.0,"touches":1,"taps":0,"label":"Panned, X: -22.80, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.69,"recognizer":"imagePan","kind":"pan","state":"ended","x":-400.0,"y":600.0,"touches":1,"translation":[-912.0,0.0],"velocity":[0.0,0.0],"label":"Panned, X: -912.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.69,"recognizer":"imagePinch","kind":"pinch","state":"failed","x":-400.0,"y":600.0,"touches":0,"scale":1.0,"velocity":0.0,"label":"Panned, X: -912.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.69,"recognizer":"imageRotation","kind":"rotation","state":"failed","x":-400.0,"y":600.0,"touches":0,"rotation":0.0,"velocity":0.0,"label":"Panned, X: -912.00, Y: 0.00"}"#,
                #"{"type":"final","label":"Panned, X: -912.00, Y: 0.00","image":{"matrix":[1.0,0.0,0.0,1.0,-168.96,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test("A touch on the picture catches a fling where it is")
    func touchCatchesTheFling() {
        let (_, log) = replayLog(
            Self.fling + [frame(0.1, Finger.down(2, 700, 600)), frame(0.15, Finger.up(2, 700, 600))])
        #expect(
            log.filter { !$0.contains(#""state":"changed""#) } == [
                Self.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":512.0,"y":600.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.01,"recognizer":"imagePan","kind":"pan","state":"began","x":532.0,"y":600.0,"touches":1,"translation":[20.0,0.0],"velocity":[2000.0,0.0],"label":"Panned, X: 20.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.01,"recognizer":"imageLongPress","kind":"longPress","state":"failed","x":532.0,"y":600.0,"touches":1,"label":"Panned, X: 20.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.01,"recognizer":"imageDoubleTap","kind":"tap","state":"failed","x":532.0,"y":600.0,"touches":1,"taps":0,"label":"Panned, X: 20.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.06,"recognizer":"imagePan","kind":"pan","state":"ended","x":612.0,"y":600.0,"touches":1,"translation":[100.0,0.0],"velocity":[2000.0,0.0],"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.06,"recognizer":"imagePinch","kind":"pinch","state":"failed","x":612.0,"y":600.0,"touches":0,"scale":1.0,"velocity":0.0,"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.06,"recognizer":"imageRotation","kind":"rotation","state":"failed","x":612.0,"y":600.0,"touches":0,"rotation":0.0,"velocity":0.0,"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"animation","t":0.06,"animation":"momentum","state":"began","matrix":[1.0,0.0,0.0,1.0,443.04,414.72]}"#,
                #"{"type":"animation","t":0.1,"animation":"momentum","state":"cancelled","matrix":[1.0,0.0,0.0,1.0,519.920615,414.72]}"#,
                #"{"type":"gesture","t":0.1,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":700.0,"y":600.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.15,"recognizer":"imagePan","kind":"pan","state":"failed","x":700.0,"y":600.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.15,"recognizer":"imageLongPress","kind":"longPress","state":"failed","x":700.0,"y":600.0,"touches":1,"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.15,"recognizer":"imagePinch","kind":"pinch","state":"failed","x":700.0,"y":600.0,"touches":0,"scale":1.0,"velocity":0.0,"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.15,"recognizer":"imageRotation","kind":"rotation","state":"failed","x":700.0,"y":600.0,"touches":0,"rotation":0.0,"velocity":0.0,"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.45,"recognizer":"imageDoubleTap","kind":"tap","state":"failed","x":700.0,"y":600.0,"touches":1,"taps":1,"label":"Panned, X: 100.00, Y: 0.00"}"#,
                #"{"type":"final","label":"Panned, X: 100.00, Y: 0.00","image":{"matrix":[1.0,0.0,0.0,1.0,519.920615,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test("A double tap on the moved picture sends it home in 0.25 s")
    func doubleTapResets() {
        let (scene, log) = Self.logged { s in
            s.perform(.move(dx: 10, dy: 0), at: 0.1)
            for e in [
                frame(0.5, Finger.down(1, 600, 600)), frame(0.55, Finger.up(1, 600, 600)),
                frame(0.7, Finger.down(1, 602, 601)),
                frame(0.75, Finger.up(1, 602, 601)),
            ] { s.handle(e) }
            s.advance(to: 2)
        }
        #expect(scene.imageView.frame == layout1024.image && scene.imageView.transform == .identity)
        #expect(
            log == [
                Self.layoutLine,
                #"{"type":"gesture","t":0.5,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":600.0,"y":600.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Moved, X: 10.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.55,"recognizer":"imagePan","kind":"pan","state":"failed","x":600.0,"y":600.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"label":"Moved, X: 10.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.55,"recognizer":"imageLongPress","kind":"longPress","state":"failed","x":600.0,"y":600.0,"touches":1,"label":"Moved, X: 10.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.55,"recognizer":"imagePinch","kind":"pinch","state":"failed","x":600.0,"y":600.0,"touches":0,"scale":1.0,"velocity":0.0,"label":"Moved, X: 10.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.55,"recognizer":"imageRotation","kind":"rotation","state":"failed","x":600.0,"y":600.0,"touches":0,"rotation":0.0,"velocity":0.0,"label":"Moved, X: 10.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.7,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":602.0,"y":601.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Moved, X: 10.00, Y: 0.00"}"#,
                #"{"type":"gesture","t":0.75,"recognizer":"imageDoubleTap","kind":"tap","state":"ended","x":602.0,"y":601.0,"touches":1,"taps":2,"label":"Double tapped"}"#,
                #"{"type":"gesture","t":0.75,"recognizer":"imagePan","kind":"pan","state":"failed","x":602.0,"y":601.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"label":"Double tapped"}"#,
                #"{"type":"gesture","t":0.75,"recognizer":"imagePinch","kind":"pinch","state":"failed","x":602.0,"y":601.0,"touches":1,"scale":1.0,"velocity":0.0,"label":"Double tapped"}"#,
                #"{"type":"gesture","t":0.75,"recognizer":"imageRotation","kind":"rotation","state":"failed","x":602.0,"y":601.0,"touches":1,"rotation":0.0,"velocity":0.0,"label":"Double tapped"}"#,
                #"{"type":"gesture","t":0.75,"recognizer":"imageLongPress","kind":"longPress","state":"failed","x":602.0,"y":601.0,"touches":1,"label":"Double tapped"}"#,
                #"{"type":"animation","t":0.75,"animation":"reset","state":"began","matrix":[1.0,0.0,0.0,1.0,353.04,414.72]}"#,
                #"{"type":"animation","t":1.0,"animation":"reset","state":"ended","matrix":[1.0,0.0,0.0,1.0,343.04,414.72]}"#,
                #"{"type":"final","label":"Double tapped","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test("u undoes one step at a time (a key move, a key scale), animated; then there is nothing to undo")
    func undoSteps() {
        var labels: [String] = []
        let (_, log) = Self.logged { s in
            s.perform(.move(dx: 10, dy: 0), at: 0.1)
            s.perform(.scaleUp, at: 0.2)
            s.perform(.undo, at: 0.3)
            labels.append(s.label)
            s.advance(to: 0.4)
            s.advance(to: 0.6)
            s.perform(.undo, at: 1.0)
            s.advance(to: 1.5)
            s.perform(.undo, at: 2.0)
            labels.append(s.label)
        }
        #expect(labels == ["Undone", "Nothing to undo"])
        #expect(
            log == [
                Self.layoutLine,
                #"{"type":"animation","t":0.3,"animation":"undo","state":"began","matrix":[1.1,0.0,0.0,1.1,336.144,397.824]}"#,
                #"{"type":"animation","t":0.55,"animation":"undo","state":"ended","matrix":[1.0,0.0,0.0,1.0,353.04,414.72]}"#,
                #"{"type":"animation","t":1.0,"animation":"undo","state":"began","matrix":[1.0,0.0,0.0,1.0,353.04,414.72]}"#,
                #"{"type":"animation","t":1.25,"animation":"undo","state":"ended","matrix":[1.0,0.0,0.0,1.0,343.04,414.72]}"#,
                #"{"type":"final","label":"Nothing to undo","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test("Keys stop at the limits: + thirty times reads 10.00, - sixty times 0.10")
    func keysStopAtTheLimits() {
        let scene = DemoScene(size: Size(width: 1024, height: 768))
        for i in 0..<30 { scene.perform(.scaleUp, at: Double(i) * 0.1) }
        #expect(abs(scene.imageScale - 10) < 1e-12 && scene.label == "Scaled, Scale: 10.00")
        for i in 0..<60 { scene.perform(.scaleDown, at: 3 + Double(i) * 0.1) }
        #expect(abs(scene.imageScale - 0.1) < 1e-12 && scene.label == "Scaled, Scale: 0.10")
        #expect(!scene.isAnimating && scene.nextDeadline == nil)
    }

    @Test("An animation lands on the same log whether the loop draws every 1/60 s or not at all")
    func framesDoNotChangeTheOutcome() {
        let (_, direct) = replayLog(Self.fling)
        let scene = DemoScene(size: Size(width: 1024, height: 768))
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        var frames = 0
        for e in Self.fling { scene.handle(e) }
        while let d = scene.nextDeadline, d < 5 {
            scene.advance(to: d)
            frames += 1
        }
        log.append(scene.finalLine())
        // Each frame 1/60 s apart from the release (0.06) to the bound (0.3256): 16 frames.
        #expect(frames == 16)
        #expect(log == direct)
    }
}
