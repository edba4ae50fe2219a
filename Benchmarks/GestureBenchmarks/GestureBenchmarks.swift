import Benchmark
import BenchmarkScenes
import CCairo
import GestureKit
import GesturesDemo

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
