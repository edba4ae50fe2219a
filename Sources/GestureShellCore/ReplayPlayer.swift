import GestureKit

/// Plays a list of input events through the live shell at their own pace, "as if a person did
/// it" (`gestures run --replay TRACE`, and the kiosk's bundled tour). Pure: the shell asks it
/// for what is due at its clock and feeds that to the scene.
///
/// Event times count from the start of the playback (a trace's `t`). Touch ids are moved by
/// `idOffset` so that played fingers never collide with real ones. `stop(at:)` cancels whatever
/// the playback still holds down (fingers, a touchpad pinch), so that real input can take over
/// cleanly. The playback is over `tail` seconds after its last event (a trace replay advances
/// the clock by 1 s after its last line, so pending timers fire).
///
/// Timed actions (a trace's `set` lines) play at their place among the events: action `k` is
/// due at its own time, once every event before its `position` was played; ``next(at:notBefore:)``
/// hands events and actions out in that order (``due(at:notBefore:)`` only events).
///
/// The events are pulled from a ``ReplayEvents`` source one at a time, one event ahead of the
/// clock, so a trace streamed from disk is never held whole; each ``begin(at:)`` opens the
/// source again from its first event.
@MainActor
public final class ReplayPlayer {
    /// Something due: an input event (retimed), or the action at an index of ``actions``.
    public enum Item {
        case event(InputEvent)
        case action(Int)
    }

    public let source: ReplayEvents
    /// (position among the events, time from the start of the playback), in trace order.
    public let actions: [(position: Int, timestamp: Double)]
    public let idOffset: Int
    public let tail: Double
    /// The shell time the playback started at.
    public private(set) var start: Double?
    /// How many events were handed out (where actions are placed).
    private var index = 0
    private var pull: () -> InputEvent? = { nil }
    /// The next event (the look-ahead), nil once the source is over.
    private var pending: InputEvent?
    /// The time of the last event handed out (0 before any).
    private var lastEventTime = 0.0
    private var actionIndex = 0
    private var downIDs: [Int: Point] = [:]
    private var pinchLocation: Point?
    private var last = -Double.infinity

    public convenience init(
        events: [InputEvent], actions: [(position: Int, timestamp: Double)] = [], idOffset: Int = 1_000_000,
        tail: Double = 1
    ) {
        self.init(source: ReplayEvents(events), actions: actions, idOffset: idOffset, tail: tail)
    }

    public init(
        source: ReplayEvents, actions: [(position: Int, timestamp: Double)] = [], idOffset: Int = 1_000_000,
        tail: Double = 1
    ) {
        self.source = source
        self.actions = actions
        self.idOffset = idOffset
        self.tail = tail
    }

    /// Starts (or restarts) the playback at shell time `time`.
    public func begin(at time: Double) {
        start = time
        isFinished = false
        index = 0
        pull = source.open()
        pending = pull()
        lastEventTime = 0
        actionIndex = 0
        downIDs.removeAll()
        pinchLocation = nil
        last = -Double.infinity
    }

    /// True between `begin(at:)` and the end of the tail (or `stop(at:)`).
    public var isPlaying: Bool { start != nil && !isFinished }

    /// True once every event was played and the tail has passed, or after `stop(at:)`.
    public private(set) var isFinished = false

    /// The shell time of the next event, or of the end of the tail.
    public var nextDeadline: Double? {
        guard let start, !isFinished else { return nil }
        if nextIsAction { return quantize(start + actions[actionIndex].timestamp) }
        if let pending { return quantize(start + pending.timestamp) }
        return finishTime
    }

    /// Whether the next thing to play is an action (its place among the events is reached).
    private var nextIsAction: Bool {
        actionIndex < actions.count && actions[actionIndex].position <= index
    }

    /// When the playback is over: the last event's time plus the tail (nil until the last
    /// event was read from the source).
    public var finishTime: Double? {
        guard let start, pending == nil else { return nil }
        let lastTime = max(lastEventTime, actions.last?.timestamp ?? 0)
        return quantize(start + lastTime + tail)
    }

    /// The next event or action due at `now` (events retimed as in ``due(at:notBefore:)``), or
    /// nil when nothing is; marks the playback finished once the tail has passed.
    public func next(at now: Double, notBefore: Double) -> Item? {
        guard let start, !isFinished else { return nil }
        if nextIsAction {
            guard quantize(start + actions[actionIndex].timestamp) <= now else { return nil }
            actionIndex += 1
            return .action(actionIndex - 1)
        }
        if let e = pending, quantize(start + e.timestamp) <= now {
            index += 1
            lastEventTime = e.timestamp
            pending = pull()
            let t = max(quantize(start + e.timestamp), notBefore, last)
            last = t
            return .event(retimed(e, to: t))
        }
        if pending == nil, actionIndex == actions.count, let f = finishTime, now >= f { isFinished = true }
        return nil
    }

    /// The events due at `now`, retimed to the shell clock (never earlier than `notBefore`) and
    /// with their touch ids moved; marks the playback finished once the tail has passed.
    public func due(at now: Double, notBefore: Double) -> [InputEvent] {
        var out: [InputEvent] = []
        while let item = next(at: now, notBefore: notBefore) {
            if case .event(let e) = item { out.append(e) }
        }
        return out
    }

    /// Stops the playback; returns the events that cancel what it still holds down.
    public func stop(at time: Double) -> [InputEvent] {
        guard start != nil else { return [] }
        start = nil
        isFinished = true
        pull = { nil }
        pending = nil
        var out: [InputEvent] = []
        if !downIDs.isEmpty {
            let changes = downIDs.keys.sorted().map {
                TouchChange(id: $0, phase: .cancelled, location: downIDs[$0]!)
            }
            out.append(.touches(TouchFrame(timestamp: time, changes: changes)))
            downIDs.removeAll()
        }
        if let p = pinchLocation {
            out.append(.touchpadPinch(TouchpadPinch(timestamp: time, phase: .cancel, location: p)))
            pinchLocation = nil
        }
        return out
    }

    private func retimed(_ e: InputEvent, to t: Double) -> InputEvent {
        switch e {
        case .touches(let frame):
            var changes = frame.changes
            for i in changes.indices {
                changes[i].id += idOffset
                switch changes[i].phase {
                case .began, .moved: downIDs[changes[i].id] = changes[i].location
                case .ended, .cancelled: downIDs[changes[i].id] = nil
                }
            }
            return .touches(TouchFrame(timestamp: t, changes: changes))
        case .touchpadPinch(var p):
            p.timestamp = t
            switch p.phase {
            case .begin, .update: pinchLocation = p.location
            case .end, .cancel: pinchLocation = nil
            }
            return .touchpadPinch(p)
        case .scroll(var s):
            s.timestamp = t
            return .scroll(s)
        case .shake: return .shake(timestamp: t)
        case .wait: return .wait(timestamp: t)
        }
    }
}

/// Where a ``ReplayPlayer`` takes its events: `open` starts them from the first, each call a
/// new pass (a looping tour opens its trace file again), and the function it returns hands
/// them out in order, nil at the end.
public struct ReplayEvents {
    public let open: () -> () -> InputEvent?

    public init(open: @escaping () -> () -> InputEvent?) { self.open = open }

    /// Events held in memory.
    public init(_ events: [InputEvent]) {
        open = {
            var i = events.makeIterator()
            return { i.next() }
        }
    }
}
