import GestureKit
import GestureTestSupport
import Testing

/// Scroll input: pans take the scroll types their `allowedScrollTypesMask`
/// allows, as a finger pan; a scroll-zoom drives pinches about the pointer like a touchpad pinch.
@MainActor
@Suite struct ScrollInputTests {
    static func wheel(_ t: Double, _ dx: Double, _ dy: Double, at p: Point = Point(x: 100, y: 100), zoom: Bool = false)
        -> ScrollInput
    {
        ScrollInput(timestamp: t, location: p, delta: Vector(dx: dx, dy: dy), type: .discrete, zoom: zoom)
    }

    @Test("Wheel clicks pan: began at the first, translation summed, velocity fitted, ended 0.15 s after the last")
    func wheelPans() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.allowedScrollTypesMask = .discrete
        for (t, dx, dy) in [(0.0, 0.0, -40.0), (0.05, 0.0, -40.0), (0.1, 40.0, 0.0)] {
            h.dispatcher.handle(Self.wheel(t, dx, dy))
        }
        #expect(pan.translation(in: nil) == Vector(dx: 40, dy: -80))
        h.wait(1)
        #expect(
            h.log.lines == [
                "0 pan began (100,100) n=0 tr=[0,-40] v=[0,0]",
                "0.05 pan changed (100,100) n=0 tr=[0,-80] v=[0,-800]",
                "0.1 pan changed (100,100) n=0 tr=[40,-80] v=[400,-400]",
                "0.25 pan ended (100,100) n=0 tr=[40,-80] v=[0,0]",
            ])
        #expect(pan.state == .possible && h.dispatcher.nextDeadline == nil)
    }

    @Test(
        "The mask decides: none takes nothing (the default), discrete ignores smooth scroll, all takes both",
        arguments: [
            (ScrollTypeMask(), ScrollType.discrete, false), (.discrete, .continuous, false),
            (.continuous, .continuous, true), (.all, .discrete, true),
        ])
    func mask(mask: ScrollTypeMask, type: ScrollType, taken: Bool) {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.allowedScrollTypesMask = mask
        h.dispatcher.handle(
            ScrollInput(timestamp: 0, location: Point(x: 10, y: 10), delta: Vector(dx: 3, dy: 4), type: type))
        h.wait(1)
        #expect(h.log.states(of: "pan") == (taken ? [.began, .ended] : []))
    }

    @Test("Only the pans of the view under the pointer and its ancestors; a pan tracking a finger is left alone")
    func hitTest() {
        let h = Harness()
        let card = View(frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "card")
        h.root.addSubview(card)
        let cardPan = h.add(PanGestureRecognizer(name: "cardPan"), to: card)
        let rootPan = h.add(PanGestureRecognizer(name: "rootPan"))
        cardPan.allowedScrollTypesMask = .all
        rootPan.allowedScrollTypesMask = .all
        h.frame(0, Finger.down(1, 300, 300))
        h.dispatcher.handle(Self.wheel(0.1, 0, 40, at: Point(x: 50, y: 50)))
        h.frame(0.2, Finger.up(1, 300, 300))
        h.wait(1)
        #expect(
            h.log.lines == [
                "0.1 cardPan began (50,50) n=0 tr=[0,40] v=[0,0]",
                "0.2 rootPan failed (300,300) n=1 tr=[0,0] v=[0,0]",
                "0.25 cardPan ended (50,50) n=0 tr=[0,40] v=[0,0]",
            ])
    }

    @Test("setTranslation during a scroll re-bases it, as for a finger")
    func setTranslation() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.allowedScrollTypesMask = .all
        h.dispatcher.handle(Self.wheel(0, 0, 40))
        pan.setTranslation(.zero, in: nil)
        h.dispatcher.handle(Self.wheel(0.05, 0, 40))
        #expect(pan.translation(in: nil) == Vector(dx: 0, dy: 40))
        h.wait(1)
    }

    @Test("Ctrl+wheel zooms: the pinch under the pointer begins at ×1.1, ×1.21 at the second click, ends 0.15 s later")
    func scrollZoom() {
        let h = Harness()
        let pinch = h.add(PinchGestureRecognizer(name: "pinch"))
        let pan = h.add(PanGestureRecognizer(name: "pan"))
        pan.allowedScrollTypesMask = .all
        h.dispatcher.handle(Self.wheel(0, 0, 40, at: Point(x: 200, y: 150), zoom: true))
        h.dispatcher.handle(Self.wheel(0.05, 0, 40, at: Point(x: 200, y: 150), zoom: true))
        h.dispatcher.handle(Self.wheel(0.1, 0, -40, at: Point(x: 200, y: 150), zoom: true))
        #expect(abs(pinch.scale - 1.1) < 1e-12)
        h.wait(1)
        #expect(
            h.log.lines == [
                "0 pinch began (200,150) n=2 scale=1.1 v=0",
                "0.05 pinch changed (200,150) n=2 scale=1.21 v=2.2",
                "0.1 pinch changed (200,150) n=2 scale=1.1 v=0",
                "0.25 pinch ended (200,150) n=2 scale=1.1 v=0",
            ])
    }
}
