import GestureKit
import GestureTestSupport
import Testing

/// A scroll view of 400×600 at (100, 100) whose zooming view is a 400×600 view.
@MainActor
struct ZoomRig {
    let rig: ScrollRig
    let photo = View(frame: Rect(x: 0, y: 0, width: 400, height: 600), name: "photo")
    var scroll: ScrollView { rig.scroll }
    var log: ScrollCallbackLog { rig.log }
    var h: Harness { rig.h }

    init(minimum: Double = 1, maximum: Double) {
        rig = ScrollRig()
        rig.content.removeFromSuperview()
        rig.scroll.addSubview(photo)
        rig.scroll.contentSize = photo.bounds.size
        rig.log.zoomView = photo
        rig.scroll.minimumZoomScale = minimum
        rig.scroll.maximumZoomScale = maximum
    }

    static func wheel(_ t: Double, _ dy: Double, at p: Point = Point(x: 300, y: 400), zoom: Bool = false) -> ScrollInput
    {
        ScrollInput(timestamp: t, location: p, delta: Vector(dx: 0, dy: dy), type: .discrete, zoom: zoom)
    }
}

@MainActor
@Suite struct ScrollViewZoomTests {
    @Test("A pinch past the maximum stretches on the rubber band, then springs back and rests at the maximum")
    func pinchBouncesAtMaximum() {
        let z = ZoomRig(maximum: 2)
        z.h.frame(0, Finger.down(1, 250, 400), Finger.down(2, 350, 400))
        for i in 1...10 {
            let d = 15 * Double(i)
            z.h.frame(0.02 * Double(i), Finger.move(1, 250 - d, 400), Finger.move(2, 350 + d, 400))
        }
        // Four times the distance: 2·2^(1 − 1/(log₂(4/2)·0.55 + 1)) shown.
        let shown: Double = 2 * Double.exp2(1 - 1 / 1.55)
        #expect(abs(z.scroll.zoomScale - shown) < 1e-9 && z.scroll.isZooming)
        z.h.frame(0.5, Finger.up(1, 100, 400), Finger.up(2, 500, 400))
        z.h.wait(3)
        #expect(
            z.log.summary == [
                "willBeginZooming true", "zoom… 2", "scroll… (200,300)", "didEndZooming true scale=2 t=1.117",
            ])
        #expect(abs(z.log.scales.max()! - shown) < 1e-9)
        // The photo's point under the fingers' centre, (200, 300), is still there at the maximum.
        #expect(z.scroll.zoomScale == 2 && z.scroll.contentSize == Size(width: 800, height: 1200))
        #expect(z.photo.frame == Rect(x: 0, y: 0, width: 800, height: 1200))
        #expect(z.scroll.contentOffset == Point(x: 200, y: 300) && !z.scroll.isZooming)
    }

    @Test("Without bouncesZoom a pinch stops at the maximum")
    func pinchWithoutBounce() {
        let z = ZoomRig(maximum: 2)
        z.scroll.bouncesZoom = false
        z.h.frame(0, Finger.down(1, 250, 400), Finger.down(2, 350, 400))
        z.h.frame(0.1, Finger.move(1, 100, 400), Finger.move(2, 500, 400))
        z.h.frame(0.2, Finger.up(1, 100, 400), Finger.up(2, 500, 400))
        z.h.wait(3)
        #expect(z.log.scales.max() == 2)
        #expect(
            z.log.summary == [
                "willBeginZooming true", "zoom… 2", "scroll… (200,300)", "didEndZooming true scale=2 t=0.2",
            ])
    }

    @Test(
        "A double tap zooms in about the tap, and the next one zooms back out (only when turned on)",
        arguments: [true, false])
    func doubleTap(on: Bool) {
        let z = ZoomRig(maximum: 3)
        z.scroll.zoomsOnDoubleTap = on
        for start in [0.0, 1.0] {
            z.h.frame(start, Finger.down(1, 200, 200))
            z.h.frame(start + 0.05, Finger.up(1, 200, 200))
            z.h.frame(start + 0.15, Finger.down(1, 200, 200))
            z.h.frame(start + 0.2, Finger.up(1, 200, 200))
            z.h.wait(start + 0.9)
            if start == 0 { #expect(z.scroll.zoomScale == (on ? 3 : 1)) }
        }
        // In: the photo's (100, 100) stays under the tap at three times the size.
        #expect(
            z.log.summary
                == (on
                    ? [
                        "zoom… 3", "scroll… (100,0)", "didEndZooming true scale=3 t=0.5", "zoom… 1", "scroll… (0,0)",
                        "didEndZooming true scale=1 t=1.5",
                    ] : []))
        #expect(z.scroll.zoomScale == 1 && z.scroll.contentOffset == .zero)
    }

    @Test("Wheel clicks scroll 40 pt each and stop at the edge; the drag ends 0.15 s after the last, with no fling")
    func wheel() {
        let rig = ScrollRig()
        for t in [0.0, 0.05, 0.1] { rig.h.dispatcher.handle(ZoomRig.wheel(t, -40)) }
        rig.h.wait(0.5)
        for t in [1.0, 1.05, 1.1, 1.15] { rig.h.dispatcher.handle(ZoomRig.wheel(t, 40)) }
        rig.h.wait(2)
        #expect(
            rig.log.summary == [
                "willBeginDragging t=0", "scroll… (0,120)", "didEndDragging decelerate=false t=0.25",
                "willBeginDragging t=1", "scroll… (0,0)", "didEndDragging decelerate=false t=1.3",
            ])
        #expect(rig.log.offsets.map(\.y) == [40, 80, 120, 80, 40, 0])
    }

    @Test("Ctrl+wheel zooms about the pointer by 1.1 a click and stops at the maximum")
    func ctrlWheel() {
        let z = ZoomRig(maximum: 2)
        for t in [0.0, 0.05] { z.h.dispatcher.handle(ZoomRig.wheel(t, 40, zoom: true)) }
        z.h.wait(0.5)
        #expect(abs(z.scroll.zoomScale - 1.21) < 1e-12)
        // The pointer is at (200, 300) in the view: that point of the photo stays under it.
        #expect(abs(z.scroll.contentOffset.x - 42) < 1e-9 && abs(z.scroll.contentOffset.y - 63) < 1e-9)
        for i in 0..<10 { z.h.dispatcher.handle(ZoomRig.wheel(1 + 0.05 * Double(i), 40, zoom: true)) }
        z.h.wait(3)
        #expect(
            z.log.summary == [
                "willBeginZooming true", "zoom… 1.21", "scroll… (42,63)", "didEndZooming true scale=1.21 t=0.2",
                "willBeginZooming true", "zoom… 2", "scroll… (200,300)", "didEndZooming true scale=2 t=1.6",
            ])
        #expect(z.log.scales.max() == 2)
    }

    @Test("setZoomScale and setContentOffset animate on the clock and tell the delegate when they end")
    func programmatic() {
        let z = ZoomRig(maximum: 4)
        z.scroll.scheduler = z.h.dispatcher.scheduler
        z.scroll.setZoomScale(2, animated: true)
        z.h.wait(1)
        z.scroll.setContentOffset(Point(x: 0, y: 600), animated: true)
        z.h.wait(2)
        z.scroll.zoomScale = 9
        #expect(
            z.log.summary == [
                "zoom… 2", "scroll… (200,300)", "didEndZooming true scale=2 t=0.3", "scroll… (0,600)",
                "didEndScrollingAnimation t=1.3", "zoom… 4", "scroll… (200,1500)",
            ])
    }
}

