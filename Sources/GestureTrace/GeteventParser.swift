import GestureKit

/// Android `getevent -lt` text: `[   <sec>.<usec>] <TYPE> <CODE> <VALUE>`, with symbolic type and
/// code names (or hex numbers for unnamed ones) and hex values (`ffffffff` is −1; keys may read
/// `DOWN`/`UP`). The events go through the same multitouch reconstruction as evemu (these
/// recordings are protocol A with tracking ids).
///
/// Deviation from the evemu rules: the text has no device header, so unless `--device` gives
/// `A:` ranges, device units are taken as points (Android reports screen pixels), clamped into
/// the viewport.
struct GeteventParser {
    let file: String

    /// True when the line looks like `[ 123.456] …`.
    static func looks(like line: Substring) -> Bool {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return false }
        let stamp = line[line.index(after: line.startIndex)..<close]
        guard !stamp.isEmpty, stamp.allSatisfy({ $0 == " " || $0 == "." || ($0.isASCII && $0.isNumber) }) else {
            return false
        }
        return !line[line.index(after: close)...].allSatisfy { $0 == " " || $0 == "\t" }
    }

    static let types: [String: UInt16] = [
        "EV_SYN": 0x00, "EV_KEY": 0x01, "EV_REL": 0x02, "EV_ABS": 0x03, "EV_MSC": 0x04,
    ]
    static let codes: [String: UInt16] = [
        "SYN_REPORT": 0x00, "SYN_CONFIG": 0x01, "SYN_MT_REPORT": 0x02, "SYN_DROPPED": 0x03,
        "ABS_X": 0x00, "ABS_Y": 0x01, "ABS_PRESSURE": 0x18, "ABS_MT_SLOT": 0x2f, "ABS_MT_TOUCH_MAJOR": 0x30,
        "ABS_MT_TOUCH_MINOR": 0x31, "ABS_MT_WIDTH_MAJOR": 0x32, "ABS_MT_WIDTH_MINOR": 0x33,
        "ABS_MT_ORIENTATION": 0x34, "ABS_MT_POSITION_X": 0x35, "ABS_MT_POSITION_Y": 0x36,
        "ABS_MT_TOOL_TYPE": 0x37, "ABS_MT_BLOB_ID": 0x38, "ABS_MT_TRACKING_ID": 0x39, "ABS_MT_PRESSURE": 0x3a,
        "ABS_MT_DISTANCE": 0x3b, "BTN_TOUCH": 0x14a, "BTN_TOOL_FINGER": 0x145,
    ]

    func parseEvents(_ text: String) throws(TraceError) -> [EvdevEvent] {
        var events: [EvdevEvent] = []
        var n = 0
        for raw in lines(of: text) {
            n += 1
            if let e = try parseLine(raw, line: n) { events.append(e) }
        }
        return events
    }

    /// One line as ``lines(of:)`` splits the text (a `\r` before its end is dropped): its event,
    /// or nil when it is blank.
    func parseLine(_ raw: Substring, line n: Int) throws(TraceError) -> EvdevEvent? {
        let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return nil }
        return try parseEvent(line, line: n)
    }

    private func parseEvent(_ line: Substring, line n: Int) throws(TraceError) -> EvdevEvent {
        func fail(_ m: String) -> TraceError { TraceError(file: file, line: n, message: m) }
        let shape = "expected \"[ <seconds>.<microseconds>] <type> <code> <value hex>\" (getevent -lt)"
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { throw fail(shape) }
        let stamp = line[line.index(after: line.startIndex)..<close].trimmingBlanks
        guard let time = EvemuParser.parseTime(ArraySlice(stamp.utf8)) else {
            throw fail("expected a time \"<seconds>.<microseconds>\", got \(MessageText.quoted(stamp))")
        }
        let fields = line[line.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count == 3 else { throw fail(shape) }
        guard let type = Self.types[String(fields[0])] ?? EvemuParser.parseHex(ArraySlice(fields[0].utf8)) else {
            throw fail("unknown event type \(MessageText.quoted(fields[0]))")
        }
        guard let code = Self.codes[String(fields[1])] ?? EvemuParser.parseHex(ArraySlice(fields[1].utf8)) else {
            throw fail("unknown event code \(MessageText.quoted(fields[1]))")
        }
        let valueText = String(fields[2])
        let value: Int32
        switch valueText {
        case "DOWN": value = 1
        case "UP": value = 0
        case "REPEAT": value = 2
        default:
            guard valueText.count <= 8, let bits = UInt32(valueText, radix: 16) else {
                throw fail("expected a hexadecimal event value, got \(MessageText.quoted(valueText))")
            }
            value = Int32(bitPattern: bits)
        }
        return EvdevEvent(line: n, time: time, type: type, code: code, value: value)
    }
}

extension Substring {
    fileprivate var trimmingBlanks: Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return s
    }
}
