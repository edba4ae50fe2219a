import GestureKit
import GestureShellCore
import GestureTrace

/// The events of a streamed trace for the live window (`gestures run --replay`, the kiosk's
/// tour): each play reads the file again from its start (``TraceStream/makeReader()``), one
/// event at a time, scaled from `viewport` to `size` when both are given. A file that changed
/// since it was checked ends the events at its bad line and hands that line's error to
/// `onError`; the playback then ends as if the trace did.
public func replayEvents(
    _ trace: TraceStream, from viewport: Size? = nil, to size: Size? = nil,
    onError: @escaping (TraceError) -> Void = { _ in }
) -> ReplayEvents {
    ReplayEvents {
        let reader = trace.makeReader()
        return {
            guard let e = reader.next() else {
                if let error = reader.error { onError(error) }
                return nil
            }
            guard let viewport, let size else { return e }
            return Trace.scaled(e, from: viewport, to: size)
        }
    }
}
