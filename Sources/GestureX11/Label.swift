import CCairo
import GestureKit

/// A font: a fontconfig family name ("sans-serif", "DejaVu Serif", …), a size in points, and
/// whether it is bold. UIKit: `UIFont` (`systemFont(ofSize:)`, `boldSystemFont(ofSize:)`,
/// `UIFont(name:size:)`); the system font is fontconfig's `sans-serif`.
public struct Font: Equatable, Sendable {
    public var family: String
    public var size: Double
    public var isBold: Bool
    public init(name: String, size: Double, bold: Bool = false) {
        family = name
        self.size = size
        isBold = bold
    }
    public static func systemFont(ofSize size: Double) -> Font { Font(name: "sans-serif", size: size) }
    public static func boldSystemFont(ofSize size: Double) -> Font { Font(name: "sans-serif", size: size, bold: true) }
}

/// UIKit: `NSTextAlignment` (`.natural` is `.left`: the library lays out left-to-right text only).
public enum TextAlignment: Sendable {
    case left, center, right
    public static let natural = TextAlignment.left
}

/// A view that draws text: one line by default, or several (``numberOfLines``; 0 for as many
/// as the text needs), wrapped at spaces to the view's width, the block centred vertically in
/// the bounds as `UILabel` does. UIKit: `UILabel`. A line too wide for the view (a single line,
/// or a word longer than the width) ends with "…" (UIKit's `.byTruncatingTail`); lines past the
/// bounds are clipped. Drawn with Cairo's text API through fontconfig.
open class Label: View {
    /// UIKit: `text`.
    public var text: String? { didSet { if text != oldValue { setNeedsDisplay() } } }
    /// UIKit: `font` (default: the system font at 17 pt, UILabel's).
    public var font = Font.systemFont(ofSize: 17) { didSet { if font != oldValue { setNeedsDisplay() } } }
    /// UIKit: `textColor` (default black).
    public var textColor = Color.black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    /// UIKit: `textAlignment`.
    public var textAlignment = TextAlignment.natural { didSet { setNeedsDisplay() } }
    /// UIKit: `numberOfLines` (default 1; 0: no limit).
    public var numberOfLines = 1 { didSet { if numberOfLines != oldValue { setNeedsDisplay() } } }

    public override init(frame: Rect = .zero, name: String = "") {
        super.init(frame: frame, name: name)
    }

    open override func draw(_ rect: Rect, in context: GraphicsContext) {
        guard let text, !text.isEmpty else { return }
        let cr = context.cairo
        cairo_select_font_face(
            cr, font.family, CAIRO_FONT_SLANT_NORMAL, font.isBold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, font.size)
        var extents = cairo_font_extents_t()
        cairo_font_extents(cr, &extents)
        let lines = layout(text, width: bounds.width) { width(of: $0, cr) }
        let top = bounds.minY + (bounds.height - Double(lines.count) * extents.height) / 2
        context.setFillColor(textColor)
        for (i, line) in lines.enumerated() {
            let w = width(of: line, cr)
            let x: Double
            switch textAlignment {
            case .left: x = bounds.minX
            case .center: x = bounds.minX + (bounds.width - w) / 2
            case .right: x = bounds.maxX - w
            }
            cairo_move_to(cr, x, top + Double(i) * extents.height + extents.ascent)
            cairo_show_text(cr, line)
        }
    }

    private func width(of s: String, _ cr: OpaquePointer) -> Double {
        var e = cairo_text_extents_t()
        cairo_text_extents(cr, s, &e)
        return e.x_advance
    }

    /// The lines drawn: the text's own lines, wrapped at spaces to `width` when more than one
    /// line is allowed, at most ``numberOfLines``; a line that does not fit ends with "…".
    func layout(_ text: String, width: Double, measure: (String) -> Double) -> [String] {
        var lines: [String] = []
        let limit = numberOfLines > 0 ? numberOfLines : Int.max
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if limit == 1 {
                lines.append(String(paragraph))
                break
            }
            var current = ""
            for word in paragraph.split(separator: " ") {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if current.isEmpty || measure(candidate) <= width {
                    current = candidate
                } else {
                    lines.append(current)
                    current = String(word)
                }
            }
            lines.append(current)
        }
        var truncated = lines.count > limit
        if truncated { lines = Array(lines.prefix(limit)) }
        for i in lines.indices where measure(lines[i]) > width || (truncated && i == lines.count - 1) {
            var line = lines[i]
            while !line.isEmpty && measure(line + "…") > width { line.removeLast() }
            lines[i] = line + "…"
            truncated = false
        }
        return lines
    }
}
