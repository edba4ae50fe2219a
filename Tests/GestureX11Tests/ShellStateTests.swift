import GestureKit
import GestureTestSupport
import Testing

@testable import GestureX11

/// The parts of the shell's state that stand alone (no X server): the window's lifecycle and
/// the input pipeline's stamping of what it feeds.
@Suite("X11 shell state parts (no server)")
struct ShellStateTests {
    @Test("The window's lifecycle: mapped, exposed, ready in order; each query from its stage")
    func lifecycleForward() {
        var w = WindowLifecycle.live(.unmapped)
        #expect(!w.hasBeenMapped && !w.hasBeenExposed && !w.isReady && w.windowExists && !w.isClosed)
        let r1 = w.framePresented()
        #expect(!r1, "no frame before an exposure")
        #expect(w == .live(.unmapped))
        w.mapRequested()
        #expect(w == .live(.mapping) && !w.hasBeenMapped)
        let r2 = w.mapNotified()
        #expect(r2, "the first map is reported once")
        #expect(w == .live(.mapped) && w.hasBeenMapped && !w.hasBeenExposed)
        let r3 = w.mapNotified()
        #expect(!r3, "a map after an unmap (iconified, restored) is not the first")
        w.exposed()
        #expect(w == .live(.exposed) && w.hasBeenExposed && !w.isReady)
        let r4 = w.framePresented()
        #expect(r4, "the first frame is the ready one")
        #expect(w == .live(.ready) && w.isReady)
        let r5 = w.framePresented()
        #expect(!r5, "later frames are not")
        w.exposed()
        w.mapRequested()
        #expect(w == .live(.ready), "stages never go back")
    }

    @Test("Destroyed by another client: the stage is kept, the window is not destroyed again")
    func lifecycleDestroyed() {
        var w = WindowLifecycle.live(.unmapped)
        w.mapRequested()
        let r6 = w.mapNotified()
        #expect(r6)
        w.destroyedByOther()
        #expect(w == .destroyed(.mapped))
        #expect(w.hasBeenMapped && !w.hasBeenExposed && !w.windowExists && !w.isClosed)
        w.destroyedByOther()
        #expect(w == .destroyed(.mapped))
        w.close()
        #expect(w == .closed && w.isClosed && !w.windowExists && !w.hasBeenMapped && !w.isReady)
        let r7 = w.mapNotified()
        let r7b = w.framePresented()
        #expect(!r7 && !r7b)
        w.exposed()
        #expect(w == .closed, "a closed shell hears nothing")
    }

    @Test("An Expose before the MapNotify implies the map; the late MapNotify is not a first map")
    func lifecycleExposeFirst() {
        var w = WindowLifecycle.live(.mapping)
        w.exposed()
        #expect(w == .live(.exposed) && w.hasBeenMapped)
        let r8 = w.mapNotified()
        #expect(!r8)
    }

    @Test("Stamping: touch frames fed at one time are spaced by 1 µs; lastFed only grows")
    @MainActor
    func pipelineStamp() {
        var input = InputPipeline(translator: InputTranslator(simulateModifier: .ctrl) { _ in .zero })
        let s1 = input.stamp(frame(1, Finger.down(1, 10, 10)))
        #expect(s1.timestamp == 1)
        #expect(input.lastTouchFrameTime == 1 && input.lastFed == 1)
        // Same time, then an earlier one: each goes 1 µs after the last.
        let s2 = input.stamp(frame(1, Finger.move(1, 11, 10)))
        #expect(s2.timestamp == quantize(1.000_001))
        let s3 = input.stamp(frame(0.5, Finger.move(1, 12, 10)))
        #expect(s3.timestamp == quantize(1.000_002))
        #expect(input.lastFed == quantize(1.000_002))
        // A later frame keeps its time.
        let s4 = input.stamp(frame(2, Finger.up(1, 12, 10)))
        #expect(s4.timestamp == 2)
        // Any other event ends the run of touch frames: the next frame keeps its own time.
        let shake = input.stamp(.shake(timestamp: 1.5))
        #expect(shake.timestamp == 1.5 && input.lastTouchFrameTime == nil && input.lastFed == 2)
        let s5 = input.stamp(frame(1.8, Finger.down(2, 5, 5)))
        #expect(s5.timestamp == 1.8)
        #expect(input.lastFed == 2, "the last input time does not go back")
    }
}
