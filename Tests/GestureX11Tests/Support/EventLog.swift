import Foundation
import GestureTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A rectangle of the layout line, in window points.
struct LayoutRect: CustomStringConvertible, Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }
    var center: LayoutPoint { LayoutPoint(x: midX, y: midY) }

    func contains(_ p: LayoutPoint) -> Bool {
        p.x >= x && p.x <= x + width && p.y >= y && p.y <= y + height
    }
    /// This rectangle shrunk by `inset` on every side.
    func insetBy(_ inset: Double) -> LayoutRect {
        LayoutRect(x: x + inset, y: y + inset, width: width - 2 * inset, height: height - 2 * inset)
    }
    var description: String { "[\(x), \(y), \(width), \(height)]" }
}

/// A point in window points.
struct LayoutPoint: CustomStringConvertible {
    var x: Double
    var y: Double
    var description: String { "(\(x), \(y))" }
    static func + (p: LayoutPoint, d: (Double, Double)) -> LayoutPoint {
        LayoutPoint(x: p.x + d.0, y: p.y + d.1)
    }
}

/// One line of the event log (docs/DESIGN.md §4.2).
struct LogLine: CustomStringConvertible {
    let text: String
    let object: [String: Any]

    init?(_ text: String) {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        self.text = text
        self.object = object
    }

    var type: String? { object["type"] as? String }
    var kind: String? { object["kind"] as? String }
    var state: String? { object["state"] as? String }
    var recognizer: String? { object["recognizer"] as? String }
    var label: String? { object["label"] as? String }
    var direction: String? { object["direction"] as? String }
    func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
    func string(_ key: String) -> String? { object[key] as? String }
    var x: Double? { number("x") }
    var y: Double? { number("y") }
    var location: LayoutPoint? {
        guard let x, let y else { return nil }
        return LayoutPoint(x: x, y: y)
    }
    var scale: Double? { number("scale") }
    var rotation: Double? { number("rotation") }
    var touches: Int? { number("touches").map { Int($0) } }

    var isGesture: Bool { type == "gesture" }
    func isGesture(_ kind: String, _ state: String? = nil) -> Bool {
        type == "gesture" && self.kind == kind && (state == nil || self.state == state)
    }

    /// The regions of a layout line.
    var layout: Layout? {
        guard type == "layout", let width = number("width"), let height = number("height"),
            let regions = object["regions"] as? [String: Any]
        else { return nil }
        var rects: [String: LayoutRect] = [:]
        for (name, value) in regions {
            guard let numbers = value as? [NSNumber], numbers.count == 4 else { continue }
            let v = numbers.map(\.doubleValue)
            rects[name] = LayoutRect(x: v[0], y: v[1], width: v[2], height: v[3])
        }
        return Layout(width: width, height: height, regions: rects)
    }

    var description: String { text }
}

/// The demo scene's layout (docs/DESIGN.md §4.2 layout line).
struct Layout {
    var width: Double
    var height: Double
    var regions: [String: LayoutRect]

    func region(_ name: String) throws -> LayoutRect {
        guard let rect = regions[name] else {
            throw XTestError("layout has no region \"\(name)\" (has \(regions.keys.sorted()))")
        }
        return rect
    }
}

/// Follows an event-log file as the app appends to it (the app flushes every line).
final class EventLog {
    let path: String
    private var fd: Int32 = -1
    private var pending: [UInt8] = []
    private(set) var lines: [LogLine] = []
    private(set) var malformed: [String] = []

    init(path: String) { self.path = path }

    deinit { if fd >= 0 { close(fd) } }

    /// Reads whatever the app has written since the last call.
    func refresh() {
        if fd < 0 {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 { return }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            pending += buffer[0..<n]
        }
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let text = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            if text.isEmpty { continue }
            if let line = LogLine(text) { lines.append(line) } else { malformed.append(text) }
        }
    }

    var count: Int {
        refresh()
        return lines.count
    }

    /// Lines from index `start` on.
    func lines(from start: Int) -> ArraySlice<LogLine> {
        refresh()
        return lines[min(start, lines.count)...]
    }

    /// The first line at index ≥ `start` that satisfies `predicate`, waiting up to `timeout`
    /// seconds for the app to write it.
    @discardableResult
    func waitFor(
        _ what: String, from start: Int = 0, timeout: Double = 5,
        where predicate: (LogLine) -> Bool
    ) throws -> (index: Int, line: LogLine) {
        var searched = start
        let found = poll(timeout: timeout, interval: 0.002) { () -> (Int, LogLine)? in
            refresh()
            while searched < lines.count {
                defer { searched += 1 }
                if predicate(lines[searched]) { return (searched, lines[searched]) }
            }
            return nil
        }
        guard let found else {
            let recent = lines.suffix(12).map(\.text).joined(separator: "\n  ")
            throw XTestError(
                "no \(what) in the event log within \(timeout) s; last lines:\n  \(recent)")
        }
        return found
    }
}
