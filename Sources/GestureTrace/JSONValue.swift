/// A parsed JSON value with where it starts in the text: the 1-based line and the 1-based byte
/// column. Objects keep their key order and the position of each key; numbers remember whether
/// they were written as integers. Made by ``JSONParser``; Foundation's `JSONSerialization` keeps
/// none of this, which error messages that name a line need.
public struct JSONValue: Equatable, Sendable {
    /// What the value is.
    public enum Kind: Equatable, Sendable {
        case object([Member])
        case array([JSONValue])
        case string(String)
        /// `integer` is set when the literal had no fraction and no exponent and fits an `Int`.
        case number(Double, integer: Int?)
        case bool(Bool)
        case null
    }

    /// One key of an object, with the position of the key (the value carries its own).
    public struct Member: Equatable, Sendable {
        public var key: String
        public var line: Int
        public var column: Int
        public var value: JSONValue
    }

    public var kind: Kind
    /// The 1-based line where the value starts.
    public var line: Int
    /// The 1-based byte column where the value starts, counted from the start of its line.
    public var column: Int

    /// How the value reads in an error message: `"tapp"` (quoted, not escaped), `2`, `2.5`,
    /// `an object`, `an array`, `true`, `null`. A number with no fraction prints as an integer.
    public var described: String {
        switch kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let s): return MessageText.quoted(s)
        case .number(let n, _):
            if n == n.rounded(), n.magnitude < 1e15 { return String(Int64(n)) }
            return String(n)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }
}

/// A JSON syntax error: where (1-based line, 1-based byte column within the line) and what was
/// expected there, worded for the ``JSONParser/Style`` that was parsed.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
}

/// A small strict JSON parser (RFC 8259): one value, nothing but white space around it, at most
/// 64 levels of nesting, and duplicate keys are an error. It serves the JSON Lines trace reader
/// (one line at a time, errors by column) and the playground spec reader (whole files, errors by
/// line); the ``Style`` picks the wording of the errors and the few rules that differ.
public struct JSONParser {
    /// What the text is.
    public enum Style: Equatable, Sendable {
        /// One line of a JSON Lines file; the caller skips blank lines and strips a byte order
        /// mark. Terse messages (`expected ':'`, `leading zero in number`); keys in messages
        /// are escaped as JSON. Lenient like most JSON readers where RFC 8259 lets it be: an
        /// unpaired surrogate escape reads as U+FFFD, and a number too large for a `Double`
        /// reads as an infinity, left for the caller to refuse.
        case line
        /// A whole file, which may span lines and start with a UTF-8 byte order mark (columns
        /// on the first line count from after it). A file of nothing but white space is the
        /// error "expected `expecting`, got an empty file". Messages say where the error is
        /// (`expected ',' or ']' in an array`); unpaired surrogates and numbers out of range
        /// are errors. A number ends after a leading `0`, so `01` fails on the `1`.
        case document(expecting: String)
    }

    private let bytes: [UInt8]
    private let isLine: Bool
    private var i = 0
    private var line = 1
    private var lineStart = 0

