import GestureX11
import Glibc

// The card: pan, pinch and rotate at once; the picture stays under the fingers.
// No display (or a refused connection) throws one line: say it and exit 1, no backtrace.
let window: GestureWindow
do {
    window = try GestureWindow(title: "Card", size: Size(width: 800, height: 600))
} catch {
    let line = "Card: \(error)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}
let card = View(frame: Rect(x: 250, y: 200, width: 300, height: 200))
window.root.addSubview(card)
let gestures = TransformGestures(view: card)

window.draw = { cr in
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.93)
    cairo_paint(cr)
    GestureWindow.transform(cr, to: card)
    cairo_rectangle(cr, 0, 0, card.bounds.width, card.bounds.height)
    cairo_set_source_rgb(cr, 0.26, 0.55, 0.89)
    cairo_fill(cr)
}
exit(window.run())
