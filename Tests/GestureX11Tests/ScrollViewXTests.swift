import CX11
import Foundation
import GestureKit
import GestureTestSupport
import GestureX11
import Testing

/// The scroll view's delegate calls that end something, and where the content was then.
@MainActor
final class ScrollEnds: ScrollViewDelegate {
    let photo: View
    var lines: [String] = []
    init(photo: View) { self.photo = photo }

    private func at(_ s: ScrollView) -> String {
        let o = s.contentOffset
        // (+ 0: −0 reads 0.)
        return "(\((o.x * 1000).rounded() / 1000 + 0), \((o.y * 1000).rounded() / 1000 + 0))"
    }
    func viewForZooming(in scrollView: ScrollView) -> View? { photo }
    func scrollViewWillBeginDragging(_ s: ScrollView) { lines.append("willBeginDragging") }
    func scrollViewDidEndDragging(_ s: ScrollView, willDecelerate decelerate: Bool) {
        lines.append("didEndDragging \(decelerate) at \(at(s))")
    }
    func scrollViewWillBeginZooming(_ s: ScrollView, with view: View?) { lines.append("willBeginZooming") }
    func scrollViewDidEndZooming(_ s: ScrollView, with view: View?, atScale scale: Double) {
        lines.append("didEndZooming \((scale * 1000).rounded() / 1000) at \(at(s))")
    }
}

/// A 400×300 window on its own Xvfb holding a scroll view whose zooming view is a plain view at
/// the content's origin, and an XTest client.
@MainActor
final class ScrollWindow {
    let server: TestXServer
    let window: GestureWindow
    let client: XConnection
    let scroll: ScrollView
    let photo = View()
    let ends: ScrollEnds

    init(scrollFrame: Rect, photoSize: Size, minimum: Double = 1, maximum: Double) throws {
        server = try TestXServer(width: 640, height: 480)
        window = try server.window(title: "scroll", size: Size(width: 400, height: 300))
        client = try XConnection(server.display)
        scroll = ScrollView(frame: scrollFrame)
        photo.frame = Rect(origin: .zero, size: photoSize)
        photo.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.3)
        scroll.addSubview(photo)
        scroll.contentSize = photoSize
        scroll.minimumZoomScale = minimum
        scroll.maximumZoomScale = maximum
        ends = ScrollEnds(photo: photo)
        scroll.delegate = ends
        window.root.addSubview(scroll)
    }
}

extension XServerTests {
    /// A ``ScrollView`` in a window takes the X input the shell turns into scroll events: XTest
    /// wheel clicks (buttons 4/5) scroll it 40 pt each, and with Ctrl held they zoom it ×1.1 a
    /// click about the pointer.
    @Suite("ScrollView in a GestureWindow: the wheel scrolls, Ctrl+wheel zooms (Xvfb)")
    @MainActor
    struct ScrollViewX {
        @Test("Two wheel clicks down scroll 80 pt; two Ctrl+wheel clicks up zoom ×1.21 about the pointer")
        func wheelAndCtrlWheel() throws {
            let rig = try ScrollWindow(
                scrollFrame: Rect(x: 0, y: 0, width: 400, height: 300), photoSize: Size(width: 800, height: 1200),
                minimum: 0.5, maximum: 4)
            let (window, client, scroll, photo, ends) = (rig.window, rig.client, rig.scroll, rig.photo, rig.ends)
            defer { client.close() }
            func clicks(_ button: UInt32, ctrl: Bool) {
                if ctrl { client.key(Keysym.controlL, pressed: true) }
                for _ in 0..<2 {
                    client.button(button, pressed: true)
                    client.button(button, pressed: false)
                    client.sync()
                }
                if ctrl { client.key(Keysym.controlL, pressed: false) }
                client.sync()
            }
            // Unowned: the shell holds this closure, and a strong window would never be freed.
            window.shell.onReplayAction = { [unowned window] i in
                switch i {
                case 0:
                    let g = client.geometry(of: Window(window.shell.window))
                    client.move(to: Double(g?.x ?? 0) + 100, Double(g?.y ?? 0) + 100)
                    client.sync()
                case 1: clicks(5, ctrl: false)
                case 2: clicks(4, ctrl: true)
                default: break
                }
            }
            window.shell.play([], actions: [(0, 0.2), (0, 0.4), (0, 1.0), (0, 1.6)], exitWhenDone: true)
            #expect(window.run() == 0)
            // The pointer is at (100, 100) in the view: the content point (100, 180) stays under it
            // at ×1.21, at (121, 217.8), so the offset becomes (21, 117.8).
            #expect(
                ends.lines == [
                    "willBeginDragging", "didEndDragging false at (0.0, 80.0)", "willBeginZooming",
                    "didEndZooming 1.21 at (21.0, 117.8)",
                ])
            #expect(abs(scroll.zoomScale - 1.21) < 1e-9)
            #expect(abs(photo.frame.width - 968) < 1e-9 && abs(photo.frame.height - 1452) < 1e-9)
        }

        @Test("Ctrl-drag in a zoomed scroll view smaller than the window pinches about the scroll view's centre")
        func mirroredFingerStaysInTheScrollView() throws {
            let rig = try ScrollWindow(
                scrollFrame: Rect(x: 0, y: 0, width: 200, height: 150), photoSize: Size(width: 200, height: 150),
                maximum: 8)
            let (window, client, scroll, ends) = (rig.window, rig.client, rig.scroll, rig.ends)
            defer { client.close() }
            // 800×600 from the window's corner: the photo covers the whole window, but only the
            // scroll view's 200×150 of it is visible.
            scroll.zoomScale = 4
            var centroids: [Point] = []
            scroll.pinchGestureRecognizer.addAction { r in centroids.append(r.location(in: nil)) }
            client.playCtrlDrag(in: window, from: Point(x: 60, y: 45), by: Vector(dx: -5, dy: -3.75))
            #expect(window.run() == 0)
            try #require(!centroids.isEmpty, "no pinch from the Ctrl-drag: the mirrored finger left the scroll view")
            for c in centroids {
                #expect(abs(c.x - 100) < 1 && abs(c.y - 75) < 1, "centroid \(c), not the scroll view's centre")
            }
            // The fingers spread from 100 to 200 pt apart: ×2, held at the maximum of 8.
            #expect(abs(scroll.zoomScale - 8) < 1e-9, "zoom \(scroll.zoomScale)")
            #expect(ends.lines.first == "willBeginZooming" && ends.lines.last?.hasPrefix("didEndZooming 8.0") == true)
        }
    }
}
