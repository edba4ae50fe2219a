import CX11
import Foundation
import GestureTestSupport
import GesturesDemo
import Testing

extension XServerTests {
    /// The bundled flower at 4K: a full-screen 3840×2160 window draws the picture
    /// about 950 px wide, which the 300 px flower.png could only blur; flower@4x.png is used.
    @Suite("gestures run: the flower is crisp at 4K")
    struct Crisp4K {
        /// How many steps between horizontal neighbours (green channel) inside `box` are steep
        /// (≥ 80 of 255): a crisp edge is one or two steep steps, an enlarged blur none.
        static func steepSteps(_ shot: Screenshot, in box: LayoutRect) -> Int {
            var count = 0
            for y in Int(box.y)..<Int(box.y + box.height) {
                for x in Int(box.x)..<Int(box.x + box.width) - 1 {
                    let (p, q) = (shot.pixel(x, y), shot.pixel(x + 1, y))
                    if abs(Int((p >> 8) & 0xFF) - Int((q >> 8) & 0xFF)) >= 80 { count += 1 }
                }
            }
            return count
        }

        @Test("3840×2160: many times the steep edges of the 300 px picture alone")
        func flowerAt4K() throws {
            let exe = try gesturesBinary()
            let flower = try #require(ResourceLocator.path(of: "flower.png", override: nil, executable: exe))
            let only300 = try TemporaryDirectory(prefix: "gestures-only300")
            try FileManager.default.copyItem(atPath: flower, toPath: only300.file("flower.png"))
            var steps: [String: Int] = [:]
            for (name, environment) in [
                ("renditions", [String: String]()), ("300 px", ["GESTURES_RESOURCES": only300.path]),
            ] {
                let server = try TestXServer(width: 3840, height: 2160)
                let session = try AppSession(display: server.display, size: "3840x2160", environment: environment) {
                    server.stop()
                }
                defer { session.close() }
                let app = session.app
                let image = app.pixelRect(try app.region("image"))
                #expect(image.width > 900, "\(image)")
                // The flower's head: the upper middle of the picture (past the settle delay). Measured:
                // 2818 steep steps with the renditions, 0 without.
                pause(0.3)
                let head = LayoutRect(
                    x: image.x + image.width * 0.2, y: image.y + image.height * 0.05, width: image.width * 0.6,
                    height: image.height * 0.6)
                steps[name] = Self.steepSteps(try app.screenshot(), in: head)
                #expect(app.stderr.isEmpty, "\(app.stderr)")
            }
            let (crisp, soft) = (steps["renditions"] ?? 0, steps["300 px"] ?? 0)
            #expect(crisp > 1000 && soft * 10 < crisp, "\(crisp) steep steps with the renditions, \(soft) without")
        }
    }
}
