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
@MainActor
public final class ReplayPlayer {
    public let events: [InputEvent]
    public let idOffset: Int
    public let tail: Double
    /// The shell time the playback started at.
    public private(set) var start: Double?
    private var index = 0
    private var downIDs: [Int: Point] = [:]
    private var pinchLocation: Point?
    private var last = -Double.infinity

    public init(events: [InputEvent], idOffset: Int = 1_000_000, tail: Double = 1) {
        self.events = events
        self.idOffset = idOffset
        self.tail = tail
    }

    /// Starts (or restarts) the playback at shell time `time`.
    public func begin(at time: Double) {
        start = time
        isFinished = false
        index = 0
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
        if index < events.count { return quantize(start + events[index].timestamp) }
        return finishTime
    }

    /// When the playback is over: the last event's time plus the tail.
    public var finishTime: Double? {
        guard let start else { return nil }
        return quantize(start + (events.last?.timestamp ?? 0) + tail)
    }

    /// The events due at `now`, retimed to the shell clock (never earlier than `notBefore`) and
    /// with their touch ids moved; marks the playback finished once the tail has passed.
    public func due(at now: Double, notBefore: Double) -> [InputEvent] {
        guard let start, !isFinished else { return [] }
        var out: [InputEvent] = []
        while index < events.count, quantize(start + events[index].timestamp) <= now {
            let e = events[index]
            index += 1
            let t = max(quantize(start + e.timestamp), notBefore, last)
            last = t
            out.append(retimed(e, to: t))
        }
        if index == events.count, let f = finishTime, now >= f { isFinished = true }
        return out
    }

    /// Stops the playback; returns the events that cancel what it still holds down.
    public func stop(at time: Double) -> [InputEvent] {
        guard start != nil else { return [] }
        start = nil
        isFinished = true
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
