import GestureKit

/// A bad input file: the file (the path as given), the 1-based line and what was expected
/// there. `description` is the one line the command line prints: `t.jsonl:3: expected "t" to be
/// a number`. Problems with the file as a whole (it cannot be read, it is not valid gzip) have
/// line 0 and print as `file: message`.
public struct TraceError: Error, CustomStringConvertible, Equatable, Sendable {
    public let file: String
    public let line: Int
    public let message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        MessageText.line(line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)")
    }
}

/// A trace read from a file, ready to replay: the input events in time order and the viewport
/// they were recorded for.
public struct Trace: Equatable, Sendable {
    /// The viewport in points: the `--size` option, else the JSON Lines viewport line, else
    /// 1024×768. Evemu recordings are scaled to it.
    public var viewport: Size
    /// The events, in time order: touch frames (touches sharing a timestamp merged into one
    /// frame), touchpad pinches, shakes and waits.
    public var events: [InputEvent]
    /// True when `viewport` came from the trace's own viewport line (no `--size` given).
    public var viewportFromTrace: Bool
    /// The JSON Lines trace's `set` lines, in file order, each placed among ``events``
    /// (``TraceAction/position``). Empty for the other formats.
    public var actions: [TraceAction]

    public init(viewport: Size, events: [InputEvent], viewportFromTrace: Bool, actions: [TraceAction] = []) {
        self.viewport = viewport
        self.events = events
        self.viewportFromTrace = viewportFromTrace
        self.actions = actions
    }

    /// The default viewport when neither `--size` nor the trace gives one.
    public static let defaultViewport = Size(width: 1024, height: 768)

    /// The touch frames only, in order.
    public var frames: [TouchFrame] {
        events.compactMap {
            if case .touches(let f) = $0 { return f }
            return nil
        }
    }
}

/// The lines of a text, split at `\n` and at `\r\n` (which Swift keeps as one `Character`).
/// A lone `\r` left at a line's end is the caller's to drop.
func lines(of text: String) -> [Substring] {
    text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
}
