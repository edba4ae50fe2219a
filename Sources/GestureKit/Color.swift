/// A colour: red, green, blue and alpha from 0 to 1, not premultiplied (sRGB, as Cairo paints it).
/// UIKit: `UIColor` (only the RGB model; `UIColor(red:green:blue:alpha:)` reads the same).
public struct Color: Equatable, Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A grey. UIKit: `UIColor(white:alpha:)`.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// The same colour with another alpha. UIKit: `withAlphaComponent(_:)`.
    public func withAlphaComponent(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    public static let clear = Color(white: 0, alpha: 0)
    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let gray = Color(white: 0.5)
    public static let lightGray = Color(white: 2.0 / 3)
    public static let darkGray = Color(white: 1.0 / 3)
    public static let red = Color(red: 1, green: 0, blue: 0)
    public static let green = Color(red: 0, green: 1, blue: 0)
    public static let blue = Color(red: 0, green: 0, blue: 1)
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    public static let purple = Color(red: 0.5, green: 0, blue: 0.5)
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    public static let brown = Color(red: 0.6, green: 0.4, blue: 0.2)
}

/// What a view draws into in ``View/draw(_:in:)``: a Cairo context (`cairo_t *`) whose user
/// space is the view's own coordinates (its bounds), clipped to the bounds and to the part of
/// the window being redrawn. UIKit: the `CGContext` of `UIGraphicsGetCurrentContext()`.
/// GestureKit never calls Cairo itself; GestureX11 extends this type with `CGContext`-shaped
/// calls (`setFillColor`, `fill(_:)`, `addLine(to:)`, …) and `cairo` is there for the rest.
@MainActor
public struct GraphicsContext {
    /// The `cairo_t *`.
    public let cairo: OpaquePointer
    public init(cairo: OpaquePointer) { self.cairo = cairo }
}
