import GestureKit

/// The JSON Lines trace format of docs/DESIGN.md §4.1, read strictly.
///
/// Rules (each violation is a ``TraceError`` naming the line):
/// - every non-blank line is one JSON object with a string `type` among `viewport down move up
///   cancel shake pinch wait set`, and no keys other than those of its type;
/// - `t` is a finite number ≥ 0 that never decreases; `id` is an integer; `x`, `y` are finite
///   numbers (required for down, move, up; optional, as a pair, for cancel);
/// - every number is bounded: `t` by ``TraceReader/maximumTime``, every other one (`x`, `y`,
///   `width`, `height`, `scale`, `angle`, `translation`, `rotation`) by
///   ``TraceReader/maximumMagnitude`` — beyond, sums and products of them could overflow to an
///   infinity, which the event log could not print;
/// - a `down` needs its id not to be down, and fewer than ``TraceReader/maximumTouches`` down;
///   `move`/`up`/`cancel` need it down;
/// - `viewport` only as the first line, with positive `width` and `height`;
/// - `pinch` needs `phase` (`begin update end cancel`); begin and update need `x`, `y`;
///   `scale` (absolute, > 0) is optional and defaults to 1 at begin and to the previous pinch
///   event's scale otherwise; `angle` (a delta in degrees) is optional and defaults to 0. End and
///   cancel need only `t` and `phase`; missing values repeat the previous pinch event's.
/// - `set` needs `recognizer` (a non-empty string) and at least one of `isEnabled` and
///   `cancelsTouchesInView` (true or false), `translation` (`[dx, dy]`, finite), `scale` and
///   `rotation` (finite numbers); it becomes a ``TraceAction``, not an input event.
///
/// Touch lines sharing `t` (consecutive, in file order) form one ``TouchFrame``; shake, pinch,
/// scroll, wait and set lines are events of their own and close the frame in progress (so a set line
/// between two touch lines of the same `t` acts between them).
struct JSONLTraceParser {
    let file: String
    /// The events read, in order (none when a ``sink`` takes them).
    var events: [InputEvent] = []
    /// Takes each event as it is complete, instead of ``events`` (a trace streamed: checked
    /// whole first with a sink that drops them, then read again as it is replayed).
    var sink: ((InputEvent) -> Void)?
    /// How many events were read so far (where a `set` line's action is placed).
    private var eventCount = 0
    var actions: [TraceAction] = []
    var viewport: Size?
    private var frame: TouchFrame?
    private var lastTime: Double?
    private var down: [Int: Point] = [:]
    private var sawLine = false
    private var pinchLocation = Point.zero
    private var pinchScale = 1.0

    init(file: String) { self.file = file }

    static let allowedKeys: [String: [String]] = [
        "viewport": ["type", "width", "height"],
        "down": ["type", "t", "id", "x", "y"],
        "move": ["type", "t", "id", "x", "y"],
        "up": ["type", "t", "id", "x", "y"],
        "cancel": ["type", "t", "id", "x", "y"],
        "shake": ["type", "t"],
        "wait": ["type", "t"],
        "pinch": ["type", "t", "phase", "x", "y", "scale", "angle"],
        "scroll": ["type", "t", "x", "y", "dx", "dy", "scrollType", "zoom"],
        "set": ["type", "t", "recognizer"] + TraceAction.Setting.keys,
    ]

    mutating func parse(_ text: String) throws(TraceError) {
        try parse(bytes: Array(text.utf8), from: 0)
    }

    /// Parses the lines of `bytes` from `start`, one at a time: no array of lines is made.
    mutating func parse(bytes: [UInt8], from start: Int) throws(TraceError) {
        var lineNumber = 0
        var i = start
        while i <= bytes.count {
            var end = i
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            try take(bytes[i..<end], number: lineNumber)
            i = end + 1
        }
        closeFrame()
    }

    /// Parses the lines of a file as they are read (a byte-order mark at its start skipped).
    mutating func parse(_ lines: FileLines) throws(TraceError) {
        while try parseSome(lines) {}
    }

