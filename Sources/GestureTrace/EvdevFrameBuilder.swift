import GestureKit

/// What the touch reconstruction needs to know of a whole recording before its first frame:
/// its first event (the time origin) and whether it is protocol A or B.
struct EvdevSummary {
    var first: EvdevEvent?
    /// Any `SYN_MT_REPORT`: protocol A.
    var multitouchReport = false
    /// Any `ABS_MT_*` event: protocol B unless A.
    var multitouchAxis = false

    mutating func note(_ e: EvdevEvent) {
        if first == nil { first = e }
        if e.type == EvdevCode.evSyn && e.code == EvdevCode.synMTReport { multitouchReport = true }
        if e.type == EvdevCode.evAbs && (EvdevCode.absMTSlot...0x3d).contains(e.code) { multitouchAxis = true }
    }
}

/// Device units → viewport points (units taken as points on an axis without a range).
struct Scaler {
    var x: AxisRange?
    var y: AxisRange?
    var viewport: Size

    func point(_ dx: Int32, _ dy: Int32) -> Point {
        let px = x.map { Double(Int(dx) - $0.min) / Double($0.max - $0.min) * viewport.width } ?? Double(dx)
        let py = y.map { Double(Int(dy) - $0.min) / Double($0.max - $0.min) * viewport.height } ?? Double(dy)
        return Point(x: clamp(px, viewport.width), y: clamp(py, viewport.height))
    }

    private func clamp(_ v: Double, _ limit: Double) -> Double {
        Swift.min(Swift.max(v, 0), limit.nextDown)
    }
}

/// Turns evdev events into touch frames, one event at a time (``feed(_:)``): its state is the
/// slots or contacts of the frame in progress, never the recording.
struct FrameBuilder {
    let start: Int64
    let scaler: Scaler
    let file: String
    let mode: EvemuParser.Mode
    /// The frames made so far (see ``drain(_:)``).
    var output: [InputEvent] = []
    private var nextID = 1

    init(start: Int64, scaler: Scaler, file: String, mode: EvemuParser.Mode) {
        self.start = start
        self.scaler = scaler
        self.file = file
        self.mode = mode
    }

    /// Takes the next event of the recording; a `SYN_REPORT` may add a frame to ``output``.
    mutating func feed(_ e: EvdevEvent) throws(TraceError) {
        switch mode {
        case .protocolB: try feedB(e)
        case .protocolA: try feedA(e)
        case .singleTouch: feedSingle(e)
        }
    }

    /// Hands over the frames made so far and forgets them.
    mutating func drain(_ body: (InputEvent) -> Void) {
        for event in output { body(event) }
        output.removeAll(keepingCapacity: true)
    }

    /// More than ``TraceReader/maximumTouches`` fingers down at once, at `line`.
    private func tooManyTouches(_ line: Int) -> TraceError {
        TraceError(
            file: file, line: line,
            message: "expected at most \(TraceReader.maximumTouches) touches down at once")
    }

    private func seconds(_ t: Int64) -> Double { Double(t - start) / 1e9 }

    private mutating func emit(_ t: Int64, _ changes: [TouchChange]) {
        if !changes.isEmpty { output.append(.touches(TouchFrame(timestamp: seconds(t), changes: changes))) }
    }

    private mutating func freshID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    // MARK: Protocol B

    private struct Slot {
        /// Nil until reported: a recording may start after the device last sent a slot's value.
        var x: Int32?
        var y: Int32?
        var trackingID: Int32 = -1
        /// The touch in the slot: our id once its `began` was emitted.
        var active = false
        var touchID: Int?
        var emitted: Point?
    }

    private var slots: [Int32: Slot] = [:]
    private var activeCount = 0
    // The slots written since the last SYN_REPORT: only they can change at the next one (a
    // scan of every slot ever seen per frame was quadratic in a recording of 50k slots).
    private var touched: Set<Int32> = []
    private var current: Int32 = 0
    private var ended: [TouchChange] = []

    private mutating func feedB(_ e: EvdevEvent) throws(TraceError) {
        if e.type == EvdevCode.evAbs
            && (e.code == EvdevCode.absMTTrackingID || e.code == EvdevCode.absMTPositionX
                || e.code == EvdevCode.absMTPositionY)
        {
            touched.insert(current)
        }
        switch (e.type, e.code) {
        case (EvdevCode.evAbs, EvdevCode.absMTSlot):
            current = e.value
        case (EvdevCode.evAbs, EvdevCode.absMTTrackingID):
            var s = slots[current] ?? Slot()
            if e.value < 0 || (s.active && s.trackingID != e.value) {
                // Lift (or a new tracking id replacing the old one without a −1).
                if s.active, let id = s.touchID, let x = s.x, let y = s.y {
                    ended.append(TouchChange(id: id, phase: .ended, location: scaler.point(x, y)))
                }
                if s.active { activeCount -= 1 }
                s.active = false
                s.touchID = nil
                s.emitted = nil
            }
            if e.value >= 0 && !s.active {
                s.active = true
                activeCount += 1
                if activeCount > TraceReader.maximumTouches { throw tooManyTouches(e.line) }
            }
            s.trackingID = e.value
            slots[current] = s
        case (EvdevCode.evAbs, EvdevCode.absMTPositionX):
            slots[current, default: Slot()].x = e.value
        case (EvdevCode.evAbs, EvdevCode.absMTPositionY):
            slots[current, default: Slot()].y = e.value
        case (EvdevCode.evSyn, EvdevCode.synReport):
            var changes = ended
            ended.removeAll()
            for key in touched.sorted() {
                var s = slots[key]!
                guard s.active, let x = s.x, let y = s.y else { continue }
                let p = scaler.point(x, y)
                if let id = s.touchID {
                    if s.emitted != p {
                        changes.append(TouchChange(id: id, phase: .moved, location: p))
                    }
                } else {
                    let id = freshID()
                    s.touchID = id
                    changes.append(TouchChange(id: id, phase: .began, location: p))
                }
                s.emitted = p
                slots[key] = s
            }
            touched.removeAll()
            emit(e.time, changes)
        default:
            break
        }
    }

