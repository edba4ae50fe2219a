import GestureKit

/// Linux input event codes the evemu reader understands (linux/input-event-codes.h).
enum EvdevCode {
    static let evSyn: UInt16 = 0x00
    static let evKey: UInt16 = 0x01
    static let evAbs: UInt16 = 0x03
    static let synReport: UInt16 = 0x00
    static let synMTReport: UInt16 = 0x02
    static let synDropped: UInt16 = 0x03
    static let btnTouch: UInt16 = 0x14a
    static let absX: UInt16 = 0x00
    static let absY: UInt16 = 0x01
    static let absMTSlot: UInt16 = 0x2f
    static let absMTTouchMajor: UInt16 = 0x30
    static let absMTPositionX: UInt16 = 0x35
    static let absMTPositionY: UInt16 = 0x36
    static let absMTTrackingID: UInt16 = 0x39
}

/// One `E:` line.
struct EvdevEvent {
    var line: Int
    /// Nanoseconds since the epoch of the recording (absolute; made relative later).
    var time: Int64
    var type: UInt16
    var code: UInt16
    var value: Int32
}

/// The range of one absolute axis from an `A:` line.
struct AxisRange: Equatable {
    var min: Int
    var max: Int
}

/// The `evemu-record` text format: a device header (`N:` name, `I:` ids, `P:` properties,
/// `B:` bits, `A:` absolute axes, `L:` LEDs, `S:` switches), `#` comments, and events
/// `E: <sec>.<usec> <type> <code> <value>` (hex type and code, decimal value, an optional
/// trailing `# comment`).
///
/// Touches are reconstructed per kernel multitouch protocol:
/// - **Protocol B** (slots): `ABS_MT_SLOT` selects a slot (0 at first), `ABS_MT_TRACKING_ID` ≥ 0
///   starts a touch in it and −1 lifts it, positions persist per slot. A touch that starts and
///   lifts within one `SYN_REPORT` frame is never seen and is dropped. A touch in a slot whose
///   position was never reported (the kernel only sends changed values, and the recording may
///   start after the last change) begins once both coordinates are known; if they never are
///   (`Wacom_Intuos5_touch_M_Finger_double-tap.events`, second finger) it is dropped rather than
///   invented at the device's origin.
/// - **Protocol A** (any `SYN_MT_REPORT` in the recording): every frame lists every contact; a
///   contact missing from the next frame has lifted. Contacts with `ABS_MT_TRACKING_ID` are
///   matched by it; the others are matched to the nearest unmatched contact of the previous
///   frame (closest pairs first). A contact without a position, or with `ABS_MT_TOUCH_MAJOR` 0
///   (Apple bcm5974 reports lifting fingers so), is not touching.
/// - **Single touch** (no multitouch axes): `ABS_X`/`ABS_Y` with `BTN_TOUCH` as one finger.
///
/// At most ``TraceReader/maximumTouches`` fingers may be down at once (active protocol-B slots,
/// contacts of one protocol-A frame): the event that adds one more is refused.
///
/// Each `SYN_REPORT` closes a frame: one ``TouchFrame`` at that event's time, counted from the
/// recording's first event, holding the ended touches first, then the began and moved ones
/// (ascending slot order for protocol B, contact order for protocol A). Frames without a change
/// are skipped. Each new finger gets a fresh id, increasing from 1. Positions are scaled per axis
/// from the device range (`A: 35`/`A: 36`, else `A: 00`/`A: 01`) to the viewport,
/// `x = (v − min) / (max − min) · width`, and clamped into the viewport (a touch exactly on the
/// far edge would otherwise miss every view: rectangles are half-open).
struct EvemuParser {
    let file: String
    let deviceFile: String
    let viewport: Size

    static let headerPrefixes: Set<String> = ["N", "I", "P", "B", "A", "L", "S"]

    /// True when the text looks like an evemu recording (its first meaningful line).
    static func looksLikeEvemu(_ firstLine: Substring) -> Bool {
        if firstLine.hasPrefix("#") { return true }
        guard firstLine.count >= 2, firstLine.dropFirst().first == ":" else { return false }
        let p = String(firstLine.prefix(1))
        return p == "E" || headerPrefixes.contains(p)
    }

    /// The parsed lines of one evemu text (a recording or a device description).
    struct Parsed {
        var ranges: [UInt16: AxisRange] = [:]
        var events: [EvdevEvent] = []
    }

    /// One parsed evemu line.
    enum Line {
        case event(EvdevEvent)
        case axis(UInt16, AxisRange)
        /// A header line other than `A:`, a comment or a blank line.
        case other
    }

