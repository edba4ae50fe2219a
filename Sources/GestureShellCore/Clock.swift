#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The shell's one clock: `CLOCK_MONOTONIC`, in seconds since the shell started. Every time the
/// shell hands to a scene (input timestamps, `advance(to:)`, deadlines) is on this clock, so
/// the recognizers' timers and the input agree. UIKit: `ProcessInfo.systemUptime` /
/// `UIEvent.timestamp` (seconds since boot); here seconds since launch, so that event logs and
/// recorded traces start near zero.
public struct MonotonicClock: Sendable {
    /// The raw monotonic reading at the origin, nanoseconds.
    public let origin: UInt64

    /// A clock whose zero is now.
    public init() { origin = MonotonicClock.rawNanoseconds() }

    /// Raw `CLOCK_MONOTONIC` nanoseconds.
    public static func rawNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Seconds since the origin, quantized to microseconds (see ``quantize(_:)``).
    public func now() -> Double {
        let ns = MonotonicClock.rawNanoseconds() &- origin
        return Double(Int64(bitPattern: ns) / 1000) / 1_000_000
    }
}

/// Rounds to 6 decimals (micro-units), the precision of the event log and of trace files
/// (GestureTrace's number format). Everything the shell feeds a scene is quantized this way, so
/// a trace recorded with `--record` reads back as exactly the same doubles and `gestures replay`
/// reproduces the live event log bit for bit.
@inlinable public func quantize(_ v: Double) -> Double {
    guard v.isFinite, v.magnitude < 1e12 else { return v }
    return (v * 1_000_000).rounded() / 1_000_000
}

/// Maps X server timestamps (milliseconds, 32 bits, wrapping) onto the shell's clock.
///
/// X time is the server's own millisecond clock; on a local Xorg it is `CLOCK_MONOTONIC`, but a
/// remote display's is anything. The mapping keeps the smallest `receive − server` offset seen
/// (an event cannot arrive before it happened), so consecutive events keep their true spacing
/// (velocities stay right when a burst is read at once) and a mapped time is never later than
/// its arrival. When the server clock wraps or jumps back, the offset is taken afresh.
public struct ServerTimeMapper: Sendable {
    private var offset: Double?
    private var lastServer: UInt64 = 0

    public init() {}

    /// The shell time of an event stamped `server` (ms) and received at `received` (shell seconds).
    public mutating func map(server: UInt64, received: Double) -> Double {
        let serverSeconds = Double(server & 0xFFFF_FFFF) / 1000
        if let o = offset, server & 0xFFFF_FFFF >= lastServer || lastServer - (server & 0xFFFF_FFFF) < 60_000 {
            let candidate = received - serverSeconds
            if candidate < o { offset = candidate }
        } else {
            offset = received - serverSeconds
        }
        lastServer = server & 0xFFFF_FFFF
        return min(serverSeconds + offset!, received)
    }
}