@MainActor
@Suite struct ScrollViewLimitTests {
    @Test("Without a clock an animated change lands at once, and the delegate hears that it ended")
    func noScheduler() {
        let z = ZoomRig(maximum: 4)
        z.scroll.setContentOffset(Point(x: 0, y: 100), animated: true)
        z.scroll.setZoomScale(2, animated: true)
        #expect(
            z.log.summary == [
                "scroll… (0,100)", "didEndScrollingAnimation t=0", "zoom… 2", "scroll… (200,500)",
                "didEndZooming true scale=2 t=0",
            ])
    }

    @Test("contentInset widens where the content rests; isScrollEnabled false leaves it still")
    func insetAndEnabled() {
        let rig = ScrollRig()
        rig.scroll.contentInset = EdgeInsets(top: 50, left: 0, bottom: 0, right: 0)
        rig.drag(from: Point(x: 300, y: 200), to: Point(x: 300, y: 260), hold: 0.5)
        rig.h.wait(3)
        #expect(rig.scroll.contentOffset == Point(x: 0, y: -48))
        rig.scroll.isScrollEnabled = false
        rig.drag(from: Point(x: 300, y: 400), to: Point(x: 300, y: 200), start: 4)
        rig.h.wait(8)
        #expect(rig.scroll.contentOffset == Point(x: 0, y: -48))
        #expect(
            rig.log.summary == ["willBeginDragging t=0.04", "scroll… (0,-48)", "didEndDragging decelerate=false t=0.7"])
    }
}
