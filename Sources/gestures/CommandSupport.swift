import GestureKit

#if canImport(Glibc)
    import Glibc
#endif

/// A failure the command line reports with one line on stderr (`gestures: <message>`) and an
/// exit status: 2 for bad usage or bad input, 1 for runtime failures (DESIGN.md §4.4).
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
    writeAll(2, "gestures: " + failure.message + "\n")
    exit(failure.status)
}

/// Writes one line to stdout at once (no buffering: each line is flushed as it happens).
func writeLine(_ line: String) {
    writeAll(1, line + "\n")
}

/// Writes all of `text` to a file descriptor, retrying short writes and EINTR. A closed pipe
/// ends the process quietly with status 1.
func writeAll(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                exit(1)
            }
            offset += n
        }
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
    throw .usage("\(option): expected WIDTHxHEIGHT with positive numbers of points (like 1024x768), got \"\(text)\"")
}
