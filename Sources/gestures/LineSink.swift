import GestureKit
import GestureTrace
import GestureX11

#if canImport(Glibc)
    import Glibc
#endif

/// A file, a pipe or stdout (`-`) that the live app writes lines to without ever waiting for it
/// (docs/DESIGN.md §4.2: each line goes out as it happens). Writes are non-blocking; what a slow reader
/// has not taken yet waits in a buffer of at most ``limit`` bytes, retried every loop turn
/// (``flush()``). Files are created with mode 0600 (less where the umask says so): the operator
/// log records what visitors did.
///
/// Two policies for a file that cannot be written:
/// - **Strict** (the default, `--record` and `--log-events` outside kiosk mode): the process
///   ends with status 1 and one clear line when the reader is gone (EPIPE), the disk is full
///   (ENOSPC, EDQUOT), another error occurs, or the reader leaves a full buffer unread; a
///   regular file then ends on its last whole line (it is truncated there). A file that cannot
///   be opened is status 2; opening a FIFO nobody reads does not block either: it is refused.
/// - **Keep running** (the kiosk's operator log, ``init(path:what:append:retryEvery:)`` with a
///   retry interval): the log never ends the kiosk. A file that cannot be opened or written
///   (a full disk, a read-only folder, a reader gone) is said once on stderr; from then on lines
///   are dropped and counted, and the first line at least `retryEvery` seconds after the
///   failure tries again (opening the file anew if it never opened). When writing works again
///   the count goes first — ``resumeLine`` makes the line — and stderr says so once. A partly
///   written line is cut off (the file ends on whole lines). The file is opened for appending,
///   so the log of every start is kept.
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
    /// Free space a full file system must have again before the log resumes (16 KiB: a few
    /// hundred lines).
    static let roomToResume: UInt64 = 16 << 10
    /// Keep running: seconds between tries while the file cannot be written (nil: strict).
    private let retryEvery: Double?
    /// Keep running: lines dropped since the file failed (nil: writing works).
    private(set) var dropped: Int?
    private var retryAt: UInt64 = 0
    private var quiet = false
    /// Keep running: the line written first when writing works again, for `count` dropped lines.
    var resumeLine: ((Int) -> String)?

    /// Opens `path` (truncated; appended to with `append`). With `retryEvery` the sink keeps
    /// running when the file cannot be opened: it says so on stderr and tries again later.
    init(path: String, what: String, append: Bool = false, retryEvery: Double? = nil) throws(CommandFailure) {
        self.what = what
        self.path = path
        self.retryEvery = retryEvery
        isRegularFile = false
        fd = -1
        if path == "-" {
            fd = 1
        } else {
            fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC) | O_CLOEXEC | O_NONBLOCK, 0o600)
            if fd < 0 {
                let why = errno == ENXIO ? "no process reads the FIFO" : String(cString: strerror(errno))
                guard retryEvery != nil else { throw .usage("\(what): cannot write \(path): \(why)") }
                goDown("cannot open \(path): \(why)", lines: 0)
                return
            }
        }
        adopt(fd)
    }

    /// Takes `fd` as the sink's file: non-blocking, its size as what is committed.
    private func adopt(_ fd: Int32) {
        self.fd = fd
        var st = stat()
        isRegularFile = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        if isRegularFile {
            committed = Int64(st.st_size)
            written = committed
        }
        // stdout may be a blocking pipe or terminal: make it non-blocking too (ours alone).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Opens the file again (appending; created if logrotate moved it away) — SIGHUP in kiosk
    /// mode. Lines not yet written go to the new file. False for stdout, or when the file cannot
    /// be opened (then it keeps writing to the old one, with one line on stderr).
    func reopen() -> Bool {
        guard path != "-" else { return false }
        let new = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard new >= 0 else {
            writeAll(
                2,
                "gestures: \(what): cannot reopen \(path): \(String(cString: strerror(errno))); still writing the old file\n"
            )
            return false
        }
        if fd >= 0 { close(fd) }
        adopt(new)
        // A fresh file: try it at the next line.
        retryAt = 0
        return true
    }

    /// Queues `line` and writes what the reader takes now.
    func write(_ line: String) {
        if dropped != nil && !resume() {
            dropped! += 1
            return
        }
        pending.append(contentsOf: line.utf8)
        pending.append(10)
        _ = flush()
        if pending.count > Self.limit {
            fail("the reader took nothing of the last \(pending.count >> 20) MiB")
        }
    }

    /// Keep running, while down: true when the file takes lines again (the count written first).
    private func resume() -> Bool {
        let now = MonotonicClock.rawNanoseconds()
        guard now >= retryAt, let count = dropped else { return false }
        retryAt = now + UInt64((retryEvery ?? 10) * 1e9)
        if fd < 0 {
            let new = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0o600)
            guard new >= 0 else { return false }
            adopt(new)
        }
        // A full disk often still has room in the file's last block, where the short count
        // line fits while the next lines fail: writing would seem to come back and go again at
        // every retry. A regular file resumes only with room for lines to come.
        if isRegularFile {
            var fs = statvfs()
            if fstatvfs(fd, &fs) == 0, UInt64(fs.f_bavail) * UInt64(fs.f_frsize) < Self.roomToResume {
                return false
            }
        }
        dropped = nil
        if let resumeLine {
            pending.append(contentsOf: resumeLine(count).utf8)
            pending.append(10)
        }
        // The count line must go out for writing to count as back.
        quiet = true
        _ = flush()
        quiet = false
        guard dropped == nil else {
            // It failed again; the count line was not a visitor's.
            dropped = count
            return false
        }
        writeAll(2, "gestures: \(what): writing \(path) again (\(count) lines dropped meanwhile)\n")
        return true
    }

    /// Writes what it can without waiting; true when bytes are still pending.
    @discardableResult
    func flush() -> Bool {
        guard fd >= 0, !pending.isEmpty else { return false }
        var offset = 0
        var failure: String?
        pending.withUnsafeBytes { buf in
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n >= 0 {
                    offset += n
                    continue
                }
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                failure = errno == EPIPE ? "the reader is gone" : String(cString: strerror(errno))
                break
            }
        }
        written += Int64(offset)
        if offset > 0 {
            // Whole lines are out up to the last newline written.
            if let last = pending[..<offset].lastIndex(of: 10) {
                committed = written - Int64(offset - last - 1)
            }
        }
        if let failure {
            guard retryEvery != nil else { fail(failure) }
            // Lines not wholly written are dropped (the partial one cut off the file).
            let whole = pending[..<offset].lastIndex(of: 10).map { $0 + 1 } ?? 0
            let lost = pending[whole...].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
            if isRegularFile {
                _ = ftruncate(fd, off_t(committed))
                written = committed
            }
            pending.removeAll()
            goDown("cannot write \(path): \(failure)", lines: lost)
            return false
        }
        if offset > 0 { pending.removeFirst(offset) }
        return !pending.isEmpty
    }

    /// Keep running: the file failed; `lines` were lost with it.
    private func goDown(_ why: String, lines: Int) {
        if dropped == nil && !quiet {
            writeAll(
                2,
                "gestures: \(what): \(why); the kiosk runs on without its log (lines are counted) and tries again every \(Int(retryEvery ?? 10)) s\n"
            )
        }
        dropped = (dropped ?? 0) + lines
        retryAt = MonotonicClock.rawNanoseconds() + UInt64((retryEvery ?? 10) * 1e9)
        if fd < 0 { isRegularFile = false }
    }

    /// Waits up to `seconds` for a slow reader to take what is pending (at exit). Keep running:
    /// what is not taken by then is left (the exit is not the log's).
    func drain(seconds: Double) {
        let deadline = MonotonicClock.rawNanoseconds() + UInt64(seconds * 1e9)
        while flush() {
            let now = MonotonicClock.rawNanoseconds()
            guard now < deadline else {
                if retryEvery != nil { return }
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
