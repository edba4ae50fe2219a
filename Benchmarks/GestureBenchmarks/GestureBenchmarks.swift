import Benchmark
import CCairo
import GestureKit
import GesturesDemo

/// The demo scene fed a long two-finger pinch + rotate stream on the image (pan, pinch and
/// rotation recognizers active together, the image transform updated every frame), no event
/// log attached. One benchmark iteration = one frame of two touch moves, so the figures per
/// touch event are half the per-iteration ones. Budget (docs/performance.md): ≤ 300 ns per touch event,
/// 0 allocations per move event in steady state.
@MainActor
final class PinchRotateStream {
    let scene: DemoScene
    var frames: [TouchFrame] = []
    var index = 0
    var time = 0.0

    init() {
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

    @inline(__always)
    func step() {
        time += 0.004
        frames[index].timestamp = time
        scene.handle(.touches(frames[index]))
        index = (index + 1) & 4095
    }
}

nonisolated(unsafe) var stream: PinchRotateStream?

/// One full frame of the demo at 1280×800 with the image scaled and rotated, drawn with Cairo
/// into an ARGB32 image surface (what the X shell draws into before copying to the window).
/// Budget (docs/performance.md): ≤ 2 ms per frame.
@MainActor
final class FullFrame {
    let scene: DemoScene
    let surface: OpaquePointer
    let cr: OpaquePointer

    init() {
        scene = DemoScene(size: Size(width: 1280, height: 800))
        scene.perform(.scaleUp, at: 0)
        scene.perform(.scaleUp, at: 0)
        scene.perform(.rotateClockwise, at: 0)
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1280, 800)
        cr = cairo_create(surface)
        draw()
    }

    func draw() {
        scene.draw(into: cr, overlay: [], showTouches: false)
        cairo_surface_flush(surface)
    }
}

nonisolated(unsafe) var fullFrame: FullFrame?

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        maxDuration: .seconds(3),
        maxIterations: 200_000)

    // One iteration is 1000 frames (scalingFactor .kilo: results read per frame). The closure
    // runs on the main actor, so the hop to it happens before the measurement starts: the
    // unscaled malloc count (`--scale`) is that of 1000 frames alone (counting the hop's own ~17
    // allocations would hide a rare allocation in the frames).
    Benchmark(
        "DemoScene pinch+rotate frame (2 touch moves)",
        configuration: .init(scalingFactor: .kilo)
    ) { @MainActor benchmark async in
        if stream == nil { stream = PinchRotateStream() }
        let s = stream!
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { s.step() }
        benchmark.stopMeasurement()
    }

    // What package-benchmark's own measurement costs per iteration with the default metrics:
    // it allocates (16 times with benchmark 1.38 on Linux, 0 with mallocCountTotal alone), and
    // those allocations land in every benchmark's unscaled malloc count. scripts/bench-gate
    // subtracts this from the pinch+rotate frames' count.
    Benchmark(
        "Measurement overhead (empty iteration)",
        configuration: .init(scalingFactor: .kilo, maxDuration: .seconds(1))
    ) { @MainActor benchmark async in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(i) }
        benchmark.stopMeasurement()
    }

    Benchmark("DemoScene full frame 1280x800, image scaled and rotated (Cairo)") { benchmark async in
        let iterations = benchmark.scaledIterations
        await MainActor.run { if fullFrame == nil { fullFrame = FullFrame() } }
        benchmark.startMeasurement()
        await MainActor.run {
            let f = fullFrame!
            for _ in iterations { f.draw() }
        }
        benchmark.stopMeasurement()
    }

    parseBenchmarks()
}
