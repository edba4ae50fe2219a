import GestureX11
import Glibc

let window = try GestureWindow(title: "Card", size: Size(width: 800, height: 600))
let card = View(frame: Rect(x: 250, y: 200, width: 300, height: 200))
window.root.addSubview(card)

window.draw = { cr in
    cairo_set_source_rgb(cr, 0.95, 0.95, 0.93)
    cairo_paint(cr)
    GestureWindow.transform(cr, to: card)
    cairo_rectangle(cr, 0, 0, card.bounds.width, card.bounds.height)
    cairo_set_source_rgb(cr, 0.26, 0.55, 0.89)
    cairo_fill(cr)
}
exit(window.run())
