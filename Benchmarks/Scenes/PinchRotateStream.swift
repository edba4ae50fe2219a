import GestureKit
import GesturesDemo

/// The demo scene fed a long two-finger pinch + rotate stream on the image (pan, pinch and
/// rotation recognizers active together, the image transform updated every frame), no event
/// log attached. One benchmark iteration = one frame of two touch moves, so the figures per
/// touch event are half the per-iteration ones. Budget (docs/performance.md): ≤ 300 ns per touch event,
/// 0 allocations per move event in steady state.
@MainActor
public final class PinchRotateStream {
    public let scene: DemoScene
    @usableFromInline var frames: [TouchFrame] = []
    @usableFromInline var index = 0
    /// Where the stream is (a frame index that wraps at 4096).
    public var position: Int { index }
    @usableFromInline var time = 0.0

    public init() {
        scene = DemoScene(size: Size(width: 1280, height: 800))
        let c = scene.imageView.frame.center
        // Fingers 80 pt apart about the image centre, then a long stream that breathes between
        // 60 and 140 pt apart and turns slowly (precomputed: building frames is not measured).
        for i in 0..<4096 {
            let phase = Double(i) / 4096
            let r = 50 + 20 * Self.sin(phase * 40)
            let a = phase * 6
            let dx = r * Self.cos(a)
            let dy = r * Self.sin(a)
            frames.append(
                TouchFrame(
                    timestamp: 0,
                    changes: [
                        TouchChange(id: 1, phase: .moved, location: Point(x: c.x - dx, y: c.y - dy)),
                        TouchChange(id: 2, phase: .moved, location: Point(x: c.x + dx, y: c.y + dy)),
                    ]))
        }
        scene.handle(
            .touches(
                TouchFrame(
                    timestamp: 0,
                    changes: [
                        TouchChange(id: 1, phase: .began, location: Point(x: c.x - 50, y: c.y)),
                        TouchChange(id: 2, phase: .began, location: Point(x: c.x + 50, y: c.y)),
                    ])))
        // Warm up: the gesture begins and every buffer reaches its steady size.
        for _ in 0..<64 { step() }
    }

    static func sin(_ x: Double) -> Double { AffineTransform(rotationAngle: x).b }
    static func cos(_ x: Double) -> Double { AffineTransform(rotationAngle: x).a }

    @inlinable
    public func step() {
        time += 0.004
        frames[index].timestamp = time
        scene.handle(.touches(frames[index]))
        index = (index + 1) & 4095
    }
}
