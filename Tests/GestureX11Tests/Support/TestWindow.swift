import CX11
import GestureKit
import GestureTestSupport
import GestureX11

extension TestXServer {
    /// A library window on this server at scale 1 (points are pixels), not yet running.
    @MainActor
    func window(title: String, size: Size) throws -> GestureWindow {
        var options = ShellOptions()
        options.display = display
        options.scale = 1
        return try GestureWindow(title: title, size: size, options: options)
    }
}

extension XConnection {
    /// Plays the mouse's pinch in `window` with this client's XTest pointer: Ctrl held at the
    /// press at `start` (window points; the shell adds the mirrored second finger), `steps`
    /// moves by `step` 0.05 s apart from 0.2 s, then the release; the run ends after it.
    @MainActor
    func playCtrlDrag(in window: GestureWindow, from start: Point, by step: Vector, steps: Int = 8) {
        var origin = Point.zero
        // Unowned: the shell holds this closure, and a strong window would never be freed.
        window.shell.onReplayAction = { [unowned window] i in
            switch i {
            case 0:
                let g = self.geometry(of: Window(window.shell.window))
                origin = Point(x: Double(g?.x ?? 0), y: Double(g?.y ?? 0))
                self.key(Keysym.controlL, pressed: true)
                self.move(to: origin.x + start.x, origin.y + start.y)
                self.button(pressed: true)
            case 1...steps:
                self.move(to: origin.x + start.x + Double(i) * step.dx, origin.y + start.y + Double(i) * step.dy)
            default:
                self.button(pressed: false)
                self.key(Keysym.controlL, pressed: false)
            }
        }
        window.shell.play([], actions: (0...steps + 1).map { (0, 0.2 + 0.05 * Double($0)) }, exitWhenDone: true)
    }
}
