import GestureX11
import Glibc

let window = try GestureWindow(title: "Card", size: Size(width: 800, height: 600))
let card = View(frame: Rect(x: 250, y: 200, width: 300, height: 200))
window.root.addSubview(card)
