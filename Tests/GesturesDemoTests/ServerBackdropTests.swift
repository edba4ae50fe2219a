import CCairo
import GestureKit
import GestureShellCore
import GestureTestSupport
import Testing

@testable import GesturesDemo

/// When the demo offers the X server its picture (`ServerBackdrop`): only while a pinch moves it
/// enlarged in the live window; the kiosk passes it on except around its PIN pad. (The frames
/// themselves: `RenderBackdropTests`, on Xvfb.)
@MainActor
@Suite("ServerBackdrop: when the demo offers its picture to the X server")
struct ServerBackdropTests {
    /// Two fingers spread about the picture's centre (×3 at the end), fed up to frame `steps` of 20.
    static func spread(_ d: ShellScene, centre c: Point, steps: Int) {
        let events = stroke(
            start: 0.1, steps: 20, dt: 0.016,
            [
                lerp(Point(x: c.x - 40, y: c.y), Point(x: c.x - 120, y: c.y)),
                lerp(Point(x: c.x + 40, y: c.y), Point(x: c.x + 120, y: c.y)),
            ])
        for e in events.prefix(steps + 1) { d.handle(e) }
    }

    @Test("a moving, enlarged picture is offered (its transform, the background pixel); at rest or unscaled it is not")
    func demo() throws {
        let image = try DemoImage(path: repositoryRoot + "/Resources/flower.png")
        let scene = DemoScene(size: Size(width: 1024, height: 768), image: image)
        scene.resize(to: Size(width: 1024, height: 768), at: 0)
        #expect(scene.serverBackdrop(scale: 1) == nil, "the exact renderer (no cache) offers nothing")
        scene.imageCache = ScaledImageCache()
        #expect(scene.serverBackdrop(scale: 1) == nil, "a picture at rest is drawn from its copy")
        Self.spread(scene, centre: scene.layout.image.center, steps: 15)
        let b = try #require(scene.serverBackdrop(scale: 2), "a pinch that enlarges the picture")
        #expect(b.width == 300 || b.width == 600 || b.width == 1200)
        #expect(b.xx > 2 * 2 * 300 / Double(b.width), "window pixels per picture pixel at scale 2")
        #expect(b.background == 0xFFF5_F5F0)
        let again = try #require(scene.serverBackdrop(scale: 2))
        #expect(again.identity == b.identity, "the same source is not uploaded again")
        // The layers above it: the regions and the label, and the label's change.
        #expect(scene.overlayExtent.count >= 5)
    }

    @Test("the kiosk passes the picture on, except while its PIN pad is up")
    func kiosk() throws {
        let image = try DemoImage(path: repositoryRoot + "/Resources/flower.png")
        let scene = DemoScene(size: Size(width: 1024, height: 768), image: image)
        let d = KioskDirector(scene: scene)
        d.resize(to: Size(width: 1024, height: 768), at: 0)
        scene.imageCache = ScaledImageCache()
        Self.spread(d, centre: scene.layout.image.center, steps: 15)
        #expect(d.serverBackdrop(scale: 1) != nil)
        d.showPinPad(PinPad(entered: 0))
        #expect(d.serverBackdrop(scale: 1) == nil)
    }
}
