#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// SIGINT, SIGTERM and SIGHUP as bytes on a non-blocking pipe the loop polls (the self-pipe
/// trick): the handler only writes the signal number, so a signal is handled between two
/// turns of the loop, whatever the loop was doing, within one turn.
struct SignalPipe {
    /// The descriptor to poll (-1 when the pipe could not be made).
    let readEnd: Int32
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    static func install() -> SignalPipe {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return SignalPipe(readEnd: -1) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWrite = fds[1]
        // The handler keeps `errno`: its write can fail (EAGAIN on a full pipe) between a
        // system call's failure and the loop's reading of that call's errno.
        let handler: @convention(c) (Int32) -> Void = { signal in
            let saved = errno
            var b = UInt8(truncatingIfNeeded: signal)
            _ = write(signalPipeWrite, &b, 1)
            errno = saved
        }
        for s in handled { _ = Glibc.signal(s, handler) }
        // A write to a dead server (or a closed log pipe) must fail with EPIPE, not kill the
        // process silently: the failing write is then reported in one line.
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        return SignalPipe(readEnd: fds[0])
    }

    /// The first signal waiting on the pipe (the rest are read and dropped), or nil.
    func take() -> Int32? {
        guard readEnd >= 0 else { return nil }
        var buf = [UInt8](repeating: 0, count: 16)
        let n = read(readEnd, &buf, buf.count)
        return n > 0 ? Int32(buf[0]) : nil
    }

    /// Restores the default actions (a second SIGTERM after the loop ended kills at once).
    func uninstall() {
        for s in Self.handled { _ = Glibc.signal(s, SIG_DFL) }
    }
}
