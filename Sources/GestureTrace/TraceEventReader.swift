import GestureKit

/// The events of a ``TraceStream`` pulled one at a time, in the order
/// ``TraceStream/forEachEvent(_:)`` hands them over, with the same parser reading the file
/// from disk again: a live replay (`gestures run --replay`, the kiosk's tour) takes each event
/// when it is due, and memory stays at one line and the events of it whatever the trace's
/// length. Made by ``TraceStream/makeReader()``; every reader reads from the start.
///
/// A file that changed since it was checked ends the events at its bad line; ``error`` then
/// says why (the events before it were handed over, as ``TraceStream/forEachEvent(_:)`` does).
public final class TraceEventReader {
    /// Why the events ended early (nil while reading, and after a complete file).
    public private(set) var error: TraceError?
    private let buffer = EventBuffer()
    private var head = 0
    private var done = false
    /// Reads on until at least one event is in the buffer; false at the end.
    private let refill: () throws(TraceError) -> Bool

    init(_ stream: TraceStream) {
        let buffer = self.buffer
        switch stream.storage {
        case .events(let events):
            buffer.events = events
            refill = { () throws(TraceError) -> Bool in false }
        case .jsonLines(let bytes, let start, let file):
            // Bytes kept whole by the check (see ``TraceStream``): parsed whole, once more.
            var parser = JSONLTraceParser(file: file)
            do { try parser.parse(bytes: bytes, from: start) } catch { preconditionFailure("\(error)") }
            buffer.events = parser.events
            refill = { () throws(TraceError) -> Bool in false }
        case .jsonLinesFile(let path, let gzip):
            var parser = JSONLTraceParser(file: path)
            parser.sink = { buffer.events.append($0) }
            var lines: FileLines?
            refill = { () throws(TraceError) -> Bool in
                if lines == nil { lines = try FileLines(path: path, gzip: gzip) }
                return try parser.parseSome(lines!)
            }
        case .evdevFile(let path, let format, var builder, let gzip):
            var lines: EvdevLines?
            refill = { () throws(TraceError) -> Bool in
                if lines == nil { lines = try EvdevLines(path: path, format: format, gzip: gzip) }
                guard let e = try lines!.nextEvent() else { return false }
                try builder.feed(e)
                builder.drain { buffer.events.append($0) }
                return true
            }
        }
    }

    /// The next event, or nil at the end (or at an error: see ``error``).
    public func next() -> InputEvent? {
        while head == buffer.events.count {
            buffer.events.removeAll(keepingCapacity: true)
            head = 0
            guard !done else { return nil }
            do throws(TraceError) {
                if try !refill() { done = true }
            } catch {
                self.error = error
                done = true
            }
        }
        head += 1
        return buffer.events[head - 1]
    }
}

private final class EventBuffer {
    var events: [InputEvent] = []
}

extension TraceStream {
    /// A reader of the events from the first (see ``TraceEventReader``).
    public func makeReader() -> TraceEventReader { TraceEventReader(self) }
}
