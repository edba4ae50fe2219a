/// Formats a number for the event log: rounded to 6 decimals, in the shortest form that keeps
/// those decimals, always with a decimal point or an exponent so that it reads back as a
/// floating-point number (`250.0`, `1.734`, `0.0`, `-0.5`). Negative zero prints as `0.0`;
/// NaN and the infinities, which JSON cannot express, print as `null`.
public func formatNumber(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    let magnitude = v.magnitude
    if magnitude < 1e12 {
        // Exact integer arithmetic on micro-units: no binary-to-decimal surprises.
        let micros = Int64((magnitude * 1_000_000).rounded())
        if micros == 0 { return "0.0" }
        let whole = micros / 1_000_000
        var fraction = micros % 1_000_000
        var digits = 6
        while digits > 1 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var fractionText = String(fraction)
        if fractionText.count < digits {
            fractionText = String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return (v < 0 ? "-" : "") + String(whole) + "." + fractionText
    }
    // Beyond 10^12 six decimals are noise: Swift's shortest round-trip form
    // ("1000000000000.0", "1e+16") is already valid JSON with a point or an exponent.
    return v.description
}

/// Quotes a string as a JSON string literal (quotes, backslashes and control characters escaped;
/// everything else, non-ASCII included, written as UTF-8).
public func jsonQuote(_ s: String) -> String {
    var out = "\""
    out.reserveCapacity(s.utf8.count + 2)
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{08}": out += "\\b"
        case "\u{0C}": out += "\\f"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    out += "\""
    return out
}

/// An ordered JSON object, written on one line: keys keep their insertion order (the event-log
/// lines of docs/DESIGN.md §4.2 have a fixed key order). Adding a key that is already present
/// replaces its value in place. Numbers go through ``formatNumber(_:)``.
///
/// ```swift
/// var line = JSONLine()
/// line.add("type", "layout")
/// line.add("width", 1024)
/// line.text  // {"type":"layout","width":1024}
/// ```
public struct JSONLine: Hashable, Sendable, CustomStringConvertible {
    private var keys: [String] = []
    private var values: [String] = []

    public init() {}

    /// Adds a value already encoded as JSON text (used by the typed `add` overloads).
    public mutating func addRaw(_ key: String, _ json: String) {
        if let i = keys.firstIndex(of: key) {
            values[i] = json
        } else {
            keys.append(key)
            values.append(json)
        }
    }

    public mutating func add(_ key: String, _ value: Double) { addRaw(key, formatNumber(value)) }
    public mutating func add(_ key: String, _ value: Int) { addRaw(key, String(value)) }
    public mutating func add(_ key: String, _ value: String) { addRaw(key, jsonQuote(value)) }
    public mutating func add(_ key: String, _ value: Bool) { addRaw(key, value ? "true" : "false") }
    public mutating func add(_ key: String, _ value: [Double]) {
        addRaw(key, "[" + value.map(formatNumber).joined(separator: ",") + "]")
    }
    public mutating func add(_ key: String, _ value: [Int]) {
        addRaw(key, "[" + value.map { String($0) }.joined(separator: ",") + "]")
    }
    public mutating func add(_ key: String, _ value: [String]) {
        addRaw(key, "[" + value.map(jsonQuote).joined(separator: ",") + "]")
    }
    /// A nested object.
    public mutating func add(_ key: String, _ value: JSONLine) { addRaw(key, value.text) }
    /// An explicit `null`.
    public mutating func addNull(_ key: String) { addRaw(key, "null") }

    /// The keys, in order.
    public var orderedKeys: [String] { keys }

    /// The object as one line of JSON, without a trailing newline.
    public var text: String {
        var out = "{"
        for i in keys.indices {
            if i > 0 { out += "," }
            out += jsonQuote(keys[i])
            out += ":"
            out += values[i]
        }
        out += "}"
        return out
    }

    public var description: String { text }
}
