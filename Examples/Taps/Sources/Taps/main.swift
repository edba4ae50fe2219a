import GestureX11
import Glibc

// One square; what last happened to it colours it and prints a line.
// No display (or a refused connection) throws one line: say it and exit 1, no backtrace.
let window: GestureWindow
do {
    window = try GestureWindow(title: "Taps", size: Size(width: 640, height: 480))
} catch {
    let line = "Taps: \(error)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}
let square = View(frame: Rect(x: 170, y: 90, width: 300, height: 300))
window.root.addSubview(square)
var colour = (0.6, 0.6, 0.6)

let double = TapGestureRecognizer(name: "double")
double.numberOfTapsRequired = 2
let single = TapGestureRecognizer(name: "single")
single.require(toFail: double)  // a single tap is recognized only once the double tap failed
let press = LongPressGestureRecognizer(name: "press")

for (recognizer, rgb) in [(single, (0.26, 0.55, 0.89)), (double, (0.30, 0.69, 0.38)), (press, (0.95, 0.58, 0.20))] {
    square.addGestureRecognizer(recognizer)
    recognizer.addAction { r in
        guard r.state == .ended || r.state == .began else { return }
        colour = rgb
        print("\(r.name) \(r.state)")
    }
}

window.draw = { cr in
    cairo_set_source_rgb(cr, 1, 1, 1)
    cairo_paint(cr)
    GestureWindow.transform(cr, to: square)
    cairo_rectangle(cr, 0, 0, square.bounds.width, square.bounds.height)
    cairo_set_source_rgb(cr, colour.0, colour.1, colour.2)
    cairo_fill(cr)
}
exit(window.run())
