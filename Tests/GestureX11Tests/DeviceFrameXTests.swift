import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// One touch frame per device frame, with genuine XI2 touches (Xorg + inputtest): each
    /// finger's update of a device frame is a write of its own, and the server has processed it
    /// before the next finger's is sent, so the app gets them in separate reads (as from
    /// Xwayland, or from Xorg when its input thread splits a frame). Made a frame each, a
    /// spread's centre wobbled by half a step and a twist about a fixed point started a pan.
    @Suite("gestures run on Xorg + inputtest: a device frame's fingers in separate reads are one frame", xorgNeedsRoot)
    struct DeviceFrameX {
        /// Sends each finger's update on its own and waits for the server to process it; the
        /// longest time from a device frame's first write to its last (the test's own round
        /// trips: a real device frame's events follow each other within microseconds).
        @discardableResult
        static func splitMove(_ t: TouchSession, _ paths: [UInt32: [LayoutPoint]]) throws -> Double {
            let count = paths.values.map(\.count).max() ?? 0
            var longest = 0.0
            for i in 0..<count {
                pause(0.016)
                let first = monotonicNow()
                var last = first
                for (id, path) in paths.sorted(by: { $0.key < $1.key }) where i < path.count {
                    last = monotonicNow()
                    try t.touches([(.update, id, path[i])])
                }
                longest = max(longest, last - first)
            }
            return longest
        }

        /// Runs `gesture` on fresh sessions until its device frames were sent within 3 ms (a
        /// loaded machine can stretch the test's round trips past the app's 4 ms wait, which a
        /// device frame never needs); at most 4 attempts, then the last one counts.
        static func attempts(_ gesture: (TouchSession) throws -> Double, check: (TouchSession, Double) throws -> Void)
            throws
        {
            for attempt in 1...4 {
                let t = try TouchSession()
                defer { t.close() }
                let spread = try gesture(t)
                if spread < 0.003 || attempt == 4 { return try check(t, spread) }
            }
        }

        @Test("A two-finger spread: the pinch's location stays where the fingers' centre is")
        func steadySpread() throws {
            var centre = LayoutPoint(x: 0, y: 0)
            try Self.attempts { t in
                let pinch = try t.app.region("pinch")
                let c = pinch.center
                centre = c
                let (d0, d1) = (pinch.width * 0.05, pinch.width * 0.3)
                try t.touches([(.begin, 1, c + (-d0, 0)), (.begin, 2, c + (d0, 0))])
                let spread = try Self.splitMove(
                    t,
                    [
                        1: straightPath(from: c + (-d0, 0), to: c + (-d1, 0), steps: 12).dropFirst().map { $0 },
                        2: straightPath(from: c + (d0, 0), to: c + (d1, 0), steps: 12).dropFirst().map { $0 },
                    ])
                pause(0.05)
                try t.touches([(.end, 1, c + (-d1, 0)), (.end, 2, c + (d1, 0))])
                try t.app.waitFor("pinch", "ended")
                return spread
            } check: { t, spread in
                let c = centre
                let lines = t.app.lines(of: "pinch")
                let located = lines.compactMap(\.location)
                #expect(located.count >= 10, "\(summary(lines))")
                let off = located.map { max(abs($0.x - c.x), abs($0.y - c.y)) }.max() ?? 0
                #expect(
                    off < 0.5,
                    "the pinch's location strayed \(off) pt from the centre (writes \(spread) s apart):\n\(summary(lines))"
                )
            }
        }

        @Test("A fast half turn about the flower's centre starts no pan and flings nothing")
        func twistNoPan() throws {
            try Self.attempts { t in
                let image = try t.app.region("image")
                let c = image.center
                let r = image.width * 0.3
                let first = arc(around: c, radius: r, from: .pi, to: 2 * .pi, steps: 10)
                let second = arc(around: c, radius: r, from: 0, to: .pi, steps: 10)
                try t.touches([(.begin, 1, first[0]), (.begin, 2, second[0])])
                let spread = try Self.splitMove(t, [1: Array(first.dropFirst()), 2: Array(second.dropFirst())])
                try t.touches([(.end, 1, first.last!), (.end, 2, second.last!)])
                try t.app.waitFor("imageRotation", "ended")
                pause(0.3)
                return spread
            } check: { t, spread in
                let all = t.app.log.lines(from: 0)
                let pans = all.filter { $0.isGesture && $0.recognizer == "imagePan" && $0.state != "failed" }
                #expect(pans.isEmpty, "writes \(spread) s apart: \(summary(pans))")
                let flings = all.filter { $0.type == "animation" && $0.string("animation") == "momentum" }
                #expect(flings.isEmpty, "\(summary(flings))")
            }
        }
    }
}
