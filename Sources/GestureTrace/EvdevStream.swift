import GestureKit

/// The two text formats of kernel input events that ``TraceStream`` reads from disk.
enum EvdevFormat: Sendable {
    case evemu, getevent
}

/// The lines of a plain evemu recording or getevent text, read from disk (``FileLines``) and
/// parsed one at a time exactly as ``TraceReader/parse(text:file:size:deviceText:deviceFile:)``
/// parses the whole text: line 1 loses a byte-order mark, bytes that are not UTF-8 read as
/// U+FFFD, a getevent line loses the `\r` of a `\r\n` and then one more.
final class EvdevLines {
    let format: EvdevFormat
    let file: String
    private let lines: FileLines

    init(path: String, format: EvdevFormat, gzip: Bool = false) throws(TraceError) {
        self.format = format
        file = path
        lines = try FileLines(path: path, gzip: gzip)
    }

    /// The next raw line (without its `\n`), or nil after the last one.
    func nextRaw() throws(TraceError) -> [UInt8]? { try lines.next() }

    /// The line ``nextRaw()`` returned last, parsed (its number in errors).
    func parse(_ raw: [UInt8]) throws(TraceError) -> EvemuParser.Line {
        let n = lines.number
        switch format {
        case .evemu:
            var bytes = raw
            if n == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF])
                && String(decoding: bytes, as: UTF8.self).hasPrefix("\u{FEFF}")
            {
                bytes.removeFirst(3)
            }
            if bytes.contains(where: { $0 >= 0x80 }) { bytes = Array(String(decoding: bytes, as: UTF8.self).utf8) }
            return try EvemuParser.parseLine(bytes[...], number: n, file: file)
        case .getevent:
            var text = String(decoding: raw, as: UTF8.self)[...]
            if n == 1 && text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
            // Split as Characters, a line's "\r\n" is one separator.
            if !lines.atEnd && text.hasSuffix("\r") { text = text.dropLast() }
            guard let e = try GeteventParser(file: file).parseLine(text, line: n) else { return .other }
            return .event(e)
        }
    }

    /// The next event, or nil after the last line.
    func nextEvent() throws(TraceError) -> EvdevEvent? {
        while let raw = try nextRaw() {
            if case .event(let e) = try parse(raw) { return e }
        }
        return nil
    }
}

extension TraceReader {
    /// The format of a file (inflated when `gzip`) whose first meaningful line, as
    /// ``parse(text:file:size:deviceText:deviceFile:)`` finds it, is an evemu or a getevent
    /// line, and whether it starts with a byte-order mark; nil for any other file, and when the
    /// file cannot be read so far (the whole-file reader then says why).
    static func evdevFormat(_ path: String, gzip: Bool = false) -> (EvdevFormat, byteOrderMark: Bool)? {
        guard let lines = try? FileLines(path: path, gzip: gzip) else { return nil }
        var mark = false
        while let raw = try? lines.next() {
            var text = String(decoding: raw, as: UTF8.self)
            if lines.number == 1 && text.hasPrefix("\u{FEFF}") {
                text = String(text.dropFirst())
                mark = true
            }
            guard let (line, _) = firstMeaningfulLine(text) else { continue }
            if EvemuParser.looksLikeEvemu(line) { return (.evemu, mark) }
            if GeteventParser.looks(like: line) { return (.getevent, mark) }
            return nil
        }
        return nil
    }

    /// ``stream(path:size:device:)`` of an evemu or getevent file (inflated as it is read when
    /// `gzip`): the same errors, in the
    /// same order, as ``read(path:size:device:)``, and nothing kept but the axis ranges and the
    /// touch state of one frame. Three passes: every line (lengths, syntax, ranges, protocol),
    /// then the touch reconstruction (touches held at once) with its frames dropped, then, in
    /// ``TraceStream/forEachEvent(_:)``, the replay. The device description (`--device` or a
    /// sibling `.desc`) is read whole, as before: it is a header.
    static func streamEvdev(
        path: String, format: EvdevFormat, byteOrderMark: Bool, size: Size?, device: String?, gzip: Bool = false
    ) throws(TraceError) -> TraceStream {
        let viewport = size ?? Trace.defaultViewport
        let lines = try EvdevLines(path: path, format: format, gzip: gzip)
        var ranges: [UInt16: AxisRange] = [:]
        var summary = EvdevSummary()
        var axisLines = false
        // read checks every line's length before the device and the syntax: the first bad
        // line waits for the end of the file.
        var failure: TraceError?
        while let raw = try lines.nextRaw() {
            if raw.count >= 2 && raw[0] == UInt8(ascii: "A") && raw[1] == UInt8(ascii: ":") { axisLines = true }
            guard failure == nil else { continue }
            do throws(TraceError) {
                switch try lines.parse(raw) {
                case .event(let e): summary.note(e)
                case .axis(let code, let range): ranges[code] = range
                case .other: break
                }
            } catch {
                failure = error
            }
        }
        var deviceText: String?
        var deviceFile: String?
        if let device {
            deviceText = try readText(device)
            deviceFile = device
        } else if format == .evemu, !byteOrderMark, !axisLines, let sibling = siblingDescription(of: path) {
            deviceText = try readText(sibling)
            deviceFile = sibling
        }
        if let failure { throw failure }
        let parser = EvemuParser(file: path, deviceFile: deviceFile ?? "device", viewport: viewport)
        guard
            let builder = try parser.builder(
                summary, ranges: ranges, deviceText: deviceText, unitsArePoints: format == .getevent)
        else {
            return TraceStream(viewport: viewport, viewportFromTrace: false, actions: [], storage: .events([]))
        }
        var check = builder
        let again = try EvdevLines(path: path, format: format, gzip: gzip)
        while let e = try again.nextEvent() {
            try check.feed(e)
            check.drain { _ in }
        }
        return TraceStream(
            viewport: viewport, viewportFromTrace: false, actions: [],
            storage: .evdevFile(path: path, format: format, builder: builder, gzip: gzip))
    }
}
