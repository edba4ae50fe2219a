import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A failure of the X test infrastructure, with a one-line reason that the test reports.
package struct XTestError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Seconds on the monotonic clock.
package func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Sleeps for `seconds` (pacing of injected input; never used to wait for a result).
package func pause(_ seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(
        tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// Polls `condition` every `interval` seconds until it returns a value or `timeout` passes.
package func poll<T>(timeout: Double, interval: Double = 0.002, _ condition: () throws -> T?) rethrows
    -> T?
{
    let deadline = monotonicNow() + timeout
    while true {
        if let value = try condition() { return value }
        if monotonicNow() >= deadline { return nil }
        pause(interval)
    }
}

/// A pipe whose two ends are close-on-exec (a child gets one only through an explicit `dup2`).
package struct Pipe2 {
    package let readEnd: Int32
    package let writeEnd: Int32
    package init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw XTestError("pipe failed: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec: a child gets an end only through an explicit dup2 (and every spawn
        // closes descriptors above the ones it maps anyway).
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        readEnd = fds[0]
        writeEnd = fds[1]
    }
}

/// glibc ≥ 2.34's `posix_spawn_file_actions_addclosefrom_np` (not exported by the Glibc module):
/// the child closes every descriptor from the given one up.
private let spawnAddCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
        return nil
    }
    return unsafeBitCast(
        symbol,
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)
            .self)
}()

/// A child process started with `posix_spawn`: exact exit status, redirections to files or
/// descriptors, no inherited descriptors beyond 0, 1, 2 and the ones mapped explicitly.
package final class ChildProcess {
    package enum Output {
        case null
        case file(String)
        case descriptor(Int32)
    }

    package let pid: pid_t
    package let executable: String
    package private(set) var status: Int32?

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments`.
    /// `extraDescriptors` maps child descriptor numbers (≥ 3) to descriptors of this process.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdout: Output = .null, stderr: Output = .null,
        extraDescriptors: [Int32: Int32] = [:], newProcessGroup: Bool = true
    ) throws {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (fd, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch output {
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(
                    &actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, fd)
            }
        }
        for (target, source) in extraDescriptors {
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        let keep = (extraDescriptors.keys.max() ?? 2) + 1
        if let closeFrom = spawnAddCloseFrom { _ = closeFrom(&actions, keep) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newProcessGroup { flags |= Int32(POSIX_SPAWN_SETPGROUP) }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGUSR1] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var env = environment ?? ProcessInfo.processInfo.environment
        if env["PATH"] == nil { env["PATH"] = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv + envp { free(p) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw XTestError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    /// Exit status (`128 + signal` when killed by a signal) once it has exited, else nil.
    @discardableResult
    package func reap() -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        guard r == pid else { return nil }
        let signal = raw & 0x7f
        status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        return status
    }

    package var isRunning: Bool { reap() == nil }

    /// Waits at most `timeout` seconds for the process to exit; its status, or nil.
    package func wait(timeout: Double) -> Int32? {
        poll(timeout: timeout, interval: 0.001) { reap() }
    }

    package func signal(_ sig: Int32) {
        if isRunning { kill(pid, sig) }
    }

    /// SIGTERM, then SIGKILL after `grace` seconds; always reaps.
    package func stop(grace: Double = 3) {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        if wait(timeout: grace) == nil {
            kill(pid, SIGKILL)
            _ = wait(timeout: 10)
        }
    }

    deinit { stop() }
}

/// A temporary directory removed at deinit.
package final class TemporaryDirectory {
    package let path: String
    package init(prefix: String = "gestures-xtest") throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw XTestError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }
    package func file(_ name: String) -> String { path + "/" + name }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The contents of a text file, or "" when it cannot be read.
package func readText(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// The last `count` lines of a text file, for failure messages.
package func tail(_ path: String, lines count: Int = 15) -> String {
    readText(path).split(separator: "\n", omittingEmptySubsequences: false).suffix(count)
        .joined(separator: "\n")
}

/// Reads one line (up to a newline) from a descriptor within `timeout` seconds.
package func readLine(from fd: Int32, timeout: Double) -> String? {
    var bytes: [UInt8] = []
    let deadline = monotonicNow() + timeout
    while true {
        let remaining = deadline - monotonicNow()
        if remaining <= 0 { return nil }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let r = Glibc.poll(&pfd, 1, Int32(max(1, remaining * 1000)))
        if r < 0 && errno == EINTR { continue }
        if r <= 0 { continue }
        var byte: UInt8 = 0
        let n = read(fd, &byte, 1)
        if n <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
        if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
    }
}
