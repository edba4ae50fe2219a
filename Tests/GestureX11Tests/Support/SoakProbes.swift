import CX11
import Foundation
import GestureTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The X DAMAGE extension watching one window from a connection of its own: every drawing
/// into the window (the app's `ShmPutImage` / `PutImage` included) arrives as a DamageNotify
/// (`XDamageReportRawRectangles`: one event per damaged rectangle, nothing to acknowledge).
final class DamageWatch {
    let connection: XConnection
    private let eventType: Int32
    private let damage: Damage
    /// DamageNotify events read so far.
    private(set) var events = 0

    init(display: String, window: Window) throws {
        connection = try XConnection(display)
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard XDamageQueryExtension(connection.display, &eventBase, &errorBase) != 0 else {
            connection.close()
            throw XTestError("the X server \(display) has no DAMAGE extension")
        }
        var major: Int32 = 1
        var minor: Int32 = 1
        XDamageQueryVersion(connection.display, &major, &minor)
        eventType = eventBase + XDamageNotify
        damage = XDamageCreate(connection.display, window, XDamageReportRawRectangles)
        connection.sync()
    }

    func close() {
        connection.close()
    }

    /// The monotonic time of the next DamageNotify, waiting at most `timeout` seconds; nil if
    /// none came.
    func next(timeout: Double) -> Double? {
        let display = connection.display
        let deadline = monotonicNow() + timeout
        while true {
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                if event.type == eventType {
                    events += 1
                    return monotonicNow()
                }
            }
            let remaining = deadline - monotonicNow()
            if remaining <= 0 { return nil }
            var pfd = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
            _ = Glibc.poll(&pfd, 1, Int32(max(1, (remaining * 1000).rounded(.up))))
        }
    }

    /// Reads damage until none has come for `quiet` seconds (at most `limit` seconds in all).
    /// Returns how long it waited, or nil if the window never went quiet.
    @discardableResult
    func waitQuiet(_ quiet: Double, limit: Double) -> Double? {
        connection.sync()
        let start = monotonicNow()
        while monotonicNow() - start < limit {
            if next(timeout: quiet) == nil { return monotonicNow() - start }
        }
        return nil
    }
}

/// What `/proc` says about a process.
enum ProcessProbe {
    /// CPU time (user + system) of all the live threads of `pid`, seconds, from the scheduler's
    /// nanosecond counters (`/proc/PID/task/*/schedstat`); nil if the process is gone.
    static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        else { return nil }
        var total = 0.0
        for task in tasks {
            let text = readText("/proc/\(pid)/task/\(task)/schedstat")
            if let first = text.split(separator: " ").first, let ns = Double(first) { total += ns / 1e9 }
        }
        return total
    }

    /// utime + stime of `pid` from `/proc/PID/stat`, seconds (clock-tick resolution).
    static func statCPUSeconds(_ pid: pid_t) -> Double? {
        let text = readText("/proc/\(pid)/stat")
        // The command name may hold spaces: fields are counted after its closing parenthesis.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3); utime and stime are fields 14 and 15.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            return nil
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident set size (`VmRSS` of `/proc/PID/status`), KiB; `excludingShared`: less `RssShmem`.
    ///
    /// The X server's figure excludes shared memory: the app's picture buffer is a SysV segment
    /// the server maps too, and its pages count in the server's RSS once the server has read
    /// them, until the app replaces the segment (a new window size, a grown buffer shrunk): a
    /// swing of up to the segment's 1 MiB between two checkpoints that is no growth of the
    /// server's (71 364–72 380 KiB in one 30-minute soak; +964 KiB between two checkpoints of a
    /// 60 s one). The app's figure keeps it (a buffer left grown would show there), and the
    /// segments themselves are counted apart (``sharedMemorySegments(creator:)``).
    static func rssKiB(_ pid: pid_t, excludingShared: Bool = false) -> Int? {
        var rss: Int?
        var shared = 0
        for line in readText("/proc/\(pid)/status").split(separator: "\n") {
            let value = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            if line.hasPrefix("VmRSS:") { rss = value }
            if line.hasPrefix("RssShmem:") { shared = value ?? 0 }
        }
        return rss.map { excludingShared ? $0 - shared : $0 }
    }
}

/// The live SysV shared-memory segments whose creator is `pid` (/proc/sysvipc/shm; a segment
/// marked for removal is listed while attached).
func sharedMemorySegments(creator pid: pid_t) -> Int { sharedMemorySegmentSizes(creator: pid).count }

/// The sizes in bytes of the SysV shared-memory segments `pid` created that still exist.
func sharedMemorySegmentSizes(creator pid: pid_t) -> [Int] {
    guard let text = try? String(contentsOfFile: "/proc/sysvipc/shm", encoding: .utf8) else { return [] }
    var sizes: [Int] = []
    for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        // key shmid perms size cpid lpid nattch …
        if fields.count > 4, Int32(fields[4]) == pid, let size = Int(fields[3]) { sizes.append(size) }
    }
    return sizes
}

extension XConnection {
    /// The pixels (0xRRGGBB) of a small rectangle of `window`, clipped to it; nil if nothing
    /// of it lies inside the window.
    func patch(of window: Window, x: Int, y: Int, width: Int, height: Int) -> [UInt32]? {
        guard let g = geometry(of: window) else { return nil }
        let x0 = max(0, x)
        let y0 = max(0, y)
        let x1 = min(g.width, x + width)
        let y1 = min(g.height, y + height)
        guard x0 < x1, y0 < y1,
            let image = XGetImage(
                display, window, Int32(x0), Int32(y0), UInt32(x1 - x0), UInt32(y1 - y0),
                UInt(bitPattern: -1), ZPixmap)
        else { return nil }
        defer { _ = image.pointee.f.destroy_image(image) }
        var pixels: [UInt32] = []
        for row in 0..<Int32(y1 - y0) {
            for column in 0..<Int32(x1 - x0) {
                let p = image.pointee.f.get_pixel(image, column, row)
                pixels.append(UInt32(truncatingIfNeeded: p) & 0xff_ffff)
            }
        }
        return pixels
    }
}
