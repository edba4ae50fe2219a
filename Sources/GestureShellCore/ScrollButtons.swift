import GestureKit

/// The X wheel buttons as scroll input: buttons 4 and 5 are the wheel turned
/// up and down, 6 and 7 tilted left and right (core protocol and XI2 alike). Each press is one
/// discrete click of ``ScrollInput/clickDistance``; releases mean nothing.
///
/// - The content moves the way scrolling moves it: the wheel down (5) scrolls down, so the
///   content goes up (`dy` = −40); tilted right (7), `dx` = −40.
/// - Shift turns a vertical wheel horizontal (as GTK, Qt and browsers do): Shift+5 scrolls right.
/// - Ctrl makes it a scroll-zoom (``ScrollInput/zoom``): up zooms in, as in every browser and image
///   viewer. (Ctrl is also the default simulate modifier, which matters only at a button-1 press.)
///
/// Smooth scroll (XI 2.1 scroll valuators) is read by the X shell itself (`continuous`); the
/// buttons the server emulates from it (`XIPointerEmulated`) are then ignored, and taken only
/// when no scroll valuator is known.
public enum ScrollButtons {
    /// The scroll of a press of `button` with the X modifier mask `mods`, nil for other buttons.
    public static func input(button: Int, modifiers mods: UInt32, at location: Point, time: Double) -> ScrollInput? {
        let step = ScrollInput.clickDistance
        var delta: Vector
        switch button {
        case 4: delta = Vector(dx: 0, dy: step)
        case 5: delta = Vector(dx: 0, dy: -step)
        case 6: delta = Vector(dx: step, dy: 0)
        case 7: delta = Vector(dx: -step, dy: 0)
        default: return nil
        }
        let zoom = mods & ModifierBits.control != 0
        if !zoom && mods & ModifierBits.shift != 0 && delta.dx == 0 {
            delta = Vector(dx: delta.dy, dy: 0)
        }
        return ScrollInput(timestamp: time, location: location, delta: delta, type: .discrete, zoom: zoom)
    }
}
