import CXCB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Replies the loop asked for and reads when they have come, never waiting: the requests a
/// running app makes of the server after start-up (the keyboard mapping after a MappingNotify,
/// the scroll classes after a device hierarchy change) go through here, so that a stalled server
/// holds neither the loop nor the watchdog's pings. Start-up, before the loop, may wait (the
/// connection's set-up has its time-out).
///
/// Each request comes with what to do with its reply: called with the reply's bytes (within
/// its stated length, as ``XConnection/withReply(_:_:)`` gives them) or nil for an error. The
/// loop calls ``take(_:)`` after each read, and every ``pollInterval`` while something is
/// awaited (a reply XCB read while waiting for another would not wake it).
@MainActor
final class PendingReplies {
    private var waiting: [(sequence: UInt32, handle: (UnsafeRawBufferPointer?) -> Void)] = []

    /// How often the loop looks for awaited replies, seconds.
    static let pollInterval = 0.1

    /// Whether a reply is awaited.
    var isEmpty: Bool { waiting.isEmpty }

    /// Awaits the reply of `sequence` (a request just sent) and hands it to `handle`.
    func expect(_ sequence: UInt32, _ handle: @escaping (UnsafeRawBufferPointer?) -> Void) {
        waiting.append((sequence, handle))
    }

    /// Hands over the replies that have come, in the order they were asked; never waits.
    func take(_ x: XConnection) {
        while let first = waiting.first {
            var reply: UnsafeMutableRawPointer?
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            guard xcb_poll_for_reply(x.raw, first.sequence, &reply, &error) != 0 else { return }
            waiting.removeFirst()
            free(error)
            if let reply {
                XConnection.withReply(reply) { first.handle($0) }
            } else {
                first.handle(nil)
            }
        }
    }
}
