import CX11
import Foundation
import GestureTestSupport
import GesturesDemo
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// `gestures run` on Xvfb, driven through XTest: the mouse is one finger, Ctrl adds a
    /// mirrored second finger, every MPX master pointer is a finger (docs/DESIGN.md §5). Regions come
    /// from the app's own layout line; nothing is hard-coded.
    @Suite("gestures run on Xvfb + XTest")
    struct XvfbApp {
        @Test("A click in the tap region is a one-finger tap")
        func tap() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let tap = try app.region("tap")
            app.click(at: tap.center + (tap.width * 0.3, 0))
            let line = try app.waitFor("tap", "ended")
            #expect(line.kind == "tap")
            #expect(line.number("taps") == 1 && line.touches == 1, "\(line)")
            #expect(line.location.map { tap.contains($0) } == true, "\(line)")
            #expect(line.label == "Tapped")
        }

        @Test(
            "A fast drag in the swipe region is a swipe in its direction",
            arguments: ["right", "left", "up", "down"])
        func swipe(direction: String) throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let swipe = try app.region("swipe")
            let c = swipe.center
            let (dx, dy): (Double, Double) =
                switch direction {
                case "right": (swipe.width * 0.3, 0)
                case "left": (-swipe.width * 0.3, 0)
                case "up": (0, -swipe.height * 0.35)
                default: (0, swipe.height * 0.35)
                }
            // ≥ 50 pt at well over 300 pt/s: 10 motions 10 ms apart.
            try app.drag(straightPath(from: c + (-dx, -dy), to: c + (dx, dy), steps: 10))
            let line = try app.log.waitFor("swipe ended") { $0.isGesture("swipe", "ended") }.line
            #expect(line.direction == direction, "\(line)")
            #expect(line.label == "Swiped \(direction)", "\(line)")
            #expect(app.log.lines(from: 0).filter { $0.isGesture("swipe", "ended") }.count == 1)
        }

        @Test("A Ctrl-drag in the pinch region pinches with a mirrored second finger")
        func ctrlDragPinch() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let pinch = try app.region("pinch")
            let c = pinch.center
            let d0 = pinch.width * 0.12
            let d1 = pinch.width * 0.36
            try app.drag(
                straightPath(from: c + (d0, 0), to: c + (d1, 0), steps: 30), modifiers: [Keysym.controlL])
            try app.waitFor("pinch", "ended")
            let lines = app.lines(of: "pinch")
            #expect(lines.first?.state == "began", "\(summary(lines))")
            let last = try #require(lines.last { $0.state == "changed" }, "\(summary(lines))")
            let scale = try #require(lines.compactMap(\.scale).last)
            // The second finger is mirrored through the region's centre: distance 2d.
            #expect(abs(scale / (d1 / d0) - 1) < 0.02, "scale \(scale), expected \(d1 / d0)")
            #expect(last.touches == 2)
            #expect(last.location.map { abs($0.x - c.x) < 2 && abs($0.y - c.y) < 2 } == true)
            let final = lines.last { $0.scale != nil }
            #expect(final?.label?.hasPrefix(String(format: "Pinched, Scale: %.2f", scale)) == true)
        }

        @Test(
            "A Ctrl-drag around the rotate region's centre rotates (clockwise positive)",
            arguments: [Double.pi / 2, -Double.pi / 3])
        func ctrlDragRotation(angle: Double) throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let rotate = try app.region("rotate")
            let radius = min(rotate.width, rotate.height) * 0.45
            let path = arc(around: rotate.center, radius: radius, from: 0, to: angle, steps: 40)
            try app.drag(path, modifiers: [Keysym.controlL])
            try app.waitFor("rotation", "ended")
            let lines = app.lines(of: "rotation")
            #expect(lines.contains { $0.state == "changed" }, "\(summary(lines))")
            let rotation = try #require(lines.compactMap(\.rotation).last)
            #expect(abs(rotation / angle - 1) < 0.02, "rotation \(rotation), expected \(angle)")
            let final = lines.last { $0.rotation != nil }
            #expect(
                final?.label?.hasPrefix(String(format: "Rotated, Radians: %.2f", rotation)) == true)
        }

        @Test("Ctrl+Z shakes")
        func ctrlZShakes() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            app.keyChord([Keysym.controlL], Keysym.z)
            let line = try app.log.waitFor("shake line") {
                $0.isGesture("shake") || $0.type == "shake"
            }.line
            #expect(line.type == "shake" || line.state == "ended", "\(line)")
            #expect(line.label == nil || line.label == "Shaking things up!", "\(line)")
        }

        @Test(
            "Two MPX master pointers pinch, one finger each (master created while the app runs)",
            arguments: [("pinch", "pinch"), ("image", "imagePinch")])
        func mpxPinch(region name: String, recognizer: String) throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let rect = try app.region(name)
            let c = rect.center
            let d0 = min(rect.width, rect.height) * 0.15
            let d1 = d0 * 2.5
            let master = try session.connection.createMasterPointer("second")
            let second = try XConnection(session.display)
            defer { second.close() }
            second.setClientPointer(master)

            app.move(to: c + (d0, 0))
            app.move(to: c + (-d0, 0), on: second)
            session.connection.sync()
            second.sync()
            session.connection.button(1, pressed: true)
            second.button(1, pressed: true)
            for i in 1...25 {
                pause(0.01)
                let d = d0 + (d1 - d0) * Double(i) / 25
                app.move(to: c + (d, 0))
                app.move(to: c + (-d, 0), on: second)
                session.connection.sync()
                second.sync()
            }
            pause(0.01)
            session.connection.button(1, pressed: false)
            second.button(1, pressed: false)
            session.connection.sync()
            second.sync()
            try app.waitFor(recognizer, "ended")
            let lines = app.lines(of: recognizer)
            let last = try #require(lines.last { $0.state == "changed" }, "\(summary(lines))")
            let scale = try #require(lines.compactMap(\.scale).last)
            #expect(abs(scale / 2.5 - 1) < 0.02, "scale \(scale), expected 2.5")
            #expect(last.touches == 2)
        }

        @Test("A resize in the middle of a pinch relays out and the pinch goes on without a jump")
        func resizeDuringPinch() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let pinch = try app.region("pinch")
            let c = pinch.center
            let d0 = pinch.width * 0.1
            let d1 = pinch.width * 0.3
            let steps = 40
            var layoutIndex = 0
            var newLayout: Layout?
            try app.drag(
                straightPath(from: c + (d0, 0), to: c + (d1, 0), steps: steps),
                modifiers: [Keysym.controlL], midwayAfter: steps / 2
            ) {
                _ = try app.waitFor("pinch", "changed")
                layoutIndex = app.log.count
                session.connection.resize(app.window, width: 1200, height: 800)
                newLayout = try app.waitForLayout(after: layoutIndex)
            }
            try app.waitFor("pinch", "ended")
            let resized = try #require(newLayout)
            #expect(resized.width == 1200 / app.scale && resized.height == 800 / app.scale)
            #expect(try resized.region("pinch") != pinch, "the layout did not follow the resize")
            let lines = app.lines(of: "pinch")
            let states = lines.map { $0.state ?? "?" }
            #expect(states.first == "began" && states.last == "ended", "\(states)")
            #expect(!states.dropLast().contains { $0 == "ended" || $0 == "cancelled" })
            #expect(
                app.lines(of: "pinch", from: layoutIndex).contains { $0.state == "changed" },
                "no pinch change after the resize")
            let scales = lines.compactMap(\.scale)
            let perStep = (d1 - d0) / d0 / Double(steps)
            let jumps = zip(scales, scales.dropFirst()).map { abs($1 - $0) }
            #expect(jumps.allSatisfy { $0 < 3 * perStep + 0.01 }, "scales \(scales)")
            #expect(abs((scales.last ?? 0) / (d1 / d0) - 1) < 0.02, "scales \(scales)")
        }

        @Test("Screenshots: the region colours, then the image scaled by a pinch and moved by a pan")
        @MainActor
        func screenshots() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let before = try app.screenshot()
            let colors: [(String, DemoRenderer.Color)] = [
                ("tap", DemoRenderer.tapColor), ("swipe", DemoRenderer.swipeColor),
                ("pinch", DemoRenderer.pinchColor), ("rotate", DemoRenderer.rotateColor),
            ]
            let bg = DemoRenderer.background
            let background = rgb(bg.r, bg.g, bg.b)
            // Regions are translucent over the background (and the image, which is elsewhere).
            let alpha = DemoRenderer.regionAlpha
            func regionColor(_ c: DemoRenderer.Color) -> UInt32 {
                rgb(
                    c.r * alpha + bg.r * (1 - alpha), c.g * alpha + bg.g * (1 - alpha),
                    c.b * alpha + bg.b * (1 - alpha))
            }
            for (name, color) in colors {
                let rect = app.pixelRect(try app.region(name))
                let fraction = before.fraction(of: regionColor(color), in: rect)
                #expect(fraction > 0.6, "\(name) region: \(fraction) of its pixels in its colour")
            }
            let label = app.pixelRect(try app.region("label"))
            #expect(before.fraction(of: background, in: label) > 0.5)
            let regions = try colors.map { app.pixelRect(try app.region($0.0)) } + [label]
            let imageRect = try app.region("image")
            let image = app.pixelRect(imageRect)
            let flower = 1 - before.fraction(of: background, in: image, tolerance: 12)
            #expect(flower > 0.2, "the image area is \(flower) non-background")

            // Pinch ×1.5 in the pinch region: the image scales about its centre.
            let pinch = try app.region("pinch")
            try app.drag(
                straightPath(
                    from: pinch.center + (pinch.width * 0.16, 0),
                    to: pinch.center + (pinch.width * 0.24, 0), steps: 16),
                modifiers: [Keysym.controlL])
            try app.waitFor("pinch", "ended")
            let scale = try #require(app.lines(of: "pinch").last { $0.scale != nil }?.scale)
            #expect(abs(scale - 1.5) < 0.03)
            let scaled = try pollScreenshot(app) { shot in
                before.match(shot, in: image, ignoring: background, excluding: regions) { x, y in
                    (image.midX + (x - image.midX) * scale, image.midY + (y - image.midY) * scale)
                }.fraction > 0.9
            }
            let scaledMatch = before.match(scaled, in: image, ignoring: background, excluding: regions) { x, y in
                (image.midX + (x - image.midX) * scale, image.midY + (y - image.midY) * scale)
            }
            let unscaledMatch = before.match(scaled, in: image, ignoring: background, excluding: regions) { ($0, $1) }
            #expect(scaledMatch.fraction > 0.9 && scaledMatch.samples > 200, "\(scaledMatch)")
            #expect(unscaledMatch.fraction < scaledMatch.fraction - 0.2, "\(unscaledMatch)")

            // Pan the image by (dx, dy): the picture follows the finger.
            let start = imageRect.center + (-imageRect.width * 0.1, imageRect.height * 0.1)
            let (dx, dy) = (imageRect.width * 0.25, -imageRect.height * 0.1)
            try app.drag(straightPath(from: start, to: start + (dx, dy), steps: 20), rest: 0.07)
            try app.waitFor("imagePan", "ended")
            // The picture follows the finger: by the pan's own translation (XTest moves whole
            // pixels, so it is the requested one rounded).
            let panned = try #require(
                app.lines(of: "imagePan").last { $0.object["translation"] != nil })
            let translation = try #require(panned.object["translation"] as? [NSNumber])
            let (tdx, tdy) = (translation[0].doubleValue, translation[1].doubleValue)
            #expect(abs(tdx - dx) < 1.5 && abs(tdy - dy) < 1.5, "\(panned)")
            let (pdx, pdy) = (tdx * app.scale, tdy * app.scale)
            let inner = LayoutRect(
                x: image.midX - image.width * 0.6, y: image.midY - image.height * 0.6,
                width: image.width * 1.2, height: image.height * 1.2)
            let moved = try pollScreenshot(app) { shot in
                scaled.match(shot, in: inner, ignoring: background, excluding: regions) { ($0 + pdx, $1 + pdy) }
                    .fraction > 0.9
            }
            let movedMatch = scaled.match(moved, in: inner, ignoring: background, excluding: regions) {
                ($0 + pdx, $1 + pdy)
            }
            #expect(movedMatch.fraction > 0.9 && movedMatch.samples > 200, "\(movedMatch)")
            for (name, color) in colors where name != "pinch" && name != "rotate" {
                let rect = app.pixelRect(try app.region(name))
                #expect(moved.fraction(of: regionColor(color), in: rect) > 0.6)
            }
        }
    }
}

/// The first screenshot (within `timeout`) that satisfies `condition` — the app draws after it
/// logs — or the last one taken.
func pollScreenshot(
    _ app: GesturesApp, timeout: Double = 3, _ condition: (Screenshot) -> Bool
) throws -> Screenshot {
    var last = try app.screenshot()
    _ = try poll(timeout: timeout, interval: 0.02) { () throws -> Bool? in
        last = try app.screenshot()
        return condition(last) ? true : nil
    }
    return last
}
