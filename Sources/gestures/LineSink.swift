import GestureKit
import GestureTrace
import GestureX11

#if canImport(Glibc)
    import Glibc
#endif

/// A file, a pipe or stdout (`-`) that the live app writes lines to without ever waiting for it
/// (docs/DESIGN.md §4.2: each line goes out as it happens). Writes are non-blocking; what a slow reader
/// has not taken yet waits in a buffer of at most ``limit`` bytes, retried every loop turn
/// (``flush()``). Ends the process with status 1 and one clear line when the reader is gone
/// (EPIPE), the disk is full (ENOSPC, EDQUOT), another error occurs, or the reader leaves a full
/// buffer unread; a regular file then ends on its last whole line (it is truncated there).
/// Opening a FIFO nobody reads does not block either: it is refused (status 2).
final class LineSink {
    private var fd: Int32
    private let what: String
    private let path: String
    private var isRegularFile: Bool
    private var pending: [UInt8] = []
    /// Bytes of whole lines written so far (a regular file is cut back to this on failure).
    private var committed: Int64 = 0
    private var written: Int64 = 0
    /// The most bytes waiting for a slow reader before the app gives up on it.
    static let limit = 4 << 20

    init(path: String, what: String) throws(CommandFailure) {
        self.what = what
        self.path = path
        if path == "-" {
            fd = 1
        } else {
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644)
            if fd < 0 {
                let why = errno == ENXIO ? "no process reads the FIFO" : String(cString: strerror(errno))
                throw .usage("\(what): cannot write \(path): \(why)")
            }
        }
        var st = stat()
        isRegularFile = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        // stdout may be a blocking pipe or terminal: make it non-blocking too (ours alone).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Opens the file again (appending; created if logrotate moved it away) — SIGHUP in kiosk
    /// mode. Lines not yet written go to the new file. False for stdout, or when the file cannot
    /// be opened (then it keeps writing to the old one, with one line on stderr).
    func reopen() -> Bool {
        guard path != "-" else { return false }
        let new = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard new >= 0 else {
            writeAll(
                2,
                "gestures: \(what): cannot reopen \(path): \(String(cString: strerror(errno))); still writing the old file\n"
            )
            return false
        }
        close(fd)
        fd = new
        var st = stat()
        isRegularFile = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        if isRegularFile {
            committed = Int64(st.st_size)
            written = committed
        }
        return true
    }

    /// Queues `line` and writes what the reader takes now.
    func write(_ line: String) {
        pending.append(contentsOf: line.utf8)
        pending.append(10)
        _ = flush()
        if pending.count > Self.limit {
            fail("the reader took nothing of the last \(pending.count >> 20) MiB")
        }
    }

    /// Writes what it can without waiting; true when bytes are still pending.
    @discardableResult
    func flush() -> Bool {
        var offset = 0
        pending.withUnsafeBytes { buf in
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n >= 0 {
                    offset += n
                    continue
                }
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                let why = errno == EPIPE ? "the reader is gone" : String(cString: strerror(errno))
                written += Int64(offset)
                fail(why)
            }
        }
        written += Int64(offset)
        if offset > 0 {
            // Whole lines are out up to the last newline written.
            if let last = pending[..<offset].lastIndex(of: 10) {
                committed = written - Int64(offset - last - 1)
            }
            pending.removeFirst(offset)
        }
        return !pending.isEmpty
    }

    /// Waits up to `seconds` for a slow reader to take what is pending (at exit).
    func drain(seconds: Double) {
        let deadline = MonotonicClock.rawNanoseconds() + UInt64(seconds * 1e9)
        while flush() {
            let now = MonotonicClock.rawNanoseconds()
            guard now < deadline else {
                fail("the reader did not take the last \(pending.count) bytes within \(seconds) s")
            }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, Int32((deadline - now) / 1_000_000) + 1)
        }
    }

    private func fail(_ why: String) -> Never {
        if isRegularFile { _ = ftruncate(fd, off_t(committed)) }
        writeAll(2, "gestures: \(what): \(why); stopping\n")
        exit(1)
    }
}

/// Writes the input fed to the scene as a JSON Lines trace (docs/DESIGN.md §4.1): the viewport line
/// first (the window's size in points at the first event), then one line per touch change,
/// touchpad pinch event, shake and wait, with the shell's times (seconds since launch, 6
/// decimals — the very values the scene saw, so `gestures replay` reproduces the live log).
/// Key commands other than Ctrl+Z are not input and are not recorded; a resize after the first
/// event is not recorded either (the trace has one viewport).
@MainActor
final class TraceWriter {
    private let sink: LineSink
    private var wroteViewport = false
    init(sink: LineSink) { self.sink = sink }

    func write(_ event: InputEvent, viewport: Size) {
        if !wroteViewport {
            wroteViewport = true
            var v = JSONLine()
            v.add("type", "viewport")
            v.add("width", viewport.width)
            v.add("height", viewport.height)
            sink.write(v.text)
        }
        switch event {
        case .touches(let frame):
            for c in frame.changes {
                var l = JSONLine()
                let type =
                    switch c.phase {
                    case .began: "down"
                    case .moved: "move"
                    case .ended: "up"
                    case .cancelled: "cancel"
                    }
                l.add("type", type)
                l.add("t", frame.timestamp)
                l.add("id", c.id)
                l.add("x", c.location.x)
                l.add("y", c.location.y)
                sink.write(l.text)
            }
        case .touchpadPinch(let p):
            var l = JSONLine()
            l.add("type", "pinch")
            l.add("t", p.timestamp)
            l.add("phase", p.phase.rawValue)
            l.add("x", p.location.x)
            l.add("y", p.location.y)
            l.add("scale", p.scale)
            l.add("angle", p.angleDelta)
            sink.write(l.text)
        case .scroll(let s):
            sink.write(scrollTraceLine(s))
        case .shake(let t):
            var l = JSONLine()
            l.add("type", "shake")
            l.add("t", t)
            sink.write(l.text)
        case .wait(let t):
            var l = JSONLine()
            l.add("type", "wait")
            l.add("t", t)
            sink.write(l.text)
        }
    }
}
