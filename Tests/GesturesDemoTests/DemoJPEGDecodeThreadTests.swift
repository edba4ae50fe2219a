import Dispatch
import GestureKit
import GestureTestSupport
import Synchronization
import Testing

@testable import GesturesDemo

/// The live window's picture decodes off the main thread: the first frame may show a 1/8
/// preview that the window's decode replaces, and a larger decode after a pinch runs on the
/// decode thread while the main queue (the window's loop) goes on. The decode thread is held at
/// a gate that only a job on the main queue opens: a decode made on the main thread would
/// never see it open (the gate gives up after 180 s, and the expectations fail). The limits are
/// long because the main queue is shared: tests of other suites that run a window on the main
/// thread in parallel can keep it busy for a minute.
@Suite
@MainActor struct DemoJPEGDecodeThreadTests {
    static let fixture = fixturesDirectory + "/red-blue.jpg"  // 64×48

    /// Holds the decode thread until `open()`; `denominators` says which decodes wait.
    final class Gate: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        /// Set when a held decode gave up waiting (nothing opened the gate within 180 s).
        private let gaveUpFlag = Atomic<Bool>(false)
        var gaveUp: Bool { gaveUpFlag.load(ordering: .sequentiallyConsistent) }
        func hold(_ image: DemoImage, when wait: @escaping @Sendable (Int) -> Bool) {
            image.decodeWillStart = { [self] d in
                if wait(d), self.semaphore.wait(timeout: .now() + 180) == .timedOut {
                    self.gaveUpFlag.store(true, ordering: .sequentiallyConsistent)
                }
            }
        }
        func open() { semaphore.signal() }
    }

    /// Lets the main queue run until `condition` holds, for at most 180 s (a decode that never
    /// hands over fails the expectations after it instead of hanging).
    static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<18_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// The window needs the full size (the picture's place in a 160×240 window is 140.8×105.6);
    /// its decode is held, so the 1/8 preview ends first and is handed over on the main queue
    /// and drawn; once the main queue lets the window's decode end, it replaces the preview and
    /// `onDecoded` is called again.
    @Test func previewFirstThenTheWindowsDecode() async throws {
        let image = try DemoImage(path: Self.fixture)
        let gate = Gate()
        gate.hold(image) { $0 != 8 }
        var decoded = 0
        image.onDecoded = { decoded += 1 }
        image.startDecoding(toFit: 160, height: 240)
        try image.prepareWithPreview(toFit: 160, height: 240)
        try await Self.waitUntil { decoded > 0 }
        #expect(decoded == 1)
        let first = image.pixels(forScale: 1, load: true)
        #expect([first.width, first.height] == [8, 6], "the preview is drawn first")
        DispatchQueue.main.async { gate.open() }
        try await Self.waitUntil { decoded > 1 }
        #expect(decoded == 2)
        let later = image.pixels(forScale: 1, load: true)
        #expect([later.width, later.height] == [64, 48], "the window's decode replaced the preview")
        #expect(!gate.gaveUp)
    }

    /// The pixel at the centre of the picture's place in a frame of `scene` drawn as the live
    /// window draws it, `0xRRGGBB`.
    static func centrePixel(_ scene: DemoScene) -> UInt32 {
        let c = scene.layout.image.center
        return DemoJPEGFirstFrameTests.frame(scene)[Int(c.y) * Int(scene.layout.size.width) + Int(c.x)]
    }

    /// The live window does not wait for its picture: with every decode held, preparing returns
    /// and a frame is drawn with the picture's place empty (the window's background); the main
    /// queue then opens the gate, and the frame after the hand-over shows the picture. (Had
    /// preparing waited, the main queue could not open the gate: the decodes give up after 180 s
    /// and `gaveUp` is set.)
    @Test func theFirstFrameDoesNotWaitForTheDecode() async throws {
        let image = try DemoImage(path: Self.fixture)
        let gate = Gate()
        gate.hold(image) { _ in true }
        var decoded = 0
        image.onDecoded = { decoded += 1 }
        let scene = DemoScene(size: Size(width: 160, height: 240), image: image)
        scene.imageCache = ScaledImageCache()
        image.startDecoding(toFit: 160, height: 240)  // the full size and the 1/8 preview
        try image.prepareWithPreview(toFit: 160, height: 240)
        #expect(image.awaitingFirstDecode)
        let bg = DemoRenderer.background
        let background =
            UInt32((bg.r * 255).rounded()) << 16 | UInt32((bg.g * 255).rounded()) << 8
            | UInt32((bg.b * 255).rounded())
        let before = Self.centrePixel(scene)
        #expect(before == background, "the picture's place is empty: \(String(before, radix: 16))")
        DispatchQueue.main.async {
            gate.open()
            gate.open()
        }
        try await Self.waitUntil { !image.awaitingFirstDecode && image.refining == nil }
        #expect(!gate.gaveUp, "preparing waited for the decode")
        #expect(decoded >= 1)
        let p = image.pixels(forScale: 1, load: true)
        #expect([p.width, p.height] == [64, 48], "the window's decode is drawn")
        scene.pictureDecoded()
        let after = Self.centrePixel(scene)
        #expect(after != background, "the picture is drawn: \(String(after, radix: 16))")
    }

    /// Replays and PNG output (no `onDecoded`) never draw a preview: `prepare` waits for the
    /// window's decode.
    @Test func exactRenderingWaitsForTheWindowsDecode() throws {
        let image = try DemoImage(path: Self.fixture)
        image.startDecoding(toFit: 160, height: 240)
        try image.prepare(toFit: 160, height: 240)
        let p = image.pixels(forScale: 1, load: true)
        #expect([p.width, p.height] == [64, 48])
    }

    /// Enlarged past the window's decode and settled (`load`): the call returns the pixels held
    /// at once, the main queue runs while the larger decode is made (the job that opens the gate
    /// is on it), and the larger pixels are drawn after `onDecoded`.
    @Test func largerDecodeLeavesTheMainQueueFree() async throws {
        let image = try DemoImage(path: Self.fixture)
        try image.prepare(toFit: 16, height: 24)  // the place is 14.1×10.6: 1/4, 16×12
        let gate = Gate()
        gate.hold(image) { _ in true }
        var decoded = 0
        image.onDecoded = { decoded += 1 }
        let held = image.pixels(forScale: 1, load: true)
        #expect([held.width, held.height] == [16, 12], "not decoded on the main thread: the held pixels")
        let again = image.pixels(forScale: 1, load: true)
        #expect(again.surface == held.surface, "asked again while it runs: no second decode")
        DispatchQueue.main.async { gate.open() }
        try await Self.waitUntil { decoded > 0 }
        #expect(decoded == 1)
        let larger = image.pixels(forScale: 1, load: true)
        #expect([larger.width, larger.height] == [64, 48])
        let back = image.pixels(forScale: 0.2, load: true)
        #expect([back.width, back.height] == [16, 12], "shown small again: the window's decode")
    }

    /// A larger decode no longer wanted when it ends (the picture was shown small again) is let
    /// go, not drawn.
    @Test func aDecodeNoLongerWantedIsNotDrawn() async throws {
        let image = try DemoImage(path: Self.fixture)
        try image.prepare(toFit: 16, height: 24)
        let gate = Gate()
        gate.hold(image) { _ in true }
        var decoded = 0
        image.onDecoded = { decoded += 1 }
        _ = image.pixels(forScale: 1, load: true)
        _ = image.pixels(forScale: 0.2, load: true)  // back at the window's size before it ends
        gate.open()
        // The decode thread's job ends; its hand-over on the main queue runs before this one.
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            image.zoomQueue.async { DispatchQueue.main.async { c.resume() } }
        }
        #expect(decoded == 0)
        let p = image.pixels(forScale: 1, load: false)
        #expect([p.width, p.height] == [16, 12])
    }
}