    /// Parses `text` as one JSON value.
    public static func parse(_ text: some StringProtocol, style: Style) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: Array(text.utf8), style: style)
    }

    /// Parses UTF-8 `bytes` as one JSON value (see ``parse(_:style:)``).
    public static func parse(bytes: [UInt8], style: Style) throws(JSONSyntaxError) -> JSONValue {
        var p = JSONParser(bytes: bytes, isLine: style == .line)
        if case .document(let expecting) = style {
            if p.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                p.i = 3
                p.lineStart = 3
            }
            p.skipSpace()
            if p.i == p.bytes.count { throw p.error("expected \(expecting), got an empty file") }
        }
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i < p.bytes.count {
            throw p.fail(
                "expected the end of the line after the JSON value", "expected the end of the file after the JSON value"
            )
        }
        return v
    }

    private init(bytes: [UInt8], isLine: Bool) {
        self.bytes = bytes
        self.isLine = isLine
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: i - lineStart + 1, message: message)
    }

    /// The error at the current position, worded for a line or for a document.
    private func fail(_ lineMessage: String, _ documentMessage: String) -> JSONSyntaxError {
        error(isLine ? lineMessage : documentMessage)
    }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private var peekDigit: Bool { i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x0A:
                line += 1
                i += 1
                lineStart = i
            case 0x20, 0x09, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < 64 else { throw error("nesting too deep") }
        guard let c = peek else { throw fail("expected a value", "expected a value, got the end of the file") }
        let (startLine, startColumn) = (line, i - lineStart + 1)
        let kind: JSONValue.Kind
        switch c {
        case UInt8(ascii: "{"): kind = try object(depth: depth)
        case UInt8(ascii: "["): kind = try array(depth: depth)
        case UInt8(ascii: "\""): kind = .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            kind = .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            kind = .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            kind = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = try number()
        default: throw error("expected a value")
        }
        return JSONValue(kind: kind, line: startLine, column: startColumn)
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let start = i
        for b in word.utf8 {
            guard peek == b else {
                i = start
                throw error("expected a value")
            }
            i += 1
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue.Kind {
        i += 1
        var members: [JSONValue.Member] = []
        // Duplicate keys: a scan of the few keys of a usual object, a set once there are many
        // (a 2 MB object of 200k keys would otherwise take minutes).
        var keys: Set<String> = []
        skipSpace()
        if peek == UInt8(ascii: "}") {
            i += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let (keyStart, keyLine, keyColumn) = (i, line, i - lineStart + 1)
            let key = try string()
            if members.count == 16 { keys = Set(members.map(\.key)) }
            let duplicate =
                members.count < 16 ? members.contains(where: { $0.key == key }) : !keys.insert(key).inserted
            if duplicate {
                i = keyStart
                throw error("duplicate key \(MessageText.quoted(key))")
            }
            skipSpace()
            guard peek == UInt8(ascii: ":") else {
                throw fail("expected ':'", "expected ':' after the key \(MessageText.quoted(key))")
            }
            i += 1
            skipSpace()
            let v = try value(depth: depth + 1)
            members.append(JSONValue.Member(key: key, line: keyLine, column: keyColumn, value: v))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"):
                i += 1
                return .object(members)
            default: throw fail("expected ',' or '}'", "expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue.Kind {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"):
                i += 1
                return .array(items)
            default: throw fail("expected ',' or ']'", "expected ',' or ']' in an array")
            }
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            let d: UInt32
            switch peek {
            case let c? where c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case let c? where c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case let c? where c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("expected 4 hexadecimal digits", "expected 4 hex digits after \\u")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    /// Reads the 4 digits of a `\u` escape and appends its scalar to `out`; a high surrogate
    /// takes the low one that must follow (a line reads an unpaired surrogate as U+FFFD).
    private mutating func unicodeEscape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            if peek == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") {
                i += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if isLine {
                    append("\u{FFFD}", to: &out)
                    scalar = low
                } else {
                    throw error("expected a low surrogate")
                }
            } else if !isLine {
                throw error("expected a low surrogate after a high surrogate")
            }
        }
        if let u = Unicode.Scalar(scalar) {
            append(u, to: &out)
        } else if isLine {
            append("\u{FFFD}", to: &out)
        } else {
            throw error("expected a valid \\u escape")
        }
    }

    private func append(_ u: Unicode.Scalar, to out: inout [UInt8]) {
        UTF8.encode(u) { out.append($0) }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw fail("unterminated string", "expected '\"' to close the string") }
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                i += 1
                guard let e = peek else { throw fail("unterminated string", "expected an escape after '\\'") }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): try unicodeEscape(into: &out)
                default:
                    i -= 2
                    throw fail("invalid escape in string", "expected a valid escape after '\\'")
                }
            default:
                if c < 0x20 {
                    throw fail(
                        "control character in string", "expected '\"' to close the string before the end of the line")
                }
                out.append(c)
                i += 1
            }
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue.Kind {
        let start = i
        if peek == UInt8(ascii: "-") { i += 1 }
        guard peekDigit else { throw error("expected a digit") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            // A document lets the number end here: the next digit is then out of place.
            if isLine && peekDigit {
                i = start
                throw error("leading zero in number")
            }
        } else {
            while peekDigit { i += 1 }
        }
        var isInteger = true
        if peek == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard peekDigit else { throw fail("expected a digit", "expected a digit after '.'") }
            while peekDigit { i += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard peekDigit else { throw fail("expected a digit", "expected a digit in the exponent") }
            while peekDigit { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let d = Double(text), isLine || d.isFinite else {
            throw fail("invalid number", "expected a finite number")
        }
        return .number(d, integer: isInteger ? Int(text) : nil)
    }
}
