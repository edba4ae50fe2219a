import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `gestures run` on Xorg + dummy + inputtest, with a started session's touch and touchpad
/// devices at hand.
final class TouchSession {
    let server: XorgInputTest
    let session: AppSession
    var app: GesturesApp { session.app }

    init(arguments: [String] = []) throws {
        let server = try XorgInputTest()
        self.server = server
        session = try AppSession(display: server.display, arguments: arguments) { server.stop() }
    }

    func close() { session.close() }

    /// Sends touch events (window points) and waits until the server has processed them.
    func touches(_ events: [(InputTestDevice.TouchPhase, UInt32, LayoutPoint)]) throws {
        for (phase, id, p) in events {
            let (x, y) = app.screen(p)
            try server.touchscreen.touch(phase, id: id, x: x, y: y)
        }
        try server.touchscreen.sync()
    }

    /// Two (or more) fingers moving along paths of equal length, one frame every `interval`.
    func move(_ paths: [UInt32: [LayoutPoint]], interval: Double = 0.01) throws {
        let count = paths.values.map(\.count).max() ?? 0
        for i in 0..<count {
            pause(interval)
            try touches(
                paths.sorted { $0.key < $1.key }.compactMap { id, path in
                    i < path.count ? (.update, id, path[i]) : nil
                })
        }
    }
}

extension XServerTests {
    /// Genuine XI 2.2 touch events and XI 2.4 touchpad gestures (docs/DESIGN.md §6), injected through
    /// Xorg's inputtest driver into `gestures run`.
    @Suite("gestures run on Xorg + dummy + inputtest (genuine XI2 touch)", xorgNeedsRoot)
    struct XorgTouchApp {
        @Test("A one-finger touch tap in the tap region")
        func touchTap() throws {
            let t = try TouchSession()
            defer { t.close() }
            let tap = try t.app.region("tap")
            let p = tap.center + (-tap.width * 0.3, tap.height * 0.2)
            try t.touches([(.begin, 1, p)])
            pause(0.05)
            try t.touches([(.end, 1, p)])
            let line = try t.app.waitFor("tap", "ended")
            #expect(line.touches == 1 && line.number("taps") == 1, "\(line)")
            let location = try #require(line.location)
            #expect(abs(location.x - p.x) < 0.5 && abs(location.y - p.y) < 0.5, "\(line)")
            #expect(line.label == "Tapped")
        }

        @Test("A two-finger touch pinch in the pinch region")
        func touchPinch() throws {
            let t = try TouchSession()
            defer { t.close() }
            let pinch = try t.app.region("pinch")
            let c = pinch.center
            let (d0, d1) = (pinch.width * 0.1, pinch.width * 0.3)
            try t.touches([(.begin, 1, c + (-d0, 0)), (.begin, 2, c + (d0, 0))])
            try t.move([
                1: straightPath(from: c + (-d0, 0), to: c + (-d1, 0), steps: 20),
                2: straightPath(from: c + (d0, 0), to: c + (d1, 0), steps: 20),
            ])
            pause(0.01)
            try t.touches([(.end, 1, c + (-d1, 0)), (.end, 2, c + (d1, 0))])
            try t.app.waitFor("pinch", "ended")
            let lines = t.app.lines(of: "pinch")
            let last = try #require(lines.last { $0.state == "changed" }, "\(summary(lines))")
            let scale = try #require(lines.compactMap(\.scale).last)
            #expect(abs(scale / (d1 / d0) - 1) < 0.01, "scale \(scale), expected \(d1 / d0)")
            #expect(last.touches == 2)
            let location = try #require(last.location)
            #expect(abs(location.x - c.x) < 0.5 && abs(location.y - c.y) < 0.5)
        }

        @Test(
            "A two-finger touch rotation in the rotate region (clockwise positive)",
            arguments: [Double.pi / 2, -3 * Double.pi / 4])
        func touchRotation(angle: Double) throws {
            let t = try TouchSession()
            defer { t.close() }
            let rotate = try t.app.region("rotate")
            let c = rotate.center
            let r = min(rotate.width, rotate.height) * 0.4
            let first = arc(around: c, radius: r, from: .pi, to: .pi + angle, steps: 30)
            let second = arc(around: c, radius: r, from: 0, to: angle, steps: 30)
            try t.touches([(.begin, 1, first[0]), (.begin, 2, second[0])])
            try t.move([1: Array(first.dropFirst()), 2: Array(second.dropFirst())])
            pause(0.01)
            try t.touches([(.end, 1, first.last!), (.end, 2, second.last!)])
            try t.app.waitFor("rotation", "ended")
            let lines = t.app.lines(of: "rotation")
            #expect(lines.contains { $0.state == "changed" }, "\(summary(lines))")
            let rotation = try #require(lines.compactMap(\.rotation).last)
            #expect(abs(rotation - angle) < 0.01, "rotation \(rotation), expected \(angle)")
        }

