import CCairo
import Foundation
import GestureKit
import GestureShellCore
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

/// The bundled flower stays findable: pushed aside at any scale its visible (mostly opaque)
/// pixels stay in the window, not just its box's transparent margin, and at a tenth of its
/// size two fingers placed on and around it still pinch it larger. On a virtual clock, with the
/// whole event log (1024×768: image [343.04,414.72,337.92,337.92], centre (512, 583.68)).
@Suite @MainActor struct FindableFlowerTests {
    static let flowerPath = repositoryRoot + "/Resources/flower.png"
    static let window = Size(width: 1024, height: 768)

    /// A scene showing the bundled flower, its log, `keys` performed first, then `events`.
    static func logged(keys: [KeyCommand] = [], _ events: [InputEvent]) throws -> (DemoScene, [String]) {
        let scene = DemoScene(size: window, image: try DemoImage(path: flowerPath))
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        for (i, k) in keys.enumerated() { scene.perform(k, at: -10 + Double(i) * 0.01) }
        replay(events, through: scene)
        return (scene, log)
    }

    /// How many of the flower's mostly opaque pixels (alpha ≥ 128 in flower.png) are shown in
    /// the window under `matrix` (image-local points → window points, as logged), sampled on a
    /// 2-pt grid: read straight from the PNG, not from the scene's idea of where they are.
    static func opaqueSamplesInWindow(matrix m: GestureKit.AffineTransform, bounds: Size) throws -> Int {
        let png = try DemoImage(path: flowerPath)
        let s = png.surface
        cairo_surface_flush(s)
        let (w, h) = (Int(cairo_image_surface_get_width(s)), Int(cairo_image_surface_get_height(s)))
        let rowBytes = Int(cairo_image_surface_get_stride(s))
        let data = cairo_image_surface_get_data(s)!
        let inverse = m.inverted()
        var count = 0
        for y in stride(from: 1.0, to: window.height, by: 2) {
            for x in stride(from: 1.0, to: window.width, by: 2) {
                let p = Point(x: x, y: y).applying(inverse)
                let px = Int((p.x / bounds.width * Double(w)).rounded(.down))
                let py = Int((p.y / bounds.height * Double(h)).rounded(.down))
                guard (0..<w).contains(px), (0..<h).contains(py) else { continue }
                let alpha = UnsafeRawPointer(data + py * rowBytes + px * 4).load(as: UInt32.self) >> 24
                if alpha >= 128 { count += 1 }
            }
        }
        return count
    }

    /// The image matrix and bounds of a `final` log line.
    static func finalMatrix(_ line: String) throws -> (GestureKit.AffineTransform, Size) {
        func numbers(_ key: String) throws -> [Double] {
            let tail = try #require(line.components(separatedBy: "\"\(key)\":[").last)
            return try #require(tail.split(separator: "]").first).split(separator: ",").compactMap { Double($0) }
        }
        let (m, b) = (try numbers("matrix"), try numbers("bounds"))
        try #require(m.count == 6 && b.count == 2, "\(line)")
        return (
            GestureKit.AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]),
            Size(width: b[0], height: b[1])
        )
    }

    /// At 10×, dragged far off each side (one finger from the lower part of the window, which
    /// the regions do not cover): the picture stops with some of the flower still in the window.
    @Test(arguments: [(-4000.0, 0.0), (4000.0, 0.0), (0.0, -4000.0), (0.0, 4000.0), (-4000.0, -4000.0)])
    func enlargedFlowerPushedAsideStaysInView(dx: Double, dy: Double) throws {
        let start = Point(x: 700, y: 700)
        let (_, log) = try Self.logged(
            keys: Array(repeating: .scaleUp, count: 30),
            stroke(start: 0, steps: 40, [lerp(start, Point(x: start.x + dx, y: start.y + dy))]))
        let (m, bounds) = try Self.finalMatrix(try #require(log.last))
        #expect(abs(m.a - 10) < 1e-9, "scale 10: \(m)")
        let seen = try Self.opaqueSamplesInWindow(matrix: m, bounds: bounds)
        // 22 pt about the anchor are opaque at 10× (the flower's centre is 30 px wide): at least
        // a 22×22-pt quarter of that disc, 11×11 samples.
        #expect(seen >= 121, "dragged by (\(dx), \(dy)): \(seen) opaque samples in the window, matrix \(m)")
    }

    /// The same at 10× and turned by 45° (keys), dragged off to the left.
    @Test func turnedFlowerPushedAsideStaysInView() throws {
        let start = Point(x: 700, y: 700)
        let (_, log) = try Self.logged(
            keys: Array(repeating: .scaleUp, count: 30) + Array(repeating: .rotateClockwise, count: 3),
            stroke(start: 0, steps: 40, [lerp(start, Point(x: start.x - 4000, y: start.y - 1000))]))
        let (m, bounds) = try Self.finalMatrix(try #require(log.last))
        #expect(abs(m.a * m.a + m.b * m.b - 100) < 1e-3 && m.b != 0, "turned at 10×: \(m)")
        #expect(try Self.opaqueSamplesInWindow(matrix: m, bounds: bounds) >= 121, "\(m)")
    }

    /// At 0.1× (34 pt wide), one finger on the flower and one 40 pt to the right of its centre,
    /// spread to 300 pt apart: the image pinch (not the background) takes both and scales it ×6.
    @Test func tinyFlowerIsPinchedLargerByFingersOnAndAroundIt() throws {
        let c = Point(x: 512, y: 583.68)
        let (scene, log) = try Self.logged(
            keys: Array(repeating: .scaleDown, count: 60),
            stroke(
                start: 0, steps: 10,
                [
                    lerp(Point(x: c.x - 10, y: c.y), Point(x: c.x - 100, y: c.y)),
                    lerp(Point(x: c.x + 40, y: c.y), Point(x: c.x + 200, y: c.y)),
                ]))
        #expect(abs(scene.imageScale - 0.6) < 1e-9, "\(scene.imageScale)")
        #expect(
            log.filter { $0.contains("imagePinch") && !$0.contains(#""changed""#) } == [
                #"{"type":"gesture","t":0.016,"recognizer":"imagePinch","kind":"pinch","state":"began","x":530.5,"y":583.68,"touches":2,"scale":1.5,"velocity":31.25,"label":"Pinched, Scale: 1.50, Velocity: 31.25"}"#,
                #"{"type":"gesture","t":0.21,"recognizer":"imagePinch","kind":"pinch","state":"ended","x":562.0,"y":583.68,"touches":2,"scale":6.0,"velocity":0.0,"label":"Pinched, Scale: 6.00, Velocity: 0.00"}"#,
            ], "\(log.joined(separator: "\n"))")
        #expect(
            log.last
                // ×6 about the fingers' midpoint, which moved from 527 to 562: the centre from 512 to
                // 562 − 6·15 = 472, so tx = 472 − 0.6·168.96.
                == #"{"type":"final","label":"Pinched, Scale: 6.00, Velocity: 0.00","image":{"matrix":[0.6,0.0,0.0,0.6,370.624,482.304],"bounds":[337.92,337.92]}}"#,
            "\(log.joined(separator: "\n"))")
    }
}
