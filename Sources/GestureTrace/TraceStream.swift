import GestureKit

#if canImport(Glibc)
    import Glibc
#endif

/// A trace file checked whole and then replayed as it is read again, so that a long JSON Lines
/// trace is never held as events. A JSON Lines file is read from disk a chunk at a time in
/// both passes: memory stays at one line (at most ``TraceReader/maximumLineBytes``) whatever
/// the file's length; a gzipped one is inflated a chunk at a time as it is read (its
/// decompressed size limited to ``TraceReader/maximumBytes``), in the same bounded memory.
/// Made by ``TraceReader/stream(path:size:device:)``; `gestures replay` uses it.
///
/// Nothing is replayed from a file with an error (docs/DESIGN.md §4.1): the first pass parses every
/// line and keeps only the viewport and the `set` lines; ``forEachEvent(_:)`` parses the file
/// again and hands each event over as soon as it is complete. An evemu recording or getevent
/// text, plain or gzipped, is read from disk the same way, in three passes (see
/// `TraceReader.streamEvdev`): memory is one line, the axis ranges and the touches of the frame
/// in progress. Files that are none of these (or whose first 64 KiB say nothing) are read
/// whole and their frames kept.
public struct TraceStream: Sendable {
    /// As ``Trace/viewport``.
    public let viewport: Size
    /// As ``Trace/viewportFromTrace``.
    public let viewportFromTrace: Bool
    /// As ``Trace/actions``.
    public let actions: [TraceAction]

    enum Storage: Sendable {
        /// A checked JSON Lines file: its bytes and where the lines start (after a byte-order mark).
        case jsonLines(bytes: [UInt8], start: Int, file: String)
        /// A checked JSON Lines file, read again from disk (inflated when `gzip`).
        case jsonLinesFile(path: String, gzip: Bool)
        /// A checked evemu or getevent file, read again from disk into `builder` (fresh),
        /// inflated when `gzip`.
        case evdevFile(path: String, format: EvdevFormat, builder: FrameBuilder, gzip: Bool)
        case events([InputEvent])
    }
    let storage: Storage

    /// Every event, in order, as ``Trace/events`` would hold them. Returns nil, or the error
    /// of a file read again from disk that changed since it was checked (the events before the
    /// bad line were handed over).
    @discardableResult
    public func forEachEvent(_ body: (InputEvent) -> Void) -> TraceError? {
        switch storage {
        case .events(let events):
            for e in events { body(e) }
        case .jsonLinesFile(let path, let gzip):
            return withoutActuallyEscaping(body) { body -> TraceError? in
                var parser = JSONLTraceParser(file: path)
                parser.sink = body
                do throws(TraceError) {
                    try parser.parse(FileLines(path: path, gzip: gzip))
                } catch {
                    return error
                }
                return nil
            }
        case .evdevFile(let path, let format, var builder, let gzip):
            do throws(TraceError) {
                let lines = try EvdevLines(path: path, format: format, gzip: gzip)
                while let e = try lines.nextEvent() {
                    try builder.feed(e)
                    builder.drain(body)
                }
            } catch {
                return error
            }
        case .jsonLines(let bytes, let start, let file):
            withoutActuallyEscaping(body) { body in
                var parser = JSONLTraceParser(file: file)
                parser.sink = body
                // The same bytes passed the check: they cannot fail now.
                do { try parser.parse(bytes: bytes, from: start) } catch { preconditionFailure("\(error)") }
            }
        }
        return nil
    }
}

extension TraceReader {
    /// Reads a trace file for a replay that streams it: the same checks and errors as
    /// ``read(path:size:device:)``, but the events of a JSON Lines trace, or of a plain evemu or
    /// getevent file, are not kept (see ``TraceStream``).
    public static func stream(path: String, size: Size?, device: String?) throws(TraceError) -> TraceStream {
        let gzip = isGzipFile(path)
        if gzip ? isGzippedJSONLines(path) : try isPlainJSONLines(path) {
            var parser = JSONLTraceParser(file: path)
            parser.sink = { _ in }
            try parser.parse(FileLines(path: path, gzip: gzip))
            return TraceStream(
                viewport: size ?? parser.viewport ?? Trace.defaultViewport,
                viewportFromTrace: size == nil && parser.viewport != nil, actions: parser.actions,
                storage: .jsonLinesFile(path: path, gzip: gzip))
        }
        if let (format, mark) = evdevFormat(path, gzip: gzip) {
            return try streamEvdev(
                path: path, format: format, byteOrderMark: mark, size: size, device: device, gzip: gzip)
        }
        let bytes = try readBytes(path)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // JSON Lines: the first byte that is not white space opens an object.
        let first = bytes[start...].first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard first == UInt8(ascii: "{") else {
            let trace = try read(path: path, size: size, device: device)
            return TraceStream(
                viewport: trace.viewport, viewportFromTrace: trace.viewportFromTrace, actions: trace.actions,
                storage: .events(trace.events))
        }
        var parser = JSONLTraceParser(file: path)
        parser.sink = { _ in }
        try parser.parse(bytes: bytes, from: start)
        return TraceStream(
            viewport: size ?? parser.viewport ?? Trace.defaultViewport,
            viewportFromTrace: size == nil && parser.viewport != nil, actions: parser.actions,
            storage: .jsonLines(bytes: bytes, start: start, file: path))
    }

    /// True when the file's first byte that is not white space (after a byte-order mark),
    /// within its first 64 KiB, opens a JSON object (a gzipped file is not).
    static func isPlainJSONLines(_ path: String) throws(TraceError) -> Bool {
        let (fd, _) = try openRegularFile(path)
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = try readChunk(fd, into: &chunk, path: path)
        return opensJSONObject(chunk[..<n])
    }

    /// As ``isPlainJSONLines(_:)`` for the decompressed bytes of a gzip file; false when they
    /// cannot be read (the whole-file reader then says why).
    static func isGzippedJSONLines(_ path: String) -> Bool {
        guard let (fd, _) = try? openRegularFile(path), let reader = try? GzipReader(fd: fd, path: path, limit: 1 << 16)
        else { return false }
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while head.count < chunk.count {
            guard let n = try? reader.read(into: &chunk), n > 0 else { break }
            head.append(contentsOf: chunk[..<min(n, chunk.count - head.count)])
        }
        return opensJSONObject(head[...])
    }

    private static func opensJSONObject(_ head: ArraySlice<UInt8>) -> Bool {
        let start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let first = head.dropFirst(start).first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        return first == UInt8(ascii: "{")
    }

    /// Gzip by name (`.gz`) or by its first two bytes (1f 8b), as the whole-file reader tells.
    static func isGzipFile(_ path: String) -> Bool {
        if path.hasSuffix(".gz") { return true }
        guard let (fd, _) = try? openRegularFile(path) else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 2)
        guard let n = try? readChunk(fd, into: &head, path: path), n == 2 else { return false }
        return Gzip.isGzip(head)
    }
}
