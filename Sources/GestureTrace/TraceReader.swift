import GestureKit

#if canImport(Glibc)
    import Glibc
#endif

/// Reads trace files into input events: the JSON Lines trace of docs/DESIGN.md §4.1, `evemu-record`
/// recordings (multitouch protocol B and A, single-touch devices; optionally gzipped) and
/// Android `getevent -lt` text. UIKit has no counterpart: this is the replay side of the project.
///
/// Nothing is returned from a file with an error: the first bad line throws a ``TraceError``
/// naming the file, the line and what was expected.
public enum TraceReader {
    /// Reads and parses a trace file.
    ///
    /// The format is detected from the first meaningful line (`{` → JSON Lines; `#` or an evemu
    /// prefix such as `N:` or `E:` → evemu; `[ 12.345] EV_…` → getevent, whose units are points
    /// unless `device` gives ranges). A path ending in `.gz`, or data starting with the
    /// gzip magic bytes, is decompressed first.
    ///
    /// - Parameters:
    ///   - size: the `--size` option; it wins over the trace's viewport line. Without either the
    ///     viewport is 1024×768. Evemu device units are scaled per axis to the viewport.
    ///   - device: an evemu device description file (`--device`), for recordings whose header
    ///     is not in the file; its `A:` ranges override the recording's. When neither is given
    ///     and the recording has no `A:` lines, a sibling description is looked for: a `.desc` or
    ///     `.device` file in the same folder whose name (without extension) starts the
    ///     recording's name (`Foo.desc` for `Foo.2fg-tap.events`), the longest such name winning.
    public static func read(path: String, size: Size?, device: String?) throws(TraceError) -> Trace {
        let text = try readText(path)
        var deviceText: String?
        var deviceFile: String?
        if let device {
            deviceText = try readText(device)
            deviceFile = device
        } else if isEvemu(text), !hasAxisRanges(text), let sibling = siblingDescription(of: path) {
            deviceText = try readText(sibling)
            deviceFile = sibling
        }
        return try parse(text: text, file: path, size: size, deviceText: deviceText, deviceFile: deviceFile)
    }

    /// Parses trace text; `file` names it in errors. See ``read(path:size:device:)``.
    /// `deviceFile` names the device description in its errors (default `"device"`).
    public static func parse(
        text: String, file: String, size: Size?, deviceText: String?, deviceFile: String? = nil
    ) throws(TraceError) -> Trace {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text  // a byte-order mark
        let first = firstMeaningfulLine(text)
        if let (line, _) = first, EvemuParser.looksLikeEvemu(line) {
            let viewport = size ?? Trace.defaultViewport
            let parser = EvemuParser(file: file, deviceFile: deviceFile ?? "device", viewport: viewport)
            let events = try parser.parse(text: text, deviceText: deviceText)
            return Trace(viewport: viewport, events: events, viewportFromTrace: false)
        }
        if let (line, _) = first, GeteventParser.looks(like: line) {
            let viewport = size ?? Trace.defaultViewport
            let events = try GeteventParser(file: file).parseEvents(text)
            let parser = EvemuParser(file: file, deviceFile: deviceFile ?? "device", viewport: viewport)
            let frames = try parser.frames(events, ranges: [:], deviceText: deviceText, unitsArePoints: true)
            return Trace(viewport: viewport, events: frames, viewportFromTrace: false)
        }
        if let (line, number) = first, !line.hasPrefix("{"), !line.hasPrefix("[") {
            throw TraceError(
                file: file, line: number,
                message: "expected a JSON object (a JSON Lines trace) or an evemu recording line")
        }
        var parser = JSONLTraceParser(file: file)
        try parser.parse(text)
        if let size {
            return Trace(viewport: size, events: parser.events, viewportFromTrace: false, actions: parser.actions)
        }
        if let v = parser.viewport {
            return Trace(viewport: v, events: parser.events, viewportFromTrace: true, actions: parser.actions)
        }
        return Trace(
            viewport: Trace.defaultViewport, events: parser.events, viewportFromTrace: false, actions: parser.actions)
    }

    // MARK: Helpers

