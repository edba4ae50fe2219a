import Foundation
import GestureKit
import GestureTestSupport
import GesturesDemo
import Testing

@Suite @MainActor struct RenderTests {
    @Test func touchesAreDrawnAndRedrawnWhenShown() throws {
        let scene = DemoScene()
        // Two fingers in the label area: no recognizer of the scene takes them (edgePan fails).
        scene.handle(frame(0, Finger.down(1, 300, 40), Finger.down(2, 700, 40)))
        let path = scratch + "/touches.png"
        try DemoRenderer.writePNG(size: scene.layout.size, to: path) { cr in
            scene.draw(into: cr, overlay: [Point(x: 512, y: 300)], showTouches: true)
        }
        #expect(!scene.needsDisplay)
        #expect(scene.touchLocations == [Point(x: 300, y: 40), Point(x: 700, y: 40)])
        scene.handle(frame(0.02, Finger.move(1, 310, 40)))
        #expect(scene.needsDisplay)
        // Without showing touches, a move that changes nothing else needs no frame.
        try DemoRenderer.writePNG(size: scene.layout.size, to: scratch + "/no-touches.png") { cr in
            scene.draw(into: cr, overlay: [], showTouches: false)
        }
        scene.handle(frame(0.04, Finger.move(1, 320, 40)))
        #expect(!scene.needsDisplay)
        scene.perform(.scaleUp, at: 0.05)
        #expect(scene.needsDisplay)
    }

    @Test func renderPNGWritesTheWindowSize() throws {
        let scene = DemoScene(size: Size(width: 333.5, height: 200))
        let path = scratch + "/odd.png"
        try DemoRenderer.renderPNG(scene, to: path)
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        func be32(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(be32(16) == 334 && be32(20) == 200)
    }

    @Test func unwritablePathThrows() {
        #expect(throws: RenderError.self) {
            try DemoRenderer.renderPNG(DemoScene(), to: "/nonexistent/dir/x.png")
        }
    }
}
