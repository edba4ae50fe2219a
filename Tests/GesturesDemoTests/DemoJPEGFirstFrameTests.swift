import CCairo
import Dispatch
import GestureKit
import GestureTestSupport
import Testing

@testable import GesturesDemo

/// The frame that first shows the live window's picture does no resampling on the main thread:
/// the frame drawn while the decode runs (the picture's place empty) asks the decode thread to
/// make the picture's cached copy for that place right after the decode, and the frame after
/// the hand-over only copies it into place. What it shows is what the main thread's own copy
/// showed, pixel for pixel.
@Suite
@MainActor struct DemoJPEGFirstFrameTests {
    /// 64×48; its place in a 64×96 window is smaller than that, so the window's decode is the
    /// full size (with the 1/8 preview beside it) and the picture is drawn reduced.
    static let fixture = fixturesDirectory + "/red-blue.jpg"
    static let window = Size(width: 64, height: 96)

    /// A whole frame of `scene` as the live window draws it, its pixels.
    static func frame(_ scene: DemoScene) -> [UInt32] {
        let (w, h) = (Int(scene.layout.size.width), Int(scene.layout.size.height))
        let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(w), Int32(h))!
        defer { cairo_surface_destroy(s) }
        let cr = cairo_create(s)!
        DemoRenderer.draw(scene, into: cr, overlay: [], showTouches: false)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        let data = cairo_image_surface_get_data(s)!
        let stride = Int(cairo_image_surface_get_stride(s))
        return (0..<h).flatMap { y in
            (0..<w).map { x in UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self) & 0xFF_FFFF }
        }
    }

    @Test func theCopyIsMadeOnTheDecodeThread() async throws {
        let image = try DemoImage(path: Self.fixture)
        let gate = DemoJPEGDecodeThreadTests.Gate()
        gate.hold(image) { _ in true }
        let scene = DemoScene(size: Self.window, image: image)
        let cache = ScaledImageCache()
        scene.imageCache = cache
        image.onDecoded = { [weak scene] in scene?.pictureDecoded() }
        image.startDecoding(toFit: 64, height: 96)
        try image.prepareWithPreview(toFit: 64, height: 96)
        #expect(image.firstDecodeSize.map { [$0.width, $0.height] } == [64, 48], "the window's decode: full size")
        _ = Self.frame(scene)  // the picture's place empty; the copy is asked for
        DispatchQueue.main.async {
            gate.open()
            gate.open()
        }
        try await DemoJPEGDecodeThreadTests.waitUntil { !image.awaitingFirstDecode && image.refining == nil }
        #expect(!gate.gaveUp)
        let shown = Self.frame(scene)
        #expect(cache.builds == 0, "the frame made the copy on the main thread")
        #expect(cache.adopted == 1, "the decode thread's copy is drawn")

        // The same frame with the copy made on the main thread, as before: the same pixels.
        let exact = try DemoImage(path: Self.fixture)
        try exact.prepare(toFit: 64, height: 96)
        let reference = DemoScene(size: Self.window, image: exact)
        let referenceCache = ScaledImageCache()
        reference.imageCache = referenceCache
        let expected = Self.frame(reference)
        #expect(referenceCache.builds == 1)
        #expect(shown.count == expected.count)
        let differing = zip(shown, expected).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) pixels differ from the main thread's copy")
    }
}