        @Test("A third finger does not disturb a two-finger pinch")
        func thirdFingerIgnored() throws {
            let t = try TouchSession()
            defer { t.close() }
            let pinch = try t.app.region("pinch")
            let c = pinch.center
            let d = pinch.width * 0.1
            try t.touches([(.begin, 1, c + (-d, 0)), (.begin, 2, c + (d, 0))])
            try t.move([
                1: straightPath(from: c + (-d, 0), to: c + (-1.5 * d, 0), steps: 10),
                2: straightPath(from: c + (d, 0), to: c + (1.5 * d, 0), steps: 10),
            ])
            try t.app.log.waitFor("pinch at 1.5") {
                $0.isGesture && $0.recognizer == "pinch" && abs(($0.scale ?? 0) - 1.5) < 0.005
            }
            let mark = t.app.log.count
            // The third finger lands in the region and wanders far; the pair stays put.
            let third = c + (0, pinch.height * 0.3)
            try t.touches([(.begin, 3, third)])
            try t.move([
                3: straightPath(from: third, to: c + (-pinch.width * 0.4, -pinch.height * 0.4), steps: 15)
            ])
            // Then the pair spreads to ×2 while the third finger is still down.
            try t.move([
                1: straightPath(from: c + (-1.5 * d, 0), to: c + (-2 * d, 0), steps: 10),
                2: straightPath(from: c + (1.5 * d, 0), to: c + (2 * d, 0), steps: 10),
            ])
            pause(0.01)
            try t.touches([
                (.end, 3, c + (-pinch.width * 0.4, -pinch.height * 0.4)),
                (.end, 1, c + (-2 * d, 0)), (.end, 2, c + (2 * d, 0)),
            ])
            try t.app.waitFor("pinch", "ended", from: mark)
            let after = t.app.lines(of: "pinch", from: mark)
            let scales = after.compactMap(\.scale)
            #expect(scales.allSatisfy { $0 > 1.5 - 0.005 && $0 < 2 + 0.005 }, "\(scales)")
            #expect(zip(scales, scales.dropFirst()).allSatisfy { $1 >= $0 - 1e-9 }, "\(scales)")
            #expect(abs((scales.last ?? 0) - 2) < 0.01, "\(scales)")
            #expect(!after.contains { $0.state == "cancelled" })
        }

        @Test(
            "XI 2.1 smooth scroll over the flower pans it (continuous, 40 pt an increment); with Ctrl it zooms",
            arguments: [false, true])
        func smoothScroll(ctrl: Bool) throws {
            let t = try TouchSession()
            defer { t.close() }
            let app = t.app
            let image = try app.region("image")
            app.move(to: image.center)
            if ctrl { app.connection.key(Keysym.controlL, pressed: true) }
            app.connection.sync()
            let pad = t.server.touchpad
            // The first event after the pointer came in sets the baseline (valuators are absolute).
            try pad.scroll(horizontal: 120, vertical: 120)
            try pad.sync()
            pause(0.3)
            for (h, v) in [(0.0, 60.0), (0.0, 60.0), (-30.0, 0.0)] {
                try pad.scroll(horizontal: h, vertical: v)
                try pad.sync()
                pause(0.02)
            }
            if ctrl { app.connection.key(Keysym.controlL, pressed: false) }
            app.connection.sync()
            if ctrl {
                let ended = try app.waitFor("imagePinch", "ended")
                // Down one click: ×1/1.1; the horizontal step does not zoom.
                #expect(abs((ended.scale ?? 0) - 1 / 1.1) < 1e-4, "\(summary(app.lines(of: "imagePinch")))")
                #expect(app.lines(of: "imagePan").isEmpty)
            } else {
                let ended = try app.waitFor("imagePan", "ended")
                let lines = app.lines(of: "imagePan")
                #expect(lines.map { $0.state ?? "" } == ["began", "changed", "changed", "ended"], "\(summary(lines))")
                #expect((ended.object["translation"] as? [NSNumber])?.map(\.doubleValue) == [10, -40], "\(ended)")
                #expect(ended.touches == 0)
            }
        }

        @Test(
            "An XI 2.4 touchpad pinch carries scale and angle to the view under the pointer",
            arguments: [
                ("pinch", ["pinch"]), ("rotate", ["rotation"]),
                ("image", ["imagePinch", "imageRotation"]),
            ])
        func touchpadPinch(region name: String, recognizers: [String]) throws {
            let t = try TouchSession()
            defer { t.close() }
            let app = t.app
            let rect = try app.region(name)
            app.move(to: rect.center + (rect.width * 0.1, rect.height * 0.1))
            app.connection.sync()
            let before = try app.screenshot()
            let pad = t.server.touchpad
            let steps: [(scale: Double, angle: Double)] = [
                (1.1, 4), (1.25, 6), (1.4, 8), (1.6, 12),
            ]
            try pad.pinch(.begin, scale: 1)
            for step in steps {
                pause(0.01)
                try pad.pinch(.update, scale: step.scale, angleDelta: step.angle)
            }
            pause(0.01)
            try pad.pinch(.end, scale: 1.6)
            try pad.sync()
            let degrees = steps.map(\.angle).reduce(0, +)
            for recognizer in recognizers {
                try app.waitFor(recognizer, "ended")
                let lines = app.lines(of: recognizer)
                let last = try #require(lines.last { $0.state == "changed" }, "\(summary(lines))")
                // XI2 carries the scale and the angle as 16.16 fixed point.
                if recognizer.lowercased().hasSuffix("pinch") {
                    let scale = lines.compactMap(\.scale).last ?? 0
                    #expect(abs(scale - 1.6) < 1e-4, "\(last)")
                } else {
                    let rotation = lines.compactMap(\.rotation).last ?? 0
                    #expect(abs(rotation - degrees * .pi / 180) < 1e-4, "\(last)")
                }
            }
            // The region gestures transform the image about its centre.
            let transform: ((Double, Double) -> (Double, Double))? =
                switch name {
                case "pinch": scaling(1.6)
                case "rotate": rotating(degrees * .pi / 180)
                default: nil
                }
            if let transform {
                let after = try pollScreenshot(app) { shot in
                    (try? app.imageMatch(before: before, after: shot, mapping: transform))
                        .map { $0.fraction > 0.9 } == true
                }
                let match = try app.imageMatch(before: before, after: after, mapping: transform)
                let unmoved = try app.imageMatch(before: before, after: after) { ($0, $1) }
                #expect(match.fraction > 0.9 && match.samples > 200, "\(match)")
                #expect(unmoved.fraction < match.fraction - 0.2, "\(unmoved)")
            }
        }
    }
}
