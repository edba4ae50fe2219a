import BenchmarkScenes

// Runs N frames (argument 1, default 100 000) of the benchmark's pinch + rotate stream and prints
// the stream's position, so that nothing is optimized away. scripts/bench-instructions runs it
// under callgrind twice and divides the difference by the frames: instructions per frame, a
// figure the machine's load does not move.
@MainActor func runFrames() {
    let stream = PinchRotateStream()
    let frames = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
    for _ in 0..<frames { stream.step() }
    print(stream.position)
}
MainActor.assumeIsolated { runFrames() }