    /// Parses every line. A device description may be a whole recording: its events are checked
    /// like any others and then ignored by the caller (`keepEvents` false: not kept). Works on
    /// UTF-8 bytes: recordings run to tens of thousands of lines.
    static func parseLines(_ text: String, file: String, keepEvents: Bool = true) throws(TraceError) -> Parsed {
        var parsed = Parsed()
        let bytes = Array(text.utf8)
        let count = bytes.count
        var n = 0
        var start = 0
        while start <= count {
            var end = start
            while end < count && bytes[end] != 0x0A { end += 1 }
            n += 1
            switch try parseLine(bytes[start..<end], number: n, file: file) {
            case .event(let e): if keepEvents { parsed.events.append(e) }
            case .axis(let code, let range): parsed.ranges[code] = range
            case .other: break
            }
            start = end + 1
        }
        return parsed
    }

    /// One line without its `\n` (a `\r` before it is dropped), numbered `n` in errors.
    static func parseLine(_ bytes: ArraySlice<UInt8>, number n: Int, file: String) throws(TraceError) -> Line {
        let start = bytes.startIndex
        var stop = bytes.endIndex
        if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
        var first = start
        while first < stop && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
        if first == stop || bytes[first] == UInt8(ascii: "#") { return .other }
        if stop - start >= 2 && bytes[start + 1] == UInt8(ascii: ":") {
            switch bytes[start] {
            case UInt8(ascii: "E"):
                return .event(try parseEvent(bytes[(start + 2)..<stop], line: n, file: file))
            case UInt8(ascii: "A"):
                let rest = String(decoding: bytes[(start + 2)..<stop], as: UTF8.self)
                let (code, range) = try parseAxis(rest[...], line: n, file: file)
                return .axis(code, range)
            case UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "P"), UInt8(ascii: "B"),
                UInt8(ascii: "L"), UInt8(ascii: "S"):
                return .other
            default:
                break
            }
        }
        throw TraceError(
            file: file, line: n,
            message: "expected an evemu line (\"N:\", \"I:\", \"P:\", \"B:\", \"A:\", \"L:\", \"S:\", \"E:\" or \"#\")")
    }

    /// Splits on blanks, stopping at a `#` comment.
    static func fields(_ s: Substring) -> [Substring] {
        var out: [Substring] = []
        for f in s.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            if f.hasPrefix("#") { break }
            out.append(f)
        }
        return out
    }

    static func parseAxis(_ rest: Substring, line: Int, file: String) throws(TraceError) -> (UInt16, AxisRange) {
        let f = fields(rest)
        guard f.count >= 3, let code = UInt16(f[0], radix: 16), let lo = Int(f[1]), let hi = Int(f[2]),
            f.dropFirst(3).allSatisfy({ Int($0) != nil })
        else {
            throw TraceError(
                file: file, line: line,
                message: "expected \"A: <code hex> <min> <max> <fuzz> <flat> [<resolution>]\"")
        }
        // The kernel's input_absinfo limits are 32-bit: wider ones would overflow the scaling.
        guard Int32(exactly: lo) != nil, Int32(exactly: hi) != nil else {
            throw TraceError(
                file: file, line: line,
                message: "expected the axis minimum and maximum to be 32-bit integers, got \(lo) and \(hi)")
        }
        return (code, AxisRange(min: lo, max: hi))
    }

    /// The rest of an `E:` line: `<sec>.<usec> <type hex> <code hex> <value>`, then an optional
    /// `# comment`.
    static func parseEvent(_ b: ArraySlice<UInt8>, line: Int, file: String) throws(TraceError) -> EvdevEvent {
        func fail(_ m: String) -> TraceError { TraceError(file: file, line: line, message: m) }
        var tokens: [Range<Int>] = []
        tokens.reserveCapacity(4)
        var i = b.startIndex
        while i < b.endIndex {
            while i < b.endIndex && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
            if i == b.endIndex || b[i] == UInt8(ascii: "#") { break }
            let s = i
            while i < b.endIndex && b[i] != 0x20 && b[i] != 0x09 { i += 1 }
            tokens.append(s..<i)
            if tokens.count > 4 { break }
        }
        guard tokens.count == 4 else {
            throw fail("expected \"E: <seconds>.<microseconds> <type hex> <code hex> <value>\"")
        }
        func quoted(_ r: Range<Int>) -> String { MessageText.quoted(String(decoding: b[r], as: UTF8.self)) }
        guard let time = parseTime(b[tokens[0]]) else {
            throw fail("expected a time \"<seconds>.<microseconds>\", got \(quoted(tokens[0]))")
        }
        guard let type = parseHex(b[tokens[1]]) else {
            throw fail("expected a hexadecimal event type, got \(quoted(tokens[1]))")
        }
        guard let code = parseHex(b[tokens[2]]) else {
            throw fail("expected a hexadecimal event code, got \(quoted(tokens[2]))")
        }
        guard let value = parseDecimal(b[tokens[3]]) else {
            throw fail("expected a decimal event value, got \(quoted(tokens[3]))")
        }
        return EvdevEvent(line: line, time: time, type: type, code: code, value: value)
    }

    static func parseHex(_ b: ArraySlice<UInt8>) -> UInt16? {
        guard !b.isEmpty, b.count <= 8 else { return nil }
        var v: UInt32 = 0
        for c in b {
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            v = v * 16 + d
        }
        return v <= UInt32(UInt16.max) ? UInt16(v) : nil
    }

    static func parseDecimal(_ b: ArraySlice<UInt8>) -> Int32? {
        var i = b.startIndex
        var negative = false
        if i < b.endIndex && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) {
            negative = b[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < b.endIndex, b.endIndex - i <= 12 else { return nil }
        var v: Int64 = 0
        while i < b.endIndex {
            let c = b[i]
            guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
            v = v * 10 + Int64(c - UInt8(ascii: "0"))
            i += 1
        }
        if negative { v = -v }
        return Int32(exactly: v)
    }

    /// `sec.frac` (up to 9 fractional digits) as nanoseconds; nil when malformed or beyond
    /// `Int64` nanoseconds (9223372036.854775807 s, the year 2262).
    static func parseTime(_ b: ArraySlice<UInt8>) -> Int64? {
        var sec: Int64 = 0
        var secDigits = 0
        var i = b.startIndex
        while i < b.endIndex, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
            secDigits += 1
            guard secDigits <= 12 else { return nil }
            sec = sec * 10 + Int64(b[i] - UInt8(ascii: "0"))
            i += 1
        }
        guard secDigits > 0 else { return nil }
        var ns: Int64 = 0
        if i < b.endIndex {
            guard b[i] == UInt8(ascii: ".") else { return nil }
            i += 1
            var digits = 0
            while i < b.endIndex, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
                digits += 1
                guard digits <= 9 else { return nil }
                ns = ns * 10 + Int64(b[i] - UInt8(ascii: "0"))
                i += 1
            }
            guard i == b.endIndex, digits > 0 else { return nil }
            for _ in digits..<9 { ns *= 10 }
        }
        let (whole, o1) = sec.multipliedReportingOverflow(by: 1_000_000_000)
        let (time, o2) = whole.addingReportingOverflow(ns)
        return o1 || o2 ? nil : time
    }

    // MARK: Touch reconstruction

    enum Mode { case protocolA, protocolB, singleTouch }

    func parse(text: String, deviceText: String?) throws(TraceError) -> [InputEvent] {
        let recording = try Self.parseLines(text, file: file)
        return try frames(recording.events, ranges: recording.ranges, deviceText: deviceText, unitsArePoints: false)
    }

    /// Touch frames from parsed events. `unitsArePoints`: without axis ranges, take device
    /// units as points (Android getevent text has no header) instead of failing.
    func frames(
        _ events: [EvdevEvent], ranges recorded: [UInt16: AxisRange], deviceText: String?, unitsArePoints: Bool
    ) throws(TraceError) -> [InputEvent] {
        var summary = EvdevSummary()
        for e in events { summary.note(e) }
        guard
            var builder = try builder(
                summary, ranges: recorded, deviceText: deviceText, unitsArePoints: unitsArePoints)
        else { return [] }
        for e in events { try builder.feed(e) }
        return builder.output
    }

    /// The frame builder for a recording of which `summary` was gathered (nil when it has no
    /// events), after the device description's checks and the axis ranges' (errors at the
    /// recording's first event): the events are then fed to it in order.
    func builder(
        _ summary: EvdevSummary, ranges recorded: [UInt16: AxisRange], deviceText: String?, unitsArePoints: Bool
    ) throws(TraceError) -> FrameBuilder? {
        var ranges = recorded
        if let deviceText {
            let device = try Self.parseLines(deviceText, file: deviceFile, keepEvents: false)
            ranges.merge(device.ranges) { _, fromDevice in fromDevice }
        }
        guard let first = summary.first else { return nil }

        var mode = Mode.singleTouch
        if summary.multitouchReport {
            mode = .protocolA
        } else if ranges[EvdevCode.absMTPositionX] != nil || summary.multitouchAxis {
            mode = .protocolB
        }
        let xCode = mode == .singleTouch ? EvdevCode.absX : EvdevCode.absMTPositionX
        let yCode = mode == .singleTouch ? EvdevCode.absY : EvdevCode.absMTPositionY
        let xr = ranges[xCode] ?? ranges[EvdevCode.absX]
        let yr = ranges[yCode] ?? ranges[EvdevCode.absY]
        if (xr == nil || yr == nil) && !unitsArePoints {
            let line = first.line
            throw TraceError(
                file: file, line: line,
                message:
                    "no axis ranges for the touch positions (no \"A: 35\"/\"A: 36\" or \"A: 00\"/\"A: 01\" header lines); give the device description with --device"
            )
        }
        for (code, range) in [(xCode, xr), (yCode, yr)] {
            guard let r = range, r.max <= r.min else { continue }
            throw TraceError(
                file: file, line: first.line,
                message: "axis \(String(code, radix: 16)) has an empty range (min \(r.min), max \(r.max))")
        }
        let scaler = Scaler(x: xr, y: yr, viewport: viewport)
        return FrameBuilder(start: first.time, scaler: scaler, file: file, mode: mode)
    }
}
