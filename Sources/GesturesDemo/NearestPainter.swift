import CCairo
import CPixelSpan

/// Draws an opaque picture under an affine transform with the nearest pixel, straight into the
/// pixels of a Cairo image surface, and the background where the picture is not: the motion
/// frames of an enlarged picture (see ``ScaledImageCache``). In the live window on a server with
/// RENDER the X server resamples them instead (`RenderBackdrop`, the same sampling rule); this is
/// the path for servers without it, and what the server's frames are tested against.
///
/// Why not Cairo: Cairo hands a rotated, scaled source to pixman's general path (a fetch of the
/// transformed pixels into a scanline buffer, then the OVER combiner onto a background painted
/// first), about 3–4 ns a pixel; a frame that covers a 3840×2160 window cost 30–40 ms of CPU.
/// Here each destination pixel is one load and one store: the source's pixel centre positions
/// step along the row in 32.32 fixed point, so the work is independent of the clip's origin
/// (an incremental frame equals a whole one), and each row is split into the part that lies
/// inside the picture (no bounds checks) and the parts outside it (the background). The part
/// inside a turned picture is written by `gestures_nearest_span` (C, module CPixelSpan): on a
/// processor with AVX2, 8 pixels from two 8-pixel loads and in-register permutes when the
/// picture is enlarged, the same pixels as the one-load-a-pixel loop it falls back to.
///
/// Sampling follows pixman's nearest filter: destination pixel (x, y) shows the source pixel
/// that contains the inverse transform of its centre (x + ½, y + ½), moved by pixman's
/// 1/65536 so that a centre on a pixel edge takes the pixel before it.
struct NearestPainter {
    /// The source's pixels (32 bits, `0x??RRGGBB`, opaque: the top byte is set when written).
    let source: UnsafePointer<UInt32>
    let sourceWidth: Int
    let sourceHeight: Int
    /// The source's row length in pixels.
    let sourceStride: Int
    /// Destination pixel → source pixel.
    let inverse: cairo_matrix_t
    /// The pixel written where the picture is not (`0xFFRRGGBB`).
    let background: UInt32
    /// Colours composited over what is painted, in order, each inside its box: the demo's
    /// translucent regions over the moving picture, blended while the row is still in the cache
    /// instead of in a second pass over the frame (see ``Tint``).
    var tints: [Tint] = []

    /// A translucent colour over a whole-pixel box (device pixels, half-open), composited as
    /// Cairo composites it (`gestures_tint_span`): the part of a region's fill that covers
    /// whole pixels. Its antialiased edge is left to Cairo.
    struct Tint: Equatable {
        var x0: Int
        var y0: Int
        var x1: Int
        var y1: Int
        /// Premultiplied `0xAARRGGBB`, as pixman holds a Cairo colour.
        var solid: UInt32
    }

    /// One unit in 32.32 fixed point.
    private static let one = 4_294_967_296.0
    /// pixman's rounding of nearest sampling: 1/65536 of a pixel, in 32.32.
    private static let pixmanEpsilon = 1 << 16

