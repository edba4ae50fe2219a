/// The screen saver kept off by resets, on a server without MIT-SCREEN-SAVER 1.1 `Suspend`
/// (see `X11Shell.resetSaverIfDue(now:)`; held in `KioskServices.ScreenSaverHold`).
///
/// Nothing here waits on the X server: the reset (`ForceScreenSaver`) needs no reply, and the
/// saver's timeout, which sets the interval, is asked with the reset and read by the event loop
/// when its reply comes (`X11Shell.pollSaverReply()`). A stopped server so holds neither the
/// loop, nor the watchdog's pings, nor the exit on a signal; the interval is then the last one the
/// server gave (20 s before its first answer).
struct ScreenSaverReset: Equatable {
    /// When the next reset is due (nil: resets are not used).
    var due: Double?
    /// When the last reset was sent.
    var lastReset = 0.0
    /// The GetScreenSaver sent with a reset whose reply has not been read (one at a time).
    var pendingQuery: UInt32?
    /// Seconds between resets: half the server's saver timeout (`xset s`), between 0.5 and 20 s.
    var interval = 20.0

    /// The interval for a saver timeout of `timeout` seconds (0: the saver is off).
    static func interval(forTimeout timeout: UInt16) -> Double {
        timeout > 0 ? min(20, max(0.5, Double(timeout) / 2)) : 20
    }

    /// A reset was sent at `now` (with the GetScreenSaver `query`, unless one is awaited
    /// already): the next is due one interval later.
    mutating func sent(at now: Double, query: UInt32?) {
        if pendingQuery == nil { pendingQuery = query }
        lastReset = now
        due = now + interval
    }

    /// The GetScreenSaver reply came with the saver's `timeout` (nil: none could be read): a
    /// shorter interval brings the next reset forward.
    mutating func replied(timeout: UInt16?) {
        pendingQuery = nil
        guard let timeout else { return }
        interval = Self.interval(forTimeout: timeout)
        if let due { self.due = min(due, lastReset + interval) }
    }
}
