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
    /// "Double tapped" (a double tap or double click on the image: it goes home, animated).
    case doubleTapped
    /// "Undone" / "Nothing to undo" (`u` or Backspace).
    case undone
    case nothingToUndo
    /// A hint after a gesture failed in a region, e.g. "Swipe faster" (see ``Hint``).
    case hint(Hint)

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
        case .doubleTapped: return "Double tapped"
        case .undone: return "Undone"
        case .nothingToUndo: return "Nothing to undo"
        case .hint(let h): return h.rawValue
        }
    }
}

/// What the label says when a gesture in a region failed: the tutorial's
/// success strings stay as they are; a failure, which iOS passes over in silence, gets a hint.
public enum Hint: String, Sendable {
    /// A drag in "Swipe Me!" too slow (or too short) to be a swipe.
    case swipeFaster = "Swipe faster"
    /// A drag in "Swipe Me!" that wandered off its axis or turned back.
    case swipeStraighter = "Swipe in a straight line"
    /// A drag in "Swipe Me!" too short to be a swipe.
    case swipeFurther = "Swipe further"
    /// A touch in "Tap Me!" that moved or was held too long.
    case tapQuicker = "Tap quickly without moving"
    /// Two or more fingers (or a palm) in "Tap Me!", whose tap takes one.
    case tapOneFinger = "Tap with one finger"
    /// Two or more fingers in "Swipe Me!", whose swipes take one.
    case swipeOneFinger = "Swipe with one finger"
    /// One finger in "Pinch Me!".
    case pinchTwoFingers = "Pinch with two fingers"
    /// One finger in "Rotate Me!".
    case rotateTwoFingers = "Rotate with two fingers"
    /// Two fingers in "Pinch Me!" whose distance did not change.
    case pinchFurther = "Spread or pinch two fingers"
    /// Two fingers in "Rotate Me!" that did not turn.
    case rotateFurther = "Turn two fingers"
}

private func directionName(_ d: SwipeDirection) -> String {
    if d.contains(.right) { return "right" }
    if d.contains(.left) { return "left" }
    if d.contains(.up) { return "up" }
    if d.contains(.down) { return "down" }
    return ""
}

/// Formats `v` like C's `%1.2f`: two decimals, rounded on the exact binary value with ties to
/// even (as glibc does: 0.995 is a hair below the tie and prints `0.99`), a minus sign for
/// negative values including those that round to zero (`-0.00`), `nan`, `inf`, `-inf`. No
/// Foundation, no allocation beyond the result.
public func format2(_ v: Double) -> String {
    if v.isNaN { return v.sign == .minus ? "-nan" : "nan" }
    if v.isInfinite { return v < 0 ? "-inf" : "inf" }
    let sign = v.sign == .minus ? "-" : ""
    let m = v.magnitude
    if m >= 1e15 {
        // An integer already (≥ 2^50 has no fraction bits at this size): print its digits exactly.
        return sign + integerDigits(m) + ".00"
    }
    // m × 100 exactly, as p + e: the product rounded plus its rounding error (fma is exact).
    let p = m * 100
    let e = fmaResidual(m, p)
    let f = p.rounded(.down)
    let d = (p - f) - 0.5  // exact: p − f is in [0, 1)
    let s = d + e
    var hundredths = UInt64(f)
    if s > 0 || (s == 0 && hundredths % 2 == 1) { hundredths += 1 }
    let whole = hundredths / 100
    let fraction = hundredths % 100
    return sign + String(whole) + (fraction < 10 ? ".0" : ".") + String(fraction)
}

/// `m × 100 − p` exactly (p is `m × 100` rounded).
private func fmaResidual(_ m: Double, _ p: Double) -> Double {
    (-p).addingProduct(m, 100)
}

/// The decimal digits of a non-negative integral double.
private func integerDigits(_ m: Double) -> String {
    if m < 1.8e19 { return String(UInt64(m)) }
    // m = significand × 2^k with k > 0: double a decimal digit array k times.
    let k = Int(m.exponent) - 52
    var digits: [UInt8] = []  // little-endian base 10
    var sig = m.significandBitPattern | (1 << 52)
    while sig > 0 {
        digits.append(UInt8(sig % 10))
        sig /= 10
    }
    for _ in 0..<k {
        var carry: UInt8 = 0
        for i in digits.indices {
            let x = digits[i] * 2 + carry
            digits[i] = x % 10
            carry = x / 10
        }
        if carry > 0 { digits.append(carry) }
    }
    return String(decoding: digits.reversed().map { $0 + 48 }, as: UTF8.self)
}