    // MARK: Protocol A

    private struct Contact {
        var x: Int32?
        var y: Int32?
        var trackingID: Int32?
        var major: Int32?
        var isTouching: Bool { x != nil && y != nil && major != 0 }
    }

    private struct Known {
        var id: Int
        var trackingID: Int32?
        var location: Point
    }

    private var previous: [Known] = []
    private var contacts: [Contact] = []
    private var contact = Contact()
    private var dirty = false

    private mutating func feedA(_ e: EvdevEvent) throws(TraceError) {
        switch (e.type, e.code) {
        case (EvdevCode.evAbs, EvdevCode.absMTPositionX):
            contact.x = e.value
            dirty = true
        case (EvdevCode.evAbs, EvdevCode.absMTPositionY):
            contact.y = e.value
            dirty = true
        case (EvdevCode.evAbs, EvdevCode.absMTTrackingID):
            contact.trackingID = e.value
            dirty = true
        case (EvdevCode.evAbs, EvdevCode.absMTTouchMajor):
            contact.major = e.value
            dirty = true
        case (EvdevCode.evSyn, EvdevCode.synMTReport):
            if contact.isTouching { contacts.append(contact) }
            // (Matching by distance pairs every contact with every one of the last frame.)
            if contacts.count > TraceReader.maximumTouches { throw tooManyTouches(e.line) }
            contact = Contact()
            dirty = false
        case (EvdevCode.evSyn, EvdevCode.synReport):
            if dirty && contact.isTouching { contacts.append(contact) }
            contact = Contact()
            dirty = false
            previous = frameA(e.time, contacts, previous)
            contacts.removeAll()
        default:
            break
        }
    }

    /// Matches one protocol-A frame's contacts to the previous frame's touches and emits the frame.
    private mutating func frameA(_ time: Int64, _ contacts: [Contact], _ previous: [Known]) -> [Known] {
        let points = contacts.map { scaler.point($0.x!, $0.y!) }
        var match = [Int?](repeating: nil, count: contacts.count)  // contact → previous index
        var taken = [Bool](repeating: false, count: previous.count)
        // 1. By tracking id.
        for (ci, c) in contacts.enumerated() {
            guard let tid = c.trackingID else { continue }
            if let pi = previous.indices.first(where: { !taken[$0] && previous[$0].trackingID == tid }) {
                match[ci] = pi
                taken[pi] = true
            }
        }
        // 2. The rest by distance, closest pairs first (contacts without a tracking id only).
        var pairs: [(d: Double, c: Int, p: Int)] = []
        for (ci, c) in contacts.enumerated() where c.trackingID == nil {
            for (pi, p) in previous.enumerated() where !taken[pi] && p.trackingID == nil {
                pairs.append((points[ci].distance(to: p.location), ci, pi))
            }
        }
        pairs.sort { ($0.d, $0.c, $0.p) < ($1.d, $1.c, $1.p) }
        for pair in pairs where match[pair.c] == nil && !taken[pair.p] {
            match[pair.c] = pair.p
            taken[pair.p] = true
        }
        var changes: [TouchChange] = []
        for (pi, p) in previous.enumerated() where !taken[pi] {
            changes.append(TouchChange(id: p.id, phase: .ended, location: p.location))
        }
        var next: [Known] = []
        for (ci, c) in contacts.enumerated() {
            let location = points[ci]
            if let pi = match[ci] {
                let p = previous[pi]
                if p.location != location { changes.append(TouchChange(id: p.id, phase: .moved, location: location)) }
                next.append(Known(id: p.id, trackingID: c.trackingID, location: location))
            } else {
                let id = freshID()
                changes.append(TouchChange(id: id, phase: .began, location: location))
                next.append(Known(id: id, trackingID: c.trackingID, location: location))
            }
        }
        emit(time, changes)
        return next
    }

    // MARK: Single touch

    private var x: Int32?
    private var y: Int32?
    private var touching = false
    private var down: (id: Int, location: Point)?

    private mutating func feedSingle(_ e: EvdevEvent) {
        switch (e.type, e.code) {
        case (EvdevCode.evAbs, EvdevCode.absX): x = e.value
        case (EvdevCode.evAbs, EvdevCode.absY): y = e.value
        case (EvdevCode.evKey, EvdevCode.btnTouch): touching = e.value != 0
        case (EvdevCode.evSyn, EvdevCode.synReport):
            guard let x, let y else { return }
            let p = scaler.point(x, y)
            var changes: [TouchChange] = []
            if let d = down {
                if !touching {
                    changes.append(TouchChange(id: d.id, phase: .ended, location: p))
                    down = nil
                } else if d.location != p {
                    changes.append(TouchChange(id: d.id, phase: .moved, location: p))
                    down = (d.id, p)
                }
            } else if touching {
                let id = freshID()
                changes.append(TouchChange(id: id, phase: .began, location: p))
                down = (id, p)
            }
            emit(e.time, changes)
        default:
            break
        }
    }
}