    /// Writes the pixels of `rect` (destination pixels, within the surface) of the 32-bit image
    /// whose first row is at `data`, `stride` bytes apart. False, drawing nothing, when the
    /// rectangle's source positions are out of the fixed-point range (a transform no gesture
    /// makes: the caller draws another way).
    func paint(into data: UnsafeMutableRawPointer, stride: Int, rect: (x: Int, y: Int, width: Int, height: Int))
        -> Bool
    {
        let x0 = rect.x
        let x1 = rect.x + rect.width
        let m = inverse
        for (px, py) in [(x0, rect.y), (x1, rect.y), (x0, rect.y + rect.height), (x1, rect.y + rect.height)] {
            let u = m.xx * Double(px) + m.xy * Double(py) + m.x0
            let v = m.yx * Double(px) + m.yy * Double(py) + m.y0
            guard abs(u) < 1e9, abs(v) < 1e9, abs(m.xx) < 1e4, abs(m.yx) < 1e4 else { return false }
        }
        let du = Int((m.xx * Self.one).rounded())
        let dv = Int((m.yx * Self.one).rounded())
        if m.xy == 0 && dv == 0 {
            paintAxisAligned(into: data, stride: stride, rect: rect, du: du)
            return true
        }
        let sw = UInt(sourceWidth)
        let sh = UInt(sourceHeight)
        let src = source
        let srcStride = sourceStride
        for y in rect.y..<(rect.y + rect.height) {
            let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
            // The source position of the row's first pixel's centre, and of its pixel x = 0
            // (every pixel's position is computed from the latter, whatever the clip).
            let cy = Double(y) + 0.5
            let uRow = Int(((m.xy * cy + m.x0 + 0.5 * m.xx) * Self.one).rounded(.down)) - Self.pixmanEpsilon
            let vRow = Int(((m.yy * cy + m.y0 + 0.5 * m.yx) * Self.one).rounded(.down)) - Self.pixmanEpsilon
            @inline(__always) func inside(_ x: Int) -> Bool {
                UInt(bitPattern: (uRow &+ du &* x) &>> 32) < sw && UInt(bitPattern: (vRow &+ dv &* x) &>> 32) < sh
            }
            let (a, b) = Self.insideRun(
                x0, x1, u: (Double(uRow) / Self.one, m.xx, Double(sourceWidth)),
                v: (Double(vRow) / Self.one, m.yx, Double(sourceHeight)), inside: inside)
            var x = x0
            while x < a {
                row[x] = background
                x += 1
            }
            if a < b {
                gestures_nearest_span(
                    row + a, b - a, src, srcStride, sourceHeight, Int64(uRow &+ du &* a), Int64(vRow &+ dv &* a),
                    Int64(du), Int64(dv))
                x = b
            }
            while x < x1 {
                row[x] = background
                x += 1
            }
            tint(row, y: y, from: x0, to: x1)
        }
        return true
    }

    /// Composites the tints that cover row `y` over its pixels [`from`, `to`).
    @inline(__always)
    private func tint(_ row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int) {
        for t in tints where y >= t.y0 && y < t.y1 {
            let a = max(x0, t.x0)
            let b = min(x1, t.x1)
            if a < b { gestures_tint_span(row + a, b - a, t.solid) }
        }
    }

    /// Which tints cover row `y`, one bit each (the first 64; a row under more is never copied).
    private func tintMask(_ y: Int) -> UInt64? {
        guard tints.count <= 64 else { return nil }
        var mask: UInt64 = 0
        for (i, t) in tints.enumerated() where y >= t.y0 && y < t.y1 { mask |= 1 << UInt64(i) }
        return mask
    }

