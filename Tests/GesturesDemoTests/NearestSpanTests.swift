import CPixelSpan
import Foundation
import GestureTestSupport
import Testing

/// `gestures_nearest_span` (the inner loop of NearestPainter) against the rule it implements,
/// written out here one pixel at a time: pixel i is source pixel ((v + i·dv) >> 32,
/// (u + i·du) >> 32) with its top byte set. Random transforms (every angle, scales from 0.3× to
/// 12×), random sources (1 to 300 pixels a side, rows longer than the picture), spans that end
/// on the source's last row and column, so the vector path's two-row loads are checked near the
/// end of the buffer.
@Suite struct NearestSpanTests {
    /// The seed, printed; `NEAREST_SPAN_SEED` replays one.
    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["NEAREST_SPAN_SEED"], let s = UInt64(text) { return s }
        return UInt64.random(in: 0..<1_000_000_000)
    }()

    @Test func vectorPathIsChosenWhereTheProcessorHasAVX2() throws {
        #if arch(x86_64)
            let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            let avx2 = cpuinfo.split(separator: "\n").contains { $0.hasPrefix("flags") && $0.contains(" avx2") }
            let forcedScalar = ProcessInfo.processInfo.environment["GESTURES_SCALAR_SPANS"] == "1"
            #expect(gestures_nearest_span_vectorized() == (avx2 && !forcedScalar ? 1 : 0))
        #else
            #expect(gestures_nearest_span_vectorized() == 0)
        #endif
    }

    @Test func spansEqualTheOnePixelRule() {
        print("NearestSpanTests seed \(Self.seed) (replay: NEAREST_SPAN_SEED=\(Self.seed))")
        var random = SplitMix64(seed: Self.seed)
        let one = 4_294_967_296.0
        var checked = 0
        var mismatches = 0
        for _ in 0..<3000 {
            let width = Int.random(in: 1...300, using: &random)
            let height = Int.random(in: 1...300, using: &random)
            let stride = width + Int.random(in: 0...9, using: &random)
            var source = [UInt32](repeating: 0, count: stride * height)
            for i in source.indices { source[i] = UInt32(truncatingIfNeeded: random.next()) & 0x00FF_FFFF }
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
            let scale = Double.random(in: 0.3...12, using: &random)
            let du = Int64((cos(angle) / scale * one).rounded())
            let dv = Int64((sin(angle) / scale * one).rounded())
            // Half the spans start anywhere; the rest in the last two rows or columns.
            let nearEnd = Bool.random(using: &random)
            let column = nearEnd && Bool.random(using: &random) ? max(0, width - 2) : 0
            let row = nearEnd ? max(0, height - 2) : 0
            let u0 = Int64(Double.random(in: Double(column)..<Double(width), using: &random) * one)
            let v0 = Int64(Double.random(in: Double(row)..<Double(height), using: &random) * one)
            func inside(_ i: Int64) -> Bool {
                let c = (u0 &+ i &* du) >> 32
                let r = (v0 &+ i &* dv) >> 32
                return c >= 0 && c < width && r >= 0 && r < height
            }
            var count: Int64 = 0
            while count < 400 && inside(count) { count += 1 }
            var out = [UInt32](repeating: 0, count: Int(count) + 1)
            out[Int(count)] = 0xDEAD_BEEF
            source.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    gestures_nearest_span(o.baseAddress!, Int(count), s.baseAddress!, stride, height, u0, v0, du, dv)
                }
            }
            for i in 0..<count {
                let expected = source[Int((v0 + i * dv) >> 32) * stride + Int((u0 + i * du) >> 32)] | 0xFF00_0000
                if out[Int(i)] != expected { mismatches += 1 }
            }
            if out[Int(count)] != 0xDEAD_BEEF { mismatches += 1 }
            checked += Int(count)
        }
        #expect(mismatches == 0, "seed \(Self.seed)")
        #expect(checked > 100_000)
    }
}
