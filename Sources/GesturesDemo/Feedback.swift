import GestureKit

/// The feedback label's content, kept as a kind and its numbers and formatted only when it is
/// drawn or logged (so that a gesture's `changed` does not allocate a string). UIKit
/// counterpart: the tutorial's `resultLabel.text = String(format: …)`; the texts are the
/// tutorial's, numbers formatted as `%1.2f`.
public enum Feedback: Equatable, Sendable {
    /// "Do something!" (the label before any gesture).
    case initial
    /// "Tapped".
    case tapped
    /// "Swiped right|left|up|down".
    case swiped(SwipeDirection)
    /// "Pinched, Scale: %1.2f, Velocity: %1.2f".
    case pinched(scale: Double, velocity: Double)
    /// "Rotated, Radians: %1.2f, Velocity: %1.2f".
    case rotated(radians: Double, velocity: Double)
    /// "Shaking things up!".
    case shaking
    /// "Panned, X: %1.2f, Y: %1.2f" (the image pan's translation).
    case panned(dx: Double, dy: Double)
    /// "Long pressed".
    case longPressed
    /// "Edge panned, X: %1.2f, Y: %1.2f" (the screen-edge pan's translation).
    case edgePanned(dx: Double, dy: Double)
    /// "Scaled, Scale: %1.2f" (keyboard `+`/`-`: the image's scale now).
    case keyScaled(scale: Double)
    /// "Rotated, Radians: %1.2f" (keyboard `[`/`]`: the image's rotation now).
    case keyRotated(radians: Double)
    /// "Moved, X: %1.2f, Y: %1.2f" (arrow keys: the image centre's offset from its home).
    case keyMoved(dx: Double, dy: Double)

    /// The label text.
    public var text: String {
        switch self {
        case .initial: return "Do something!"
        case .tapped: return "Tapped"
        case .swiped(let d): return "Swiped " + directionName(d)
        case .pinched(let s, let v):
            return "Pinched, Scale: " + format2(s) + ", Velocity: " + format2(v)
        case .rotated(let r, let v):
            return "Rotated, Radians: " + format2(r) + ", Velocity: " + format2(v)
        case .shaking: return "Shaking things up!"
        case .panned(let x, let y): return "Panned, X: " + format2(x) + ", Y: " + format2(y)
        case .longPressed: return "Long pressed"
        case .edgePanned(let x, let y):
            return "Edge panned, X: " + format2(x) + ", Y: " + format2(y)
        case .keyScaled(let s): return "Scaled, Scale: " + format2(s)
        case .keyRotated(let r): return "Rotated, Radians: " + format2(r)
        case .keyMoved(let x, let y): return "Moved, X: " + format2(x) + ", Y: " + format2(y)
        }
    }
}

private func directionName(_ d: SwipeDirection) -> String {
    if d.contains(.right) { return "right" }
    if d.contains(.left) { return "left" }
    if d.contains(.up) { return "up" }
    if d.contains(.down) { return "down" }
    return ""
}

/// Formats `v` like C's `%1.2f`: two decimals, rounded to nearest with ties to even as glibc
/// does (on `v × 100`, which can differ from C's exact decimal expansion in the last digit only
/// for values a hair away from a tie), a minus sign for negative values including those that round to zero (`-0.00`, as
/// C prints), `nan`, `inf`, `-inf`. No Foundation.
public func format2(_ v: Double) -> String {
    if v.isNaN { return v.sign == .minus ? "-nan" : "nan" }
    if v.isInfinite { return v < 0 ? "-inf" : "inf" }
    let negative = v.sign == .minus
    let magnitude = v.magnitude
    let sign = negative ? "-" : ""
    if magnitude >= 1e15 {
        // Beyond exact integer hundredths: whole part from the integer conversion.
        return sign + String(UInt64(min(magnitude, 1.8e19))) + ".00"
    }
    let hundredths = UInt64((magnitude * 100).rounded(.toNearestOrEven))
    let whole = hundredths / 100
    let fraction = hundredths % 100
    return sign + String(whole) + (fraction < 10 ? ".0" : ".") + String(fraction)
}
