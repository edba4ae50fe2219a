import Dispatch
import GestureTestSupport
import Testing

@testable import GesturesDemo

/// The live window's picture decodes off the main thread: the first frame may show a 1/8
/// preview that the window's decode replaces, and a larger decode after a pinch runs on the
/// decode thread while the main queue (the window's loop) goes on. The decode thread is held at
/// a gate that only a job on the main queue opens: a decode made on the main thread would
/// never see it open (the gate gives up after 10 s, and the expectations fail).
@Suite
@MainActor struct DemoJPEGDecodeThreadTests {
    static let fixture = fixturesDirectory + "/red-blue.jpg"  // 64×48

    /// Holds the decode thread until `open()`; `denominators` says which decodes wait.
    final class Gate: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        func hold(_ image: DemoImage, when wait: @escaping @Sendable (Int) -> Bool) {
            image.decodeWillStart = { [semaphore] d in
                if wait(d) { _ = semaphore.wait(timeout: .now() + 10) }
            }
        }
        func open() { semaphore.signal() }
    }

    /// Lets the main queue run until `condition` holds, for at most 10 s (a decode that never
    /// hands over fails the expectations after it instead of hanging).
    static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<1000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// The window needs the full size (the picture's place in a 160×240 window is 140.8×105.6);
    /// its decode is held, so the 1/8 preview ends first and is
    /// drawn; once the main queue lets the window's decode end, it replaces the preview and
    /// `onDecoded` is called.
    @Test func previewFirstThenTheWindowsDecode() async throws {
        let image = try DemoImage(path: Self.fixture)
        let gate = Gate()
        gate.hold(image) { $0 != 8 }
        var decoded = 0
        image.onDecoded = { decoded += 1 }
        image.startDecoding(toFit: 160, height: 240)
        try image.prepareWithPreview(toFit: 160, height: 240)
        let first = image.pixels(forScale: 1, load: true)
        #expect([first.width, first.height] == [8, 6], "the preview is drawn first")
        DispatchQueue.main.async { gate.open() }
        try await Self.waitUntil { decoded > 0 }
        #expect(decoded == 1)
        let later = image.pixels(forScale: 1, load: true)
        #expect([later.width, later.height] == [64, 48], "the window's decode replaced the preview")
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