    /// Parses lines of `lines` until at least one more event was handed over, or to the end
    /// of the file (the frame in progress closed); false once the file is over. Lets a
    /// replay pull a streamed trace one event at a time (``TraceEventReader``).
    mutating func parseSome(_ lines: FileLines) throws(TraceError) -> Bool {
        let before = eventCount
        while eventCount == before {
            guard let line = try lines.next() else {
                closeFrame()
                return false
            }
            let bom = lines.number == 1 && line.starts(with: [0xEF, 0xBB, 0xBF])
            try take(line[(bom ? 3 : 0)...], number: lines.number)
        }
        return true
    }

    /// One line without its `\n`: a `\r` before it dropped, a blank line skipped.
    private mutating func take(_ raw: ArraySlice<UInt8>, number: Int) throws(TraceError) {
        let line = raw.last == 0x0D ? raw.dropLast() : raw
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        try parseLine(line, number: number)
    }

    private mutating func emit(_ event: InputEvent) {
        eventCount += 1
        if let sink { sink(event) } else { events.append(event) }
    }

    private func fail(_ line: Int, _ message: String) -> TraceError {
        TraceError(file: file, line: line, message: message)
    }

    private mutating func closeFrame() {
        if let f = frame { emit(.touches(f)) }
        frame = nil
    }