    /// ``paint(into:stride:rect:)`` for a transform without rotation or shear (what a pinch
    /// without a turn makes), the same pixels faster: a row's source positions then do not
    /// depend on the row, so the source column of each destination column is computed once for
    /// the rectangle; a row is one gather through that table, and a row that shows the same
    /// source row as the one above it (every row but one in seven at 7×) is a copy of it.
    private func paintAxisAligned(
        into data: UnsafeMutableRawPointer, stride: Int, rect: (x: Int, y: Int, width: Int, height: Int), du: Int
    ) {
        let m = inverse
        let x0 = rect.x
        let x1 = rect.x + rect.width
        let sw = UInt(sourceWidth)
        let sh = UInt(sourceHeight)
        // The same fixed-point positions as the general path (m.xy == 0: uRow is one number).
        let uRow = Int(((m.x0 + 0.5 * m.xx) * Self.one).rounded(.down)) - Self.pixmanEpsilon
        @inline(__always) func inside(_ x: Int) -> Bool { UInt(bitPattern: (uRow &+ du &* x) &>> 32) < sw }
        let (a, b) = Self.insideRun(
            x0, x1, u: (Double(uRow) / Self.one, m.xx, Double(sourceWidth)), v: nil, inside: inside)
        let background = self.background
        let opaque: UInt32 = 0xFF00_0000
        let src = source
        let srcStride = sourceStride
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(b - a, 1)) { columns in
            let column = columns.baseAddress!
            var u = uRow &+ du &* a
            for i in 0..<(b - a) {
                column[i] = u &>> 32
                u &+= du
            }
            let count = b - a
            // A row is copied from the one above when both show the same source row under the
            // same tints.
            var previous: (row: UnsafeMutablePointer<UInt32>, sourceRow: Int, tints: UInt64?)?
            for y in rect.y..<(rect.y + rect.height) {
                let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
                let cy = Double(y) + 0.5
                let vRow = Int(((m.yy * cy + m.y0 + 0.5 * m.yx) * Self.one).rounded(.down)) - Self.pixmanEpsilon
                let sourceRow = vRow &>> 32
                guard count > 0, UInt(bitPattern: sourceRow) < sh else {
                    (row + x0).update(repeating: background, count: x1 - x0)
                    tint(row, y: y, from: x0, to: x1)
                    previous = nil
                    continue
                }
                let mask = tints.isEmpty ? 0 : tintMask(y)
                if let p = previous, p.sourceRow == sourceRow, let mask, p.tints == mask {
                    (row + x0).update(from: p.row + x0, count: x1 - x0)
                    continue
                }
                (row + x0).update(repeating: background, count: a - x0)
                let line = src + sourceRow &* srcStride
                let out = row + a
                for i in 0..<count {
                    out[i] = line[column[i]] | opaque
                }
                (row + b).update(repeating: background, count: x1 - b)
                tint(row, y: y, from: x0, to: x1)
                previous = (row, sourceRow, mask)
            }
        }
    }

    /// The run [a, b) of [`x0`, `x1`) whose pixels take the picture (`inside`; their source
    /// positions are linear in x, so they are one run), `(x1, x1)` when none do: estimated from
    /// the source axes (start, step per pixel, length; `v` nil for a row whose source row is
    /// one), then moved until `inside` holds exactly at its ends. Shared by both loops.
    @inline(__always)
    private static func insideRun(
        _ x0: Int, _ x1: Int, u: (start: Double, step: Double, limit: Double),
        v: (start: Double, step: Double, limit: Double)?, inside: (Int) -> Bool
    ) -> (Int, Int) {
        var a = x0
        var b = x1
        narrow(&a, &b, start: u.start, step: u.step, limit: u.limit)
        if let v { narrow(&a, &b, start: v.start, step: v.step, limit: v.limit) }
        while a < b && !inside(a) { a += 1 }
        while b > a && !inside(b - 1) { b -= 1 }
        while a > x0 && inside(a - 1) { a -= 1 }
        while b < x1 && inside(b) { b += 1 }
        return a < b ? (a, b) : (x1, x1)
    }

    /// Narrows [`a`, `b`) to the x where `start + step·x` lies in [0, `limit`), give or take a
    /// pixel (the caller makes it exact).
    private static func narrow(_ a: inout Int, _ b: inout Int, start: Double, step: Double, limit: Double) {
        guard a < b else { return }
        if abs(step) < 1e-12 {
            if start < 0 || start >= limit { b = a }
            return
        }
        var lo = (0 - start) / step
        var hi = (limit - start) / step
        if lo > hi { swap(&lo, &hi) }
        guard lo.isFinite, hi.isFinite else { return }
        let from = Int(max(Double(a), min(Double(b), lo.rounded(.down))))
        let to = Int(max(Double(a), min(Double(b), hi.rounded(.up) + 1)))
        a = max(a, from)
        b = min(b, to)
        if a > b { b = a }
    }
}
