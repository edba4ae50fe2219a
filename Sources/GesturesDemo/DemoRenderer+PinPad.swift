import CCairo
import GestureKit
import GestureShellCore

extension DemoRenderer {
    /// Draws the kiosk's PIN pad (``PinPad``) over the scene: the window dimmed, a light panel,
    /// a field with one dot per digit typed, round digit keys, ⌫, OK and Cancel — the geometry
    /// the shell hit-tests (``PinPad/layout(in:)``). The pad's message ("Wrong PIN", "Try again
    /// in N s") takes the field's place in red while no digit is typed; a disabled pad's keys but
    /// Cancel are dimmed.
    public static func drawPinPad(_ pad: PinPad, size: Size, into cr: OpaquePointer) {
        let layout = PinPad.layout(in: size)
        cairo_save(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.55)
        cairo_rectangle(cr, 0, 0, size.width, size.height)
        cairo_fill(cr)
        let key = layout.keys.first?.rect.width ?? 44
        setColor(cr, background)
        roundedRect(cr, layout.panel, radius: key * 0.25)
        cairo_fill(cr)
        setColor(cr, Color(1, 1, 1))
        roundedRect(cr, layout.field, radius: key * 0.15)
        cairo_fill(cr)
        setColor(cr, labelColor)
        let dot = key * 0.1
        let shown = min(pad.entered, 12)
        let step = min(dot * 3, layout.field.width / Double(max(shown, 1)))
        let start = layout.field.midX - step * Double(shown - 1) / 2
        for i in 0..<shown {
            cairo_arc(cr, start + Double(i) * step, layout.field.midY, dot, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        if shown == 0, let message = pad.message {
            DemoFonts.select(DemoFonts.bold, on: cr)
            setColor(cr, touchColor)
            centredText(cr, message, in: layout.field, size: key * 0.35)
        } else if shown == 0 {
            DemoFonts.select(DemoFonts.regular, on: cr)
            cairo_set_source_rgba(cr, labelColor.r, labelColor.g, labelColor.b, 0.5)
            centredText(cr, "Admin PIN", in: layout.field, size: key * 0.35)
        }
        DemoFonts.select(DemoFonts.bold, on: cr)
        for (k, r) in layout.keys {
            let (label, color): (String, Color) =
                switch k {
                case .digit(let d): ("\(d)", tapColor)
                case .erase: ("⌫", labelColor)
                case .ok: ("OK", swipeColor)
                case .cancel: ("Cancel", touchColor)
                }
            let alpha = pad.enabled || k == .cancel ? 1 : 0.35
            cairo_set_source_rgba(cr, color.r, color.g, color.b, alpha)
            roundedRect(cr, r, radius: r.height / 2)
            cairo_fill(cr)
            setColor(cr, regionTextColor)
            centredText(cr, label, in: r, size: key * 0.4)
        }
        cairo_restore(cr)
    }
}