    static func firstMeaningfulLine(_ text: String) -> (Substring, Int)? {
        var n = 1
        var lineStart = text.utf8.startIndex
        var index = lineStart
        var blank = true
        let u = text.utf8
        while index < u.endIndex {
            let c = u[index]
            if c == 0x0A {
                if !blank { break }
                n += 1
                lineStart = u.index(after: index)
            } else if c != 0x20 && c != 0x09 && c != 0x0D {
                if blank {
                    blank = false
                    lineStart = index
                }
            }
            index = u.index(after: index)
        }
        if blank { return nil }
        var line = text[lineStart..<index]
        while line.last == "\r" { line = line.dropLast() }
        return (line, n)
    }

    static func isEvemu(_ text: String) -> Bool {
        guard let (line, _) = firstMeaningfulLine(text) else { return false }
        return EvemuParser.looksLikeEvemu(line)
    }

    static func hasAxisRanges(_ text: String) -> Bool {
        var atLineStart = true
        var sawA = false
        for c in text.utf8 {
            if sawA && c == UInt8(ascii: ":") { return true }
            sawA = atLineStart && c == UInt8(ascii: "A")
            atLineStart = c == 0x0A
        }
        return false
    }

    /// The bytes of a file, gunzipped when it is gzip, as text. Plain POSIX calls: Foundation
    /// (and the ICU it loads) would cost the app several MiB of memory and milliseconds of
    /// start-up for two file operations.
    static func readText(_ path: String) throws(TraceError) -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// The bytes of a file, gunzipped when it is gzip, each line checked against
    /// ``maximumLineBytes``.
    static func readBytes(_ path: String) throws(TraceError) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw TraceError(file: path, line: 0, message: "no such file") }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
            throw TraceError(file: path, line: 0, message: "is a directory")
        }
        var bytes = try readFile(path)
        if path.hasSuffix(".gz") || Gzip.isGzip(bytes) {
            switch Gzip.decompress(bytes, limit: maximumBytes) {
            case .success(let b): bytes = b
            case .failure(let e): throw TraceError(file: path, line: 0, message: e.message)
            }
        }
        try checkLineLengths(bytes, file: path)
        return bytes
    }

    /// The largest magnitude of a JSON Lines trace's coordinates, sizes, scales, angles and
    /// translations: 1 000 000 (window points, degrees, radians). A line beyond it is refused
    /// (`t.jsonl:3: expected "x" to be a number within ±1000000, got 1e+308`): finite but extreme
    /// values would overflow to infinities in distances and scales, and the event log would
    /// carry `null`. Evemu and getevent positions are clamped into the viewport instead.
    public static let maximumMagnitude = 1_000_000.0

    /// The most touches a trace may hold down at once, in every format: 256 (a hand has five
    /// fingers; the largest touch tables track a few dozen). Beyond it the line that would put
    /// one more down is refused: thousands of touches held together would make the
    /// recognizers' per-touch work quadratic (every lift sweeps every touch of the recognizers
    /// that saw it), and a protocol-A frame pairs each contact with each of the last frame's.
    public static let maximumTouches = 256

    /// The latest time a JSON Lines trace may give: 10⁹ s (about 31 years).
    public static let maximumTime = 1_000_000_000.0

    /// The longest line a trace may have: 4 MiB (an event is a few hundred bytes; a 2 MB JSON
    /// object still parses, and is then refused for what it is).
    public static let maximumLineBytes = 4 << 20

    /// Refuses a line over ``maximumLineBytes`` (naming it) before anything is parsed: a 200 MB
    /// line would otherwise be held and scanned whole.
    static func checkLineLengths(_ bytes: [UInt8], file: String) throws(TraceError) {
        var line = 1
        var start = 0
        var failure: TraceError?
        bytes.withUnsafeBufferPointer { b in
            var i = 0
            while i < b.count {
                if b[i] == 10 {
                    line += 1
                    start = i + 1
                } else if i - start >= maximumLineBytes {
                    failure = TraceError(file: file, line: line, message: "expected a line of at most 4 MiB")
                    return
                }
                i += 1
            }
        }
        if let failure { throw failure }
    }

    /// The most bytes an input file may hold, and the most a gzipped one may decompress to:
    /// 256 MiB (a real recording of an hour of ten fingers at 120 Hz is ~200 MiB of evemu text).
    /// Beyond it the file is refused with one line, before memory runs out.
    public static let maximumBytes = 256 << 20

    /// The most bytes a playground spec may hold: 8 MiB (30k recognizers in a chain take 2 MB).
    /// A spec is parsed whole into a tree of values about 25 times its size (4 MB of `[0,0,…]`
    /// peaked at 110 MB), so it gets a lower limit than a trace, which streams.
    public static let maximumSpecBytes = 8 << 20

    /// The whole content of a regular file of at most ``maximumBytes``. A FIFO, a device or a
    /// socket is refused without blocking (it is opened non-blocking and checked first): such an
    /// input could stall the reader or never end.
    /// `limit` lowers the size limit (a playground spec's is ``maximumSpecBytes``).
    public static func readFile(_ path: String, limit: Int = maximumBytes) throws(TraceError) -> [UInt8] {
        let (fd, size) = try openRegularFile(path, limit: limit)
        defer { close(fd) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try readChunk(fd, into: &chunk, path: path)
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else {
                throw TraceError(file: path, line: 0, message: "expected a file of at most \(limit >> 20) MiB")
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Opens a regular file of at most ``maximumBytes`` for reading (see ``readFile(_:)``):
    /// its descriptor, for the caller to close, and its size.
    public static func openRegularFile(_ path: String, limit: Int = maximumBytes) throws(TraceError) -> (Int32, Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw TraceError(file: path, line: 0, message: errno == ENOENT ? "no such file" : "cannot read the file")
        }
        var info = stat()
        var failure: String?
        if fstat(fd, &info) != 0 {
            failure = "cannot read the file"
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            failure =
                (info.st_mode & S_IFMT) == S_IFDIR
                ? "is a directory" : "expected a regular file (not a FIFO, device or socket)"
        } else if Int(info.st_size) > limit {
            failure = "expected a file of at most \(limit >> 20) MiB, got \(Int(info.st_size) >> 20) MiB"
        }
        if let failure {
            close(fd)
            throw TraceError(file: path, line: 0, message: failure)
        }
        return (fd, Int(info.st_size))
    }

    /// Reads `buffer.count` bytes at `offset` of a regular file of at most ``maximumBytes``
    /// straight into `buffer` (a picture's pixels into its surface, with no copy in between);
    /// returns the file's size. Throws when the file cannot be read or ends before them.
    public static func readRegion(
        _ path: String, offset: Int, into buffer: UnsafeMutableRawBufferPointer
    ) throws(TraceError) -> Int {
        let (fd, size) = try openRegularFile(path)
        defer { close(fd) }
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw TraceError(file: path, line: 0, message: "cannot read the file") }
            if n == 0 { throw TraceError(file: path, line: 0, message: "the file ends early") }
            done += n
        }
        return size
    }

    /// One `read` into `chunk` (EINTR retried): the number of bytes, 0 at the end.
    static func readChunk(_ fd: Int32, into chunk: inout [UInt8], path: String) throws(TraceError) -> Int {
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n >= 0 { return n }
            if errno != EINTR { throw TraceError(file: path, line: 0, message: "cannot read the file") }
        }
    }

    /// The whole content of a file (see ``readFile(_:)``), or nil when it cannot be read.
    public static func readAll(_ path: String) -> [UInt8]? {
        try? readFile(path)
    }

    /// The names in a directory (without "." and ".."), or nil when it cannot be listed.
    static func directoryEntries(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = entryName(entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The name in a directory entry, read in place up to its terminating NUL.
    ///
    /// Not `entry.pointee.d_name`: that copies the whole 256-byte array, but `readdir` packs its
    /// records by their name's length (`d_reclen`), so the buffer's last record can end well
    /// before 256 bytes — the copy then reads past the buffer, and faults when the buffer is the
    /// last block before an unmapped page (a thread's heap can end there).
    static func entryName(_ entry: UnsafePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }

    /// A `.desc`/`.device` file next to `path` whose base name starts the recording's file name.
    static func siblingDescription(of path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? ""
        var name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if name.hasSuffix(".gz") { name = String(name.dropLast(3)) }
        guard let entries = directoryEntries(slash == nil ? "." : (folder.isEmpty ? "/" : folder)) else { return nil }
        var best: (base: String, entry: String)?
        for entry in entries.sorted() where entry.hasSuffix(".desc") || entry.hasSuffix(".device") {
            let base = entry.hasSuffix(".desc") ? String(entry.dropLast(5)) : String(entry.dropLast(7))
            guard !base.isEmpty, name.hasPrefix(base), name != entry else { continue }
            if best.map({ base.count > $0.base.count }) ?? true { best = (base, entry) }
        }
        guard let best else { return nil }
        return slash == nil ? best.entry : folder + "/" + best.entry
    }
}
