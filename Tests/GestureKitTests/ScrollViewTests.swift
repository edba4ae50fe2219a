import GestureKit
import GestureTestSupport
import RealModule
import Testing

/// Every delegate call of a scroll view, in order, with the time of the ends.
@MainActor
final class ScrollCallbackLog: ScrollViewDelegate {
    private(set) var lines: [String] = []
    private(set) var offsets: [Point] = []
    private(set) var scales: [Double] = []
    /// The pan's velocity when the drag ended (window points per second).
    private(set) var liftVelocity = Vector.zero
    var zoomView: View?
    let clock: () -> Double

    init(clock: @escaping () -> Double) { self.clock = clock }

    private static func r(_ v: Double) -> String { LogRecorder.r(v) }
    private func at() -> String { " t=\(Self.r(clock()))" }

    func scrollViewDidScroll(_ s: ScrollView) {
        offsets.append(s.contentOffset)
        lines.append("scroll (\(Self.r(s.contentOffset.x)),\(Self.r(s.contentOffset.y)))")
    }
    func scrollViewDidZoom(_ s: ScrollView) {
        scales.append(s.zoomScale)
        lines.append("zoom \(Self.r(s.zoomScale))")
    }
    func viewForZooming(in scrollView: ScrollView) -> View? { zoomView }
    func scrollViewWillBeginDragging(_ s: ScrollView) { lines.append("willBeginDragging" + at()) }
    func scrollViewDidEndDragging(_ s: ScrollView, willDecelerate decelerate: Bool) {
        liftVelocity = s.panGestureRecognizer.velocity(in: s)
        lines.append("didEndDragging decelerate=\(decelerate)" + at())
    }
    func scrollViewWillBeginDecelerating(_ s: ScrollView) { lines.append("willBeginDecelerating") }
    func scrollViewDidEndDecelerating(_ s: ScrollView) { lines.append("didEndDecelerating" + at()) }
    func scrollViewDidEndScrollingAnimation(_ s: ScrollView) { lines.append("didEndScrollingAnimation" + at()) }
    func scrollViewWillBeginZooming(_ s: ScrollView, with view: View?) {
        lines.append("willBeginZooming \(view === zoomView)")
    }
    func scrollViewDidEndZooming(_ s: ScrollView, with view: View?, atScale scale: Double) {
        lines.append("didEndZooming \(view === zoomView) scale=\(Self.r(scale))" + at())
    }

    /// The log with each run of `scroll`/`zoom` lines shown as its last zoom and last scroll,
    /// marked `…` (their number depends on the frame rate, where they end does not).
    var summary: [String] {
        var out: [String] = []
        var zoom: String?
        var scroll: String?
        func flush() {
            if let z = zoom { out.append(z.replacingPrefix("zoom", with: "zoom…")) }
            if let s = scroll { out.append(s.replacingPrefix("scroll", with: "scroll…")) }
            zoom = nil
            scroll = nil
        }
        for line in lines {
            if line.hasPrefix("zoom ") {
                zoom = line
            } else if line.hasPrefix("scroll ") {
                scroll = line
            } else {
                flush()
                out.append(line)
            }
        }
        flush()
        return out
    }
}

extension String {
    fileprivate func replacingPrefix(_ p: String, with q: String) -> String { q + dropFirst(p.count) }
}

/// A scroll view of 400×600 at (100, 100) in the harness's window, holding a 1000×5000 view.
@MainActor
struct ScrollRig {
    let h = Harness()
    let scroll = ScrollView(frame: Rect(x: 100, y: 100, width: 400, height: 600), name: "scroll")
    let content = View(frame: Rect(x: 0, y: 0, width: 1000, height: 5000), name: "content")
    let log: ScrollCallbackLog

    init(offset: Point = .zero) {
        let dispatcher = h.dispatcher
        log = ScrollCallbackLog(clock: { dispatcher.now })
        h.root.addSubview(scroll)
        scroll.addSubview(content)
        scroll.contentSize = content.bounds.size
        scroll.contentOffset = offset
        scroll.delegate = log
    }

    /// A finger from `a` to `b` (window points) in `steps` moves of `dt`, lifting with the last.
    func drag(from a: Point, to b: Point, start: Double = 0, steps: Int = 10, dt: Double = 0.02, hold: Double = 0) {
        h.frame(start, Finger.down(1, a.x, a.y))
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            h.frame(start + dt * Double(i), Finger.move(1, a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f))
        }
        let end = start + dt * Double(steps) + hold
        if hold > 0 { h.frame(end, Finger.move(1, b.x, b.y)) }
        h.frame(end, Finger.up(1, b.x, b.y))
    }
}