    private mutating func parseLine(_ line: ArraySlice<UInt8>, number n: Int) throws(TraceError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: Array(line), style: .line)
        } catch {
            throw fail(n, "invalid JSON at column \(error.column): \(error.message)")
        }
        guard case .object(let members) = value.kind else { throw fail(n, "expected a JSON object") }
        let obj = Object(members: members, line: n, file: file)

        guard let typeValue = obj["type"] else { throw fail(n, "missing \"type\"") }
        guard case .string(let type) = typeValue.kind else { throw fail(n, "expected \"type\" to be a string") }
        guard let allowed = Self.allowedKeys[type] else {
            throw fail(
                n,
                "unknown type \(MessageText.quoted(type)) (expected viewport, down, move, up, cancel, shake, pinch, scroll, wait or set)"
            )
        }
        let first = !sawLine
        sawLine = true

        if type == "viewport" {
            guard first else { throw fail(n, "a viewport line is only allowed as the first line") }
            let w = try obj.positive("width")
            let h = try obj.positive("height")
            try obj.checkKeys(allowed, type: type)
            viewport = Size(width: w, height: h)
            return
        }

        let t = try obj.number("t")
        guard t >= 0 else { throw fail(n, "expected \"t\" to be >= 0") }
        if let last = lastTime, t < last {
            throw fail(n, "expected \"t\" >= \(formatNumber(last)) (times never decrease), got \(formatNumber(t))")
        }

        switch type {
        case "down", "move", "up", "cancel":
            let id = try obj.integer("id")
            let location: Point
            if type == "cancel" && obj["x"] == nil && obj["y"] == nil {
                location = down[id] ?? .zero
            } else {
                location = Point(x: try obj.number("x"), y: try obj.number("y"))
            }
            try obj.checkKeys(allowed, type: type)
            let phase: TouchPhase
            switch type {
            case "down":
                guard down[id] == nil else { throw fail(n, "touch \(id) is already down") }
                guard down.count < TraceReader.maximumTouches else {
                    throw fail(n, "expected at most \(TraceReader.maximumTouches) touches down at once")
                }
                phase = .began
                down[id] = location
            case "move":
                guard down[id] != nil else { throw fail(n, "touch \(id) is not down") }
                phase = .moved
                down[id] = location
            case "up":
                guard down[id] != nil else { throw fail(n, "touch \(id) is not down") }
                phase = .ended
                down[id] = nil
            default:
                guard down[id] != nil else { throw fail(n, "touch \(id) is not down") }
                phase = .cancelled
                down[id] = nil
            }
            let change = TouchChange(id: id, phase: phase, location: location)
            if frame?.timestamp == t {
                frame!.changes.append(change)  // in place: a copy per line would be quadratic
            } else {
                closeFrame()
                frame = TouchFrame(timestamp: t, changes: [change])
            }
        case "shake":
            try obj.checkKeys(allowed, type: type)
            closeFrame()
            emit(.shake(timestamp: t))
        case "wait":
            try obj.checkKeys(allowed, type: type)
            closeFrame()
            emit(.wait(timestamp: t))
        case "set":
            try parseSet(obj, at: t)
        case "scroll":
            let scroll = try parseScroll(obj, at: t)
            closeFrame()
            emit(.scroll(scroll))
        default:  // pinch
            guard let phaseValue = obj["phase"] else { throw fail(n, "missing \"phase\"") }
            guard case .string(let phaseName) = phaseValue.kind, let phase = TouchpadPhase(rawValue: phaseName) else {
                throw fail(n, "expected \"phase\" to be one of begin, update, end, cancel")
            }
            let needsLocation = phase == .begin || phase == .update
            if needsLocation || obj["x"] != nil || obj["y"] != nil {
                pinchLocation = Point(x: try obj.number("x"), y: try obj.number("y"))
            }
            if phase == .begin { pinchScale = 1 }
            if obj["scale"] != nil { pinchScale = try obj.positive("scale") }
            let angle = obj["angle"] != nil ? try obj.number("angle") : 0
            try obj.checkKeys(allowed, type: type)
            closeFrame()
            emit(
                .touchpadPinch(
                    TouchpadPinch(
                        timestamp: t, phase: phase, location: pinchLocation, scale: pinchScale, angleDelta: angle)))
        }
        lastTime = t
    }

    /// A `scroll` line (a ``ScrollInput``): `x`, `y` (the pointer), `dx`, `dy` (default 0: how
    /// far the content moves, points, 40 a wheel click), `scrollType` (`discrete`, the default,
    /// or `continuous`), `zoom` (default false: true is a scroll-zoom, Ctrl+wheel).
    private mutating func parseScroll(_ obj: Object, at t: Double) throws(TraceError) -> ScrollInput {
        let location = Point(x: try obj.number("x"), y: try obj.number("y"))
        let dx = obj["dx"] != nil ? try obj.number("dx") : 0
        let dy = obj["dy"] != nil ? try obj.number("dy") : 0
        var type = ScrollType.discrete
        if let v = obj["scrollType"] {
            guard case .string(let name) = v.kind, let parsed = ScrollType(rawValue: name) else {
                throw obj.fail("expected \"scrollType\" to be discrete or continuous")
            }
            type = parsed
        }
        var zoom = false
        if let v = obj["zoom"] {
            guard case .bool(let b) = v.kind else { throw obj.fail("expected \"zoom\" to be true or false") }
            zoom = b
        }
        try obj.checkKeys(Self.allowedKeys["scroll"] ?? [], type: "scroll")
        closeFrame()
        return ScrollInput(timestamp: t, location: location, delta: Vector(dx: dx, dy: dy), type: type, zoom: zoom)
    }

    /// A `set` line: a ``TraceAction`` placed after every event read so far.
    private mutating func parseSet(_ obj: Object, at t: Double) throws(TraceError) {
        guard let nameValue = obj["recognizer"] else { throw obj.fail("missing \"recognizer\"") }
        guard case .string(let name) = nameValue.kind, !name.isEmpty else {
            throw obj.fail("expected \"recognizer\" to be a recognizer's name (a non-empty string)")
        }
        var settings: [TraceAction.Setting] = []
        for m in obj.members where m.key != "type" && m.key != "t" && m.key != "recognizer" {
            switch m.key {
            case "isEnabled", "cancelsTouchesInView":
                guard case .bool(let b) = m.value.kind else {
                    throw obj.fail("expected \(MessageText.quoted(m.key)) to be true or false")
                }
                settings.append(m.key == "isEnabled" ? .isEnabled(b) : .cancelsTouchesInView(b))
            case "translation":
                guard case .array(let items) = m.value.kind, items.count == 2,
                    case .number(let dx, _) = items[0].kind, case .number(let dy, _) = items[1].kind,
                    dx.magnitude <= TraceReader.maximumMagnitude, dy.magnitude <= TraceReader.maximumMagnitude
                else {
                    throw obj.fail(
                        "expected \"translation\" to be [dx, dy] (two finite numbers within ±1000000, window points)")
                }
                settings.append(.translation(Vector(dx: dx, dy: dy)))
            case "scale":
                settings.append(.scale(try obj.number("scale")))
            case "rotation":
                settings.append(.rotation(try obj.number("rotation")))
            default:
                throw obj.fail(
                    "unexpected key \(MessageText.quoted(m.key)) in a \"set\" line (expected \(Self.settingList))")
            }
        }
        if settings.isEmpty {
            throw obj.fail("expected a property to set (\(Self.settingList)) in a \"set\" line")
        }
        closeFrame()
        actions.append(
            TraceAction(
                timestamp: t, recognizer: name, settings: settings, position: eventCount, file: file,
                line: obj.line))
    }

    static let settingList =
        TraceAction.Setting.keys.dropLast().joined(separator: ", ") + " or " + TraceAction.Setting.keys.last!

    /// A JSON object of one line, with typed field access that throws the line's errors.
    private struct Object {
        let members: [JSONValue.Member]
        let line: Int
        let file: String

        subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

        func fail(_ message: String) -> TraceError { TraceError(file: file, line: line, message: message) }

        func number(_ key: String) throws(TraceError) -> Double {
            guard let v = self[key] else { throw fail("missing \(MessageText.quoted(key))") }
            guard case .number(let d, _) = v.kind else {
                throw fail("expected \(MessageText.quoted(key)) to be a number")
            }
            guard d.isFinite else { throw fail("expected \(MessageText.quoted(key)) to be a finite number") }
            let limit = key == "t" ? TraceReader.maximumTime : TraceReader.maximumMagnitude
            guard d.magnitude <= limit else {
                throw fail(
                    "expected \(MessageText.quoted(key)) to be a number within ±\(Int(limit)), got \(v.described)")
            }
            return d
        }

        func positive(_ key: String) throws(TraceError) -> Double {
            guard let v = self[key] else { throw fail("missing \(MessageText.quoted(key))") }
            guard case .number(let d, _) = v.kind, d.isFinite, d > 0 else {
                throw fail("expected \(MessageText.quoted(key)) to be a positive number")
            }
            guard d <= TraceReader.maximumMagnitude else {
                throw fail("expected \(MessageText.quoted(key)) to be at most 1000000, got \(v.described)")
            }
            return d
        }

        func integer(_ key: String) throws(TraceError) -> Int {
            guard let v = self[key] else { throw fail("missing \(MessageText.quoted(key))") }
            guard case .number(_, let i?) = v.kind else {
                throw fail("expected \(MessageText.quoted(key)) to be an integer")
            }
            return i
        }

        func checkKeys(_ allowed: [String], type: String) throws(TraceError) {
            for m in members where !allowed.contains(m.key) {
                throw fail("unexpected key \(MessageText.quoted(m.key)) in a \(MessageText.quoted(type)) line")
            }
        }
    }
}

/// The trace line of a scroll event (what `parseScroll` reads back): every field written, the
/// numbers as the scene saw them.
public func scrollTraceLine(_ s: ScrollInput) -> String {
    var l = JSONLine()
    l.add("type", "scroll")
    l.add("t", s.timestamp)
    l.add("x", s.location.x)
    l.add("y", s.location.y)
    l.add("dx", s.delta.dx)
    l.add("dy", s.delta.dy)
    l.add("scrollType", s.type.rawValue)
    l.add("zoom", s.zoom)
    return l.text
}
