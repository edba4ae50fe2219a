/// A JSON value of a playground spec file, with the 1-based line where it starts (for error
/// messages). Objects keep their key order and the line of each key.
struct SpecValue {
    enum Kind {
        case object([(key: String, line: Int, value: SpecValue)])
        case array([SpecValue])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }
    var kind: Kind
    var line: Int

    /// How the value reads in an error message: `"tapp"`, `2`, `an array`, ….
    var described: String {
        switch kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let s): return "\"" + s + "\""
        case .number(let n):
            if n == n.rounded(), n.magnitude < 1e15 { return String(Int64(n)) }
            return String(n)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }
}

/// A JSON syntax error at a line.
struct SpecSyntaxError: Error {
    var line: Int
    var message: String
}

/// A strict JSON parser (RFC 8259) for whole spec files, tracking lines. Duplicate keys are an
/// error.
struct SpecJSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private var line = 1

    static func parse(_ text: String) throws(SpecSyntaxError) -> SpecValue {
        var p = SpecJSONParser(bytes: Array(text.utf8))
        // A UTF-8 byte order mark is tolerated.
        if p.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3 }
        p.skipSpace()
        guard p.i < p.bytes.count else {
            throw SpecSyntaxError(line: p.line, message: "expected a JSON array, got an empty file")
        }
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i < p.bytes.count { throw p.error("expected the end of the file after the JSON value") }
        return v
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> SpecSyntaxError { SpecSyntaxError(line: line, message: message) }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x0A:
                line += 1
                i += 1
            case 0x20, 0x09, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(SpecSyntaxError) -> SpecValue {
        guard depth < 64 else { throw error("nesting too deep") }
        let start = line
        guard let c = peek else { throw error("expected a value, got the end of the file") }
        switch c {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return SpecValue(kind: .string(try string()), line: start)
        case UInt8(ascii: "t"):
            try literal("true")
            return SpecValue(kind: .bool(true), line: start)
        case UInt8(ascii: "f"):
            try literal("false")
            return SpecValue(kind: .bool(false), line: start)
        case UInt8(ascii: "n"):
            try literal("null")
            return SpecValue(kind: .null, line: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return SpecValue(kind: .number(try number()), line: start)
        default: throw error("expected a value")
        }
    }

    private mutating func literal(_ word: String) throws(SpecSyntaxError) {
        for b in word.utf8 {
            guard peek == b else { throw error("expected a value") }
            i += 1
        }
    }

    private mutating func object(depth: Int) throws(SpecSyntaxError) -> SpecValue {
        let start = line
        i += 1
        var members: [(key: String, line: Int, value: SpecValue)] = []
        skipSpace()
        if peek == UInt8(ascii: "}") {
            i += 1
            return SpecValue(kind: .object(members), line: start)
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyLine = line
            let key = try string()
            if members.contains(where: { $0.key == key }) {
                throw SpecSyntaxError(line: keyLine, message: "duplicate key \"\(key)\"")
            }
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
            i += 1
            skipSpace()
            let v = try value(depth: depth + 1)
            members.append((key, keyLine, v))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"):
                i += 1
                return SpecValue(kind: .object(members), line: start)
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(SpecSyntaxError) -> SpecValue {
        let start = line
        i += 1
        var items: [SpecValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            i += 1
            return SpecValue(kind: .array(items), line: start)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"):
                i += 1
                return SpecValue(kind: .array(items), line: start)
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func string() throws(SpecSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("expected '\"' to close the string") }
            i += 1
            switch c {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw error("expected an escape after '\\'") }
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard peek == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") else {
                            throw error("expected a low surrogate after a high surrogate")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("expected a low surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("expected a valid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw error("expected a valid escape after '\\'")
                }
            default:
                if c < 0x20 { throw error("expected '\"' to close the string before the end of the line") }
                out.append(c)
            }
        }
    }

    private mutating func hex4() throws(SpecSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek else { throw error("expected 4 hex digits after \\u") }
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("expected 4 hex digits after \\u")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    private mutating func number() throws(SpecSyntaxError) -> Double {
        let start = i
        if peek == UInt8(ascii: "-") { i += 1 }
        guard let first = peek, first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else {
            throw error("expected a digit")
        }
        if first == UInt8(ascii: "0") {
            i += 1
        } else {
            while let c = peek, c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { i += 1 }
        }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard let c = peek, c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else {
                throw error("expected a digit after '.'")
            }
            while let c = peek, c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { i += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard let c = peek, c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else {
                throw error("expected a digit in the exponent")
            }
            while let c = peek, c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else { throw error("expected a finite number") }
        return v
    }
}
