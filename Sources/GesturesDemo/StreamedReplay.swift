import GestureKit
import GestureShellCore
import GestureTrace

/// The events of a streamed trace for the live window (`gestures run --replay`, the kiosk's
/// tour): each play reads the file again from its start (``TraceStream/makeReader()``), one
/// event at a time, scaled from `viewport` to `size` when both are given.
///
/// **A trace file changed while it plays** (someone edits the tour, copies a new one over it,
/// or a recorder appends to it). What a user expects, and what is done:
/// - **Replaced** (a new file renamed over it, or the old one deleted and a new one written):
///   the pass in progress plays the file it opened to its end; the next pass (the kiosk's next
///   tour) opens the path again and plays the new file. Its lines are checked as they are read.
/// - **Appended to**: lines that reach the file before the pass reads that far play in that
///   pass; the rest in the next.
/// - **Truncated** (cut short, or rewritten in place shorter): the pass ends where the file now
///   ends, with one line on stderr (``TraceError``, "cut short"); the frame that was being read
///   is dropped whole, never played in part.
/// - **Any line that no longer parses** (a half-written line, times going back): the pass
///   ends before that line with one line on stderr, as for a cut.
///
/// A pass that ends early cancels what it still holds down (its fingers, a touchpad pinch),
/// as a visitor's arrival cancels the tour: no recognizer is left mid-gesture and no finger
/// stays drawn. The error goes to `onError` once: the same error at every following pass (a
/// deleted tour, played every half minute) is not said again until a pass plays to its end.
/// Never a crash: the playback ends as if the trace did, and the kiosk's tour starts again
/// from the top of the file at its next pass.
public func replayEvents(
    _ trace: TraceStream, from viewport: Size? = nil, to size: Size? = nil,
    onError: @escaping (TraceError) -> Void = { _ in }
) -> ReplayEvents {
    let said = LastError()
    func scaled(_ e: InputEvent) -> InputEvent {
        guard let viewport, let size else { return e }
        return Trace.scaled(e, from: viewport, to: size)
    }
    return ReplayEvents {
        let reader = trace.makeReader()
        var held = HeldInput()
        var cancels: [InputEvent]?
        return {
            if cancels != nil { return cancels!.isEmpty ? nil : scaled(cancels!.removeFirst()) }
            guard let e = reader.next() else {
                cancels = []
                guard let error = reader.error else {
                    said.description = nil
                    return nil
                }
                if said.description != error.description {
                    said.description = error.description
                    onError(error)
                }
                cancels = held.cancellations()
                return cancels!.isEmpty ? nil : scaled(cancels!.removeFirst())
            }
            held.note(e)
            return scaled(e)
        }
    }
}

/// The error said last by a streamed replay's passes (nil after a pass that played to its end).
private final class LastError {
    var description: String?
}

/// What a pass holds down: touches by id (their last location) and a touchpad pinch.
private struct HeldInput {
    var touches: [Int: Point] = [:]
    var touchOrder: [Int] = []
    var pinch: Point?
    var time = 0.0

    mutating func note(_ e: InputEvent) {
        time = e.timestamp
        switch e {
        case .touches(let frame):
            for c in frame.changes {
                switch c.phase {
                case .began, .moved:
                    if touches[c.id] == nil { touchOrder.append(c.id) }
                    touches[c.id] = c.location
                case .ended, .cancelled:
                    touches[c.id] = nil
                    touchOrder.removeAll { $0 == c.id }
                }
            }
        case .touchpadPinch(let p):
            pinch = p.phase == .end || p.phase == .cancel ? nil : p.location
        default: break
        }
    }

    /// The events that cancel what is held, at the time of the last event.
    func cancellations() -> [InputEvent] {
        var out: [InputEvent] = []
        if !touchOrder.isEmpty {
            let changes = touchOrder.map { TouchChange(id: $0, phase: .cancelled, location: touches[$0]!) }
            out.append(.touches(TouchFrame(timestamp: time, changes: changes)))
        }
        if let pinch { out.append(.touchpadPinch(TouchpadPinch(timestamp: time, phase: .cancel, location: pinch))) }
        return out
    }
}
