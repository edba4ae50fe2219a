import GestureKit
import GestureTrace

#if canImport(Glibc)
    import Glibc
#endif

/// A failure the command line reports with one line on stderr (`gestures: <message>`) and an
/// exit status: 2 for bad usage or bad input, 1 for runtime failures (docs/DESIGN.md §4.4).
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    let status: Int32
    /// Bad usage or bad input: exit status 2.
    static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }
    /// A runtime failure: exit status 1.
    static func runtime(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 1) }
    var description: String { message }
}

/// Prints `gestures: <message>` on stderr and exits with the failure's status.
func failAndExit(_ failure: CommandFailure) -> Never {
    writeAll(2, "gestures: " + MessageText.line(failure.message) + "\n")
    exit(failure.status)
}

/// Writes one line to stdout at once (no buffering: each line is flushed as it happens).
///
/// When stdout fails — the reader closed the pipe (SIGPIPE is ignored so that the write reports
/// EPIPE), the disk is full (ENOSPC, `/dev/full`), the file size limit is reached (EFBIG) or any
/// other error — one line goes to stderr (`gestures: stdout: no space left on device; stopping`)
/// and the process exits with status 1. A regular file is first cut back to the end of the last
/// line written whole, so that what was written always ends on a whole line.
func writeLine(_ line: String) {
    StdoutLines.shared.write(line)
}

/// The state behind ``writeLine(_:)``: where stdout's last whole line ends. The command line is
/// single-threaded (every line comes from the main thread).
final class StdoutLines: @unchecked Sendable {
    static let shared = StdoutLines()
    private var committed: off_t
    private let isRegularFile: Bool

    private init() {
        _ = signal(SIGPIPE, SIG_IGN)
        _ = signal(SIGXFSZ, SIG_IGN)
        var st = stat()
        isRegularFile = fstat(1, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        committed = isRegularFile ? max(lseek(1, 0, SEEK_CUR), 0) : 0
    }

    func write(_ line: String) {
        let text = line + "\n"
        let error = writeBytes(1, text)
        guard error == 0 else {
            if isRegularFile { _ = ftruncate(1, committed) }
            let why = error == EPIPE ? "the reader is gone" : String(cString: strerror(error)).lowercased()
            writeAll(2, "gestures: stdout: \(why); stopping\n")
            exit(1)
        }
        committed += off_t(text.utf8.count)
    }
}

/// Writes all of `text` to a file descriptor, retrying short writes and EINTR. A failure ends
/// the process quietly with status 1 (it is stderr itself that failed).
func writeAll(_ fd: Int32, _ text: String) {
    if writeBytes(fd, text) != 0 { exit(1) }
}

/// Writes all of `text`, retrying short writes and EINTR; 0, or the `errno` of the write that
/// failed.
func writeBytes(_ fd: Int32, _ text: String) -> Int32 {
    var text = text
    return text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
    }
}

/// Parses a `--size` value, `WIDTHxHEIGHT` in points (`1024x768`; decimals allowed): both
/// positive, at most 100000. Throws a usage failure naming the option.
func parseSizeOption(_ text: String?, option: String = "--size") throws(CommandFailure) -> Size? {
    guard let text else { return nil }
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    if parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
        w.isFinite, h.isFinite, w > 0, h > 0, w <= 100_000, h <= 100_000,
        parts.allSatisfy({ $0.first?.isNumber == true })
    {
        return Size(width: w, height: h)
    }
    throw .usage(
        "\(option): expected WIDTHxHEIGHT with positive numbers of points (like 1024x768), got \(MessageText.quoted(text))"
    )
}

/// Checks, before any work, that an output file can be created at `path`: its folder exists and
/// is a writable folder, and `path` is not a folder or a read-only file. A usage failure names
/// the option (`--png: cannot write /no/such/out.png: no such folder /no/such`), so that a
/// replay does not run to the end only to fail at the last step.
func checkOutputPath(_ path: String, option: String) throws(CommandFailure) {
    func fail(_ why: String) -> CommandFailure { .usage("\(option): cannot write \(path): \(why)") }
    var st = stat()
    if stat(path, &st) == 0 {
        if (st.st_mode & S_IFMT) == S_IFDIR { throw fail("is a folder") }
        if access(path, W_OK) != 0 { throw fail(String(cString: strerror(errno)).lowercased()) }
        return
    }
    let folder: String
    if let slash = path.lastIndex(of: "/") {
        folder = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
        folder = "."
    }
    guard stat(folder, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { throw fail("no such folder \(folder)") }
    if access(folder, W_OK | X_OK) != 0 { throw fail(String(cString: strerror(errno)).lowercased()) }
}
