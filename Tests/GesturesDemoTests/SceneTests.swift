import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

/// Whole-log replays of the demo scene at 1024×768 (layout: tap [51.2,92.16,450.56,145.92],
/// swipe [522.24,92.16,…], pinch [51.2,253.44,…], rotate [522.24,253.44,…], image
/// [343.04,414.72,337.92,337.92], image centre (512, 583.68)).
@Suite @MainActor struct SceneTests {
    nonisolated static let layoutLine = layout1024.line
    nonisolated static let homeFinal =
        #"{"type":"final","label":"Do something!","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#

    @Test func tap() {
        let (_, log) = replayLog([frame(0, Finger.down(1, 270, 160)), frame(0.1, Finger.up(1, 271, 161))])
        #expect(
            log == [
                Self.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":270.0,"y":160.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.1,"recognizer":"tap","kind":"tap","state":"ended","x":271.0,"y":161.0,"touches":1,"taps":1,"label":"Tapped"}"#,
                #"{"type":"final","label":"Tapped","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    nonisolated static let swipeCases: [(String, Point, Vector)] = [
        ("right", Point(x: 700, y: 165), Vector(dx: 20, dy: 0)),
        ("left", Point(x: 800, y: 165), Vector(dx: -20, dy: 0)),
        ("up", Point(x: 747, y: 200), Vector(dx: 0, dy: -20)),
        ("down", Point(x: 747, y: 130), Vector(dx: 0, dy: 20)),
    ]

    @Test(arguments: swipeCases)
    func swipe(direction: String, start: Point, step: Vector) {
        // 20 pt every 20 ms: 1000 pt/s, recognized at the third move (60 pt ≥ 50 pt).
        var events = [frame(0, Finger.down(1, start.x, start.y))]
        var p = start
        for k in 1...5 {
            p = p + step
            events.append(frame(Double(k) * 0.02, Finger.move(1, p.x, p.y)))
        }
        events.append(frame(0.12, Finger.up(1, p.x, p.y)))
        let (_, log) = replayLog(events)
        let at = start + step * 3
        let label = "Swiped \(direction)"
        let x = formatNumber(at.x)
        let y = formatNumber(at.y)
        var expected = [
            Self.layoutLine,
            #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":\#(formatNumber(start.x)),"y":\#(formatNumber(start.y)),"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
        ]
        let name = "swipe" + direction.prefix(1).uppercased() + direction.dropFirst()
        expected.append(
            #"{"type":"gesture","t":0.06,"recognizer":"\#(name)","kind":"swipe","state":"ended","x":\#(x),"y":\#(y),"touches":1,"direction":"\#(direction)","label":"\#(label)"}"#
        )
        for other in ["right", "left", "up", "down"] where other != direction {
            let n = "swipe" + other.prefix(1).uppercased() + other.dropFirst()
            expected.append(
                #"{"type":"gesture","t":0.06,"recognizer":"\#(n)","kind":"swipe","state":"failed","x":\#(x),"y":\#(y),"touches":1,"direction":"\#(other)","label":"\#(label)"}"#
            )
        }
        expected.append(
            #"{"type":"final","label":"\#(label)","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#
        )
        #expect(log == expected)
    }

    @Test func shakeResetsTheImage() {
        // Pinch the image large in the pinch region, then shake.
        var events = stroke(
            start: 0, steps: 20,
            [lerp(Point(x: 226, y: 326), Point(x: 176, y: 326)), lerp(Point(x: 326, y: 326), Point(x: 376, y: 326))])
        events.append(.shake(timestamp: 1))
        let (scene, log) = replayLog(events)
        #expect(
            log.suffix(2) == [
                #"{"type":"gesture","t":1.0,"recognizer":"shake","kind":"shake","state":"ended","x":0.0,"y":0.0,"touches":0,"label":"Shaking things up!"}"#,
                #"{"type":"final","label":"Shaking things up!","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
        #expect(scene.imageView.frame == layout1024.image)
    }

    @Test func shakeAloneWholeLog() {
        let (_, log) = replayLog([.shake(timestamp: 0.5)])
        #expect(
            log == [
                Self.layoutLine,
                #"{"type":"gesture","t":0.5,"recognizer":"shake","kind":"shake","state":"ended","x":0.0,"y":0.0,"touches":0,"label":"Shaking things up!"}"#,
                #"{"type":"final","label":"Shaking things up!","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    /// A pinch in the pinch region: two fingers 100 pt apart spread to 200 pt in 25 moves.
    static func pinchEvents(start: Double = 0, from: Double = 50, to: Double = 100, firstID: Int = 1) -> [InputEvent] {
        let c = Point(x: 276, y: 326)
        return stroke(
            start: start, steps: 25, firstID: firstID,
            [
                lerp(Point(x: c.x - from, y: c.y), Point(x: c.x - to, y: c.y)),
                lerp(Point(x: c.x + from, y: c.y), Point(x: c.x + to, y: c.y)),
            ])
    }

    @Test func pinchScalesTheImageAboutItsCentre() throws {
        let (scene, log) = replayLog(Self.pinchEvents())
        let t = transitions(log)
        #expect(t.first == "edgePan failed")
        #expect(t[1] == "pinch began")
        #expect(t.dropFirst(2).dropLast().allSatisfy { $0 == "pinch changed" })
        #expect(t.last == "pinch ended")
        let began = try #require(log.first { $0.contains(#""state":"began""#) })
        // Began once the distance changed by more than 8 pt: 100 → 108 at the third move (12 pt).
        #expect(number(began, "scale") == 1.12)
        #expect(number(began, "x") == 276 && number(began, "y") == 326)
        #expect(field(began, "label") == "Pinched, Scale: 1.12, Velocity: \(format2(number(began, "velocity")!))")
        // Steady spread: 4 pt per 16 ms = 2.5 scale/s.
        let mid = log.filter { $0.contains(#""recognizer":"pinch""#) }[12]
        #expect(abs(number(mid, "velocity")! - 2.5) < 0.01)
        let ended = try #require(log.dropLast().last)
        #expect(number(ended, "scale") == 2)
        #expect(field(ended, "label") == "Pinched, Scale: 2.00, Velocity: 0.00")
        #expect(
            log.last
                == #"{"type":"final","label":"Pinched, Scale: 2.00, Velocity: 0.00","image":{"matrix":[2.0,0.0,0.0,2.0,174.08,245.76],"bounds":[337.92,337.92]}}"#
        )
        #expect(scene.imageView.center == layout1024.image.center)
    }

    static func rotationEvents(start: Double = 0, quarterTurns: Double = 1, firstID: Int = 1) -> [InputEvent] {
        let c = Point(x: 747, y: 326)
        let a = Double.pi / 2 * quarterTurns
        return stroke(start: start, steps: 30, firstID: firstID, [arc(c, 50, .pi, .pi + a), arc(c, 50, 0, a)])
    }

    @Test func rotationRotatesTheImageAboutItsCentre() throws {
        let (scene, log) = replayLog(Self.rotationEvents())
        let t = transitions(log)
        #expect(t.first == "edgePan failed")
        #expect(t[1] == "rotation began")
        #expect(t.last == "rotation ended")
        let began = try #require(log.first { $0.contains(#""state":"began""#) })
        #expect(number(began, "rotation")! > 0.05 && number(began, "rotation")! < 0.11)
        let ended = try #require(log.dropLast().last)
        #expect(abs(number(ended, "rotation")! - .pi / 2) < 1e-6)
        #expect(field(ended, "label") == "Rotated, Radians: 1.57, Velocity: 0.00")
        let m = scene.imageMatrix
        #expect(abs(m.a) < 1e-9 && abs(m.b - 1) < 1e-9 && abs(m.c + 1) < 1e-9 && abs(m.d) < 1e-9)
        #expect(abs(m.tx - 680.96) < 1e-6 && abs(m.ty - 414.72) < 1e-6)
        #expect(
            log.last!.hasPrefix(
                #"{"type":"final","label":"Rotated, Radians: 1.57, Velocity: 0.00","image":{"matrix":["#))
    }

    @Test func transformsAccumulateAcrossTwoPinches() throws {
        // Two pinches of ×1.5 each: 100 → 150 pt.
        let events = Self.pinchEvents(from: 50, to: 75) + Self.pinchEvents(start: 1, from: 50, to: 75, firstID: 10)
        let (scene, log) = replayLog(events)
        let ends = log.filter { $0.contains(#""recognizer":"pinch""#) && $0.contains(#""state":"ended""#) }
        #expect(ends.count == 2)
        #expect(ends.allSatisfy { field($0, "label") == "Pinched, Scale: 1.50, Velocity: 0.00" })
        #expect(abs(scene.imageMatrix.a - 2.25) < 1e-9 && abs(scene.imageScale - 2.25) < 1e-9)
        #expect(scene.imageBounds == layout1024.image.size)
        #expect(scene.imageView.center == layout1024.image.center)

        // The book's listing: the frame is the original rect × the gesture's scale, not accumulated.
        let (classic, classicLog) = replayLog(events, classic: true)
        #expect(transitions(classicLog) == transitions(log))
        #expect(classic.imageMatrix.a == 1 && classic.imageMatrix.b == 0)
        #expect(abs(classic.imageBounds.width - 1.5 * 337.92) < 1e-9)
        #expect(abs(classic.imageScale - 1.5) < 1e-9)
        #expect(classic.imageView.center == layout1024.image.center)
    }

    @Test func rotationThenPinchAccumulatesButClassicPinchResetsTheRotation() {
        let events = Self.rotationEvents() + Self.pinchEvents(start: 1, firstID: 10)
        let (scene, _) = replayLog(events)
        #expect(abs(scene.imageView.transform.rotationAngle - .pi / 2) < 1e-9)
        #expect(abs(scene.imageScale - 2) < 1e-9)
        let (classic, _) = replayLog(events, classic: true)
        #expect(classic.imageView.transform == .identity)
        #expect(abs(classic.imageScale - 2) < 1e-9)
        // Classic rotation is absolute: a second quarter turn sets π/2 again, not π.
        let (classic2, _) = replayLog(Self.rotationEvents() + Self.rotationEvents(start: 1, firstID: 10), classic: true)
        #expect(abs(classic2.imageView.transform.rotationAngle - .pi / 2) < 1e-9)
        let (accumulated2, _) = replayLog(Self.rotationEvents() + Self.rotationEvents(start: 1, firstID: 10))
        #expect(abs(abs(accumulated2.imageView.transform.rotationAngle) - .pi) < 1e-9)
    }

    /// Image gestures: the picture point under each finger at touch-down stays under that
    /// finger (within 0.5 pt) once the gestures have begun.
    @Test(arguments: [
        // (translation, scale, rotation)
        (Vector(dx: 60, dy: -40), 1.0, 0.0),
        (Vector(dx: 0, dy: 0), 1.6, 0.0),
        (Vector(dx: 0, dy: 0), 1.0, 0.8),
        (Vector(dx: 50, dy: -30), 1.5, 0.6),
        (Vector(dx: -40, dy: 20), 0.7, -1.0),
    ])
    func imageGesturesStayUnderTheFingers(translation: Vector, scale: Double, rotation: Double) {
        let c0 = Point(x: 512, y: 583.68)
        let r0 = 60.0
        let steps = 40
        func finger(_ side: Double) -> (Double) -> Point {
            { u in
                let a = (side < 0 ? Double.pi : 0) + rotation * u
                let r = r0 * (1 + (scale - 1) * u)
                return Point(x: c0.x + translation.dx * u + r * cos(a), y: c0.y + translation.dy * u + r * sin(a))
            }
        }
        let paths = [finger(-1), finger(1)]
        let events = stroke(start: 0, steps: steps, paths)
        let scene = DemoScene(size: Size(width: 1024, height: 768))
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        let initial = scene.imageMatrix.inverted()
        let anchors = paths.map { $0(0).applying(initial) }
        var worst = 0.0
        for (k, e) in events.enumerated() {
            scene.handle(e)
            guard k >= 1 && k <= steps else { continue }
            let u = Double(k) / Double(steps)
            // Once every gesture this motion involves has begun.
            let begun =
                (translation == .zero || scene.imagePan.state.isActive)
                && (scale == 1 || scene.imagePinch.state.isActive)
                && (rotation == 0 || scene.imageRotation.state.isActive)
            guard begun else { continue }
            for (p, anchor) in zip(paths, anchors) {
                worst = max(worst, anchor.applying(scene.imageMatrix).distance(to: p(u)))
            }
        }
        #expect(worst < 0.5, "the picture drifted \(worst) pt from a finger")
        #expect(abs(scene.imageScale - scale) < 0.01)
        #expect(abs(scene.imageView.transform.rotationAngle - rotation) < 0.01)
        let t = Set(transitions(log))
        if translation != .zero { #expect(t.contains("imagePan began")) }
        if scale != 1 { #expect(t.contains("imagePinch began")) }
        if rotation != 0 { #expect(t.contains("imageRotation began")) }
    }

    @Test func oneFingerPanMovesTheImage() {
        let events = stroke(start: 0, steps: 20, [lerp(Point(x: 500, y: 600), Point(x: 400, y: 650))])
        let (scene, log) = replayLog(events)
        #expect(abs(scene.imageView.center.x - 412) < 1e-9 && abs(scene.imageView.center.y - 633.68) < 1e-9)
        let ended = log.first { $0.contains(#""recognizer":"imagePan""#) && $0.contains(#""state":"ended""#) }
        #expect(ended.flatMap { field($0, "label") } == "Panned, X: -100.00, Y: 50.00")
    }

    @Test func longPressOnTheImage() {
        let (_, log) = replayLog([frame(0, Finger.down(1, 512, 600)), frame(0.8, Finger.up(1, 512, 600))])
        #expect(
            Array(log.dropFirst()) == [
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":512.0,"y":600.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"imageLongPress","kind":"longPress","state":"began","x":512.0,"y":600.0,"touches":1,"label":"Long pressed"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"imagePan","kind":"pan","state":"failed","x":512.0,"y":600.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"label":"Long pressed"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"imagePinch","kind":"pinch","state":"failed","x":512.0,"y":600.0,"touches":1,"scale":1.0,"velocity":0.0,"label":"Long pressed"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"imageRotation","kind":"rotation","state":"failed","x":512.0,"y":600.0,"touches":1,"rotation":0.0,"velocity":0.0,"label":"Long pressed"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"imageDoubleTap","kind":"tap","state":"failed","x":512.0,"y":600.0,"touches":1,"taps":0,"label":"Long pressed"}"#,
                #"{"type":"gesture","t":0.8,"recognizer":"imageLongPress","kind":"longPress","state":"ended","x":512.0,"y":600.0,"touches":1,"label":"Long pressed"}"#,
                #"{"type":"final","label":"Long pressed","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test func edgePanFromTheLeftEdge() {
        let events = stroke(start: 0, steps: 10, [lerp(Point(x: 5, y: 600), Point(x: 105, y: 605))])
        let (_, log) = replayLog(events)
        let t = transitions(log)
        #expect(t.first == "edgePan began")
        #expect(t.last == "edgePan ended")
        let ended = log.first { $0.contains(#""recognizer":"edgePan""#) && $0.contains(#""state":"ended""#) }
        #expect(ended.flatMap { field($0, "label") } == "Edge panned, X: 100.00, Y: 5.00")
        #expect(ended.flatMap { field($0, "edge") } == "left")
    }

    @Test func keyboardAlternatives() {
        let scene = DemoScene()
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        scene.perform(.scaleUp, at: 1)
        #expect(scene.label == "Scaled, Scale: 1.10")
        scene.perform(.scaleDown, at: 1.1)
        scene.perform(.scaleDown, at: 1.2)
        #expect(scene.label == "Scaled, Scale: 0.91")
        scene.perform(.rotateClockwise, at: 2)
        #expect(scene.label == "Rotated, Radians: 0.26")
        scene.perform(.rotateCounterClockwise, at: 2.1)
        scene.perform(.rotateCounterClockwise, at: 2.2)
        #expect(scene.label == "Rotated, Radians: -0.26")
        scene.perform(.move(dx: 10, dy: 0), at: 3)
        scene.perform(.move(dx: 0, dy: -10), at: 3.1)
        #expect(scene.label == "Moved, X: 10.00, Y: -10.00")
        #expect(scene.needsDisplay)
        scene.perform(.shake, at: 4)
        #expect(scene.label == "Shaking things up!")
        #expect(scene.finalLine().hasSuffix(#""matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#))
        #expect(
            log == [
                layout1024.line,
                #"{"type":"gesture","t":4.0,"recognizer":"shake","kind":"shake","state":"ended","x":0.0,"y":0.0,"touches":0,"label":"Shaking things up!"}"#,
            ])
    }

    @Test func resizeLaysOutAgainAndKeepsTheImageInProportion() {
        let scene = DemoScene()
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        scene.perform(.move(dx: 100, dy: 0), at: 0)
        scene.perform(.scaleUp, at: 0)
        scene.resize(to: Size(width: 512, height: 384), at: 1)
        scene.resize(to: Size(width: 512, height: 384), at: 2)  // same size: no new line
        #expect(log == [layout1024.line, DemoLayout(size: Size(width: 512, height: 384)).line])
        #expect(scene.imageView.center.distance(to: Point(x: 306, y: 291.84)) < 1e-9)
        #expect(scene.imageBounds == DemoLayout(size: Size(width: 512, height: 384)).image.size)
        #expect(abs(scene.imageScale - 1.1) < 1e-9)
        #expect(
            scene.pinchView.frame.origin.distance(to: DemoLayout(size: Size(width: 512, height: 384)).pinch.origin)
                < 1e-9)
        scene.perform(.shake, at: 3)
        #expect(scene.imageView.frame == DemoLayout(size: Size(width: 512, height: 384)).image)
    }

    @Test func mirrorCenterIsTheCentreOfTheViewUnderThePoint() {
        let scene = DemoScene()
        #expect(scene.mirrorCenter(for: Point(x: 100, y: 300)) == layout1024.pinch.center)
        #expect(scene.mirrorCenter(for: Point(x: 600, y: 120)) == layout1024.swipe.center)
        #expect(scene.mirrorCenter(for: Point(x: 500, y: 600)) == layout1024.image.center)
        // The label is not interactive: the root's centre.
        #expect(scene.mirrorCenter(for: Point(x: 500, y: 40)) == Point(x: 512, y: 384))
    }

    @Test func resetAfterIdle() {
        let scene = DemoScene()
        scene.perform(.scaleUp, at: 0)
        scene.resetAfterIdle(at: 60)
        #expect(scene.label == "Do something!")
        #expect(scene.imageView.frame == layout1024.image && scene.imageView.transform == .identity)
    }

    @Test func tourReplays() throws {
        let trace = try TraceReader.read(path: repositoryRoot + "/Resources/tour.jsonl", size: nil, device: nil)
        let (_, log) = replayLog(trace.events, size: trace.viewport)
        let t = transitions(log)
        for expected in [
            "tap ended", "swipeRight ended", "pinch ended", "rotation ended", "imagePan ended", "shake ended",
        ] {
            #expect(t.contains(expected))
        }
        #expect(log.last == Self.homeFinal.replacingOccurrences(of: "Do something!", with: "Shaking things up!"))
    }
}

/// The repository (this file is Tests/GesturesDemoTests/SceneTests.swift).
@Suite @MainActor struct SceneEdgeCaseTests {
    /// A key pressed or a resize in the middle of an image pinch: the gesture goes on from the
    /// image's new state instead of snapping back.
    @Test func keyAndResizeDuringAnImageGesture() {
        let scene = DemoScene()
        let c = layout1024.image.center
        var events = stroke(
            start: 0, steps: 20,
            [
                lerp(Point(x: c.x - 40, y: c.y), Point(x: c.x - 80, y: c.y)),
                lerp(Point(x: c.x + 40, y: c.y), Point(x: c.x + 80, y: c.y)),
            ])
        let lift = events.removeLast()
        for e in events.prefix(12) { scene.handle(e) }
        #expect(scene.imagePinch.state.isActive)
        let before = scene.imageScale
        scene.perform(.scaleUp, at: 0.2)
        #expect(abs(scene.imageScale - before * 1.1) < 1e-9)
        for e in events.dropFirst(12) { scene.handle(e) }
        // The pinch doubled the finger distance; the key's step stays in.
        #expect(abs(scene.imageScale - 2 * 1.1) < 1e-9)
        scene.resize(to: Size(width: 2048, height: 1536), at: 0.5)
        scene.handle(lift)
        #expect(abs(scene.imageScale - 2 * 1.1) < 1e-9)
        #expect(abs(scene.imageBounds.width - 2 * 337.92) < 1e-9)
    }
}
