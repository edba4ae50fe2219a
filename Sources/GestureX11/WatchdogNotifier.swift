#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// systemd's notification protocol (`sd_notify(3)`), without libsystemd: datagrams to the
/// `AF_UNIX` socket named by `$NOTIFY_SOCKET` (a leading `@` names an abstract socket).
/// `READY=1` once the first frame is drawn; with `$WATCHDOG_USEC`, `WATCHDOG=1` from the loop
/// every half period, so a loop that stops turning is restarted by systemd
/// (`WatchdogSec=`); `RELOADING=1` … `READY=1` around a kiosk's SIGHUP reload; `STOPPING=1` when
/// the loop ends. Without `$NOTIFY_SOCKET` nothing is sent.
@MainActor
final class WatchdogNotifier {
    private let fd: Int32
    private var address = sockaddr_un()
    private var addressLength = socklen_t(0)
    /// Seconds between two pings (half the watchdog period), nil without a watchdog.
    let interval: Double?
    /// When the next ping is due (shell seconds).
    private(set) var nextPing: Double?

    /// A notifier for the environment's socket, or nil when there is none (or it is unusable).
    static func fromEnvironment() -> WatchdogNotifier? {
        guard let path = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }), !path.isEmpty else { return nil }
        var usec: Double?
        if let w = getenv("WATCHDOG_USEC").map({ String(cString: $0) }), let v = Double(w), v > 0, v.isFinite {
            // WATCHDOG_PID, when set, must be ours.
            if let pid = getenv("WATCHDOG_PID").map({ String(cString: $0) }), Int32(pid) != getpid() {
                usec = nil
            } else {
                usec = v
            }
        }
        return WatchdogNotifier(path: path, watchdogMicroseconds: usec)
    }

    init?(path: String, watchdogMicroseconds: Double?) {
        var bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { p in
            for (i, b) in bytes.enumerated() { p[i] = b }
        }
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == 0 ? 0 : 1))
        interval = watchdogMicroseconds.map { $0 / 2_000_000 }
    }

    /// Sends `READY=1` (and starts the pings).
    func ready(now: Double) {
        send("READY=1\nSTATUS=drawing")
        if let interval { nextPing = now + interval }
    }

    /// Sends `WATCHDOG=1` if the next ping is due at `now`.
    func pingIfDue(now: Double) {
        guard let due = nextPing, let interval, now >= due else { return }
        send("WATCHDOG=1")
        nextPing = now + interval
    }

    /// Sends `RELOADING=1` (with `MONOTONIC_USEC`, as `Type=notify-reload` wants) before a
    /// reload; ``reloaded()`` after it.
    func reloading() {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        send("RELOADING=1\nMONOTONIC_USEC=\(Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)")
    }

    /// Sends `READY=1` after a reload.
    func reloaded() {
        send("READY=1")
    }

    /// Sends `STOPPING=1`.
    func stopping() {
        send("STOPPING=1")
    }

    private func send(_ message: String) {
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { a in
            a.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bytes.withUnsafeBytes { b in
                    sendto(fd, b.baseAddress, b.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), sa, addressLength)
                }
            }
        }
    }
}