@MainActor
@Suite struct ScrollViewTests {
    @Test("A drag moves the content offset one for one from where it began; a still lift does not decelerate")
    func dragOneForOne() {
        let rig = ScrollRig(offset: Point(x: 300, y: 500))
        rig.h.frame(0, Finger.down(1, 300, 400))
        for (i, y) in [380.0, 340, 300].enumerated() { rig.h.frame(0.02 * Double(i + 1), Finger.move(1, 300, y)) }
        #expect(rig.scroll.contentOffset == Point(x: 300, y: 580) && rig.scroll.isDragging)
        rig.h.frame(0.1, Finger.move(1, 330, 330))
        #expect(rig.scroll.contentOffset == Point(x: 270, y: 550))
        rig.h.frame(0.6, Finger.move(1, 330, 330))
        rig.h.frame(0.6, Finger.up(1, 330, 330))
        rig.h.wait(2)
        #expect(
            rig.log.summary == [
                "willBeginDragging t=0.02", "scroll… (270,550)", "didEndDragging decelerate=false t=0.6",
            ])
        #expect(rig.scroll.contentOffset == Point(x: 270, y: 550) && !rig.scroll.isDragging)
        #expect(rig.h.dispatcher.nextDeadline == nil)
    }

    @Test("Past an edge the content follows on the rubber band, and springs back to the edge on lift")
    func rubberBandAndSpringBack() {
        let rig = ScrollRig()
        rig.drag(from: Point(x: 300, y: 200), to: Point(x: 300, y: 400), hold: 0.5)
        // The pan begins at the first move (20 pt): 180 pt past the top edge of a 600 pt view
        // shows as (1 − 1/(180·0.55/600 + 1))·600.
        let stretch: Double = 180.0 * 0.55 / 600.0 + 1.0
        let shown: Double = (1.0 - 1.0 / stretch) * 600.0
        #expect(abs(rig.scroll.contentOffset.y + shown) < 1e-9)
        rig.h.wait(3)
        #expect(
            rig.log.summary == [
                "willBeginDragging t=0.02", "scroll… (0,-\(LogRecorder.r(shown)))",
                "didEndDragging decelerate=true t=0.7", "willBeginDecelerating", "scroll… (0,0)",
                "didEndDecelerating t=1.25",
            ])
        // The spring back never overshoots the edge, and approaches it steadily.
        let back = rig.log.offsets.drop { $0.y > -shown + 1e-9 }.map(\.y)
        #expect(zip(back, back.dropFirst()).allSatisfy { $0 <= $1 } && back.allSatisfy { $0 <= 0 })
        #expect(rig.scroll.contentOffset == .zero && !rig.scroll.isDecelerating)
    }

    @Test(
        "A fling decelerates at the rate per ms and rests v/(−1000·ln rate) further on",
        arguments: [ScrollView.DecelerationRate.normal, .fast])
    func fling(rate: ScrollView.DecelerationRate) throws {
        let rig = ScrollRig()
        rig.scroll.decelerationRate = rate
        // 200 pt up in 0.2 s: 1000 pt/s; the content follows from the first move (20 pt).
        rig.drag(from: Point(x: 300, y: 600), to: Point(x: 300, y: 400))
        let v = -rig.log.liftVelocity.dy
        #expect(abs(v - 1000) < 20, "lift velocity \(v)")
        let k = 1000 * Double.log(rate.rawValue)
        // 0.5 s into the fling it has gone v·(e^(k·0.5) − 1)/k.
        rig.h.wait(0.7001)  // the frame 0.5 s after the lift at 0.2 s
        let halfway: Double = 180 + v * (Double.exp(k * 0.5) - 1) / k
        #expect(abs(rig.scroll.contentOffset.y - halfway) < 0.5)
        rig.h.wait(10)
        let expected: Double = 180 - v / k
        let rest = rig.scroll.contentOffset.y
        #expect(abs(rest - expected) < 0.5, "rests at \(rest), expected \(expected)")
        let summary = rig.log.summary
        #expect(summary.count == 6)
        #expect(
            Array(summary.prefix(4)) == [
                "willBeginDragging t=0.02", "scroll… (0,180)", "didEndDragging decelerate=true t=0.2",
                "willBeginDecelerating",
            ])
        #expect(summary[5].hasPrefix("didEndDecelerating"))
        #expect(rig.log.lines.filter { $0.hasPrefix("didEndDecelerating") }.count == 1)
        let glide = rig.log.offsets.map(\.y).drop { $0 <= 180 }
        #expect(zip(glide, glide.dropFirst()).allSatisfy { $0 < $1 })
        #expect(rig.h.dispatcher.nextDeadline == nil && !rig.scroll.isDecelerating)
    }

    @Test("A fling that reaches an edge bounces past it and comes back to rest on it")
    func flingBouncesAtEdge() {
        let rig = ScrollRig(offset: Point(x: 0, y: 4000))
        rig.drag(from: Point(x: 300, y: 600), to: Point(x: 300, y: 400))
        rig.h.wait(5)
        let upper = 5000.0 - 600
        #expect(rig.log.offsets.map(\.y).max()! > upper + 10)
        #expect(rig.scroll.contentOffset == Point(x: 0, y: upper))
        #expect(rig.log.lines.filter { $0.hasPrefix("didEndDecelerating") }.count == 1)
        #expect(rig.log.summary.last?.hasPrefix("didEndDecelerating") == true)
    }

    @Test("A touch that lands stops a fling where it is, with no didEndDecelerating; its lift leaves it there")
    func touchCatchesFling() {
        let rig = ScrollRig()
        rig.drag(from: Point(x: 300, y: 600), to: Point(x: 300, y: 400))
        rig.h.wait(0.5)
        let caught = rig.scroll.contentOffset
        #expect(caught.y > 180 && rig.scroll.isDecelerating)
        rig.h.frame(0.5, Finger.down(2, 300, 300))
        #expect(!rig.scroll.isDecelerating)
        rig.h.frame(0.7, Finger.up(2, 300, 300))
        rig.h.wait(5)
        #expect(rig.scroll.contentOffset == caught)
        #expect(
            rig.log.summary == [
                "willBeginDragging t=0.02", "scroll… (0,180)", "didEndDragging decelerate=true t=0.2",
                "willBeginDecelerating", "scroll… (0,\(LogRecorder.r(caught.y)))",
            ])
        #expect(rig.h.dispatcher.nextDeadline == nil)
    }
}
