import CXCB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The MIT-SHM segments the ``Presenter`` shares with the X server, and when each may go.
///
/// - **Checked once, at set-up.** ``init(connection:allowed:)`` attaches a one-page probe
///   segment with a checked request (the one round trip): a server without the extension, or
///   one that cannot attach our segments (another user, another IPC namespace, a remote
///   display), refuses it and the presenter uses plain PutImage from then on. Every later
///   attach is unchecked, so no frame waits on the server.
/// - **Marked for removal only once the server has attached it.** A segment marked with
///   `IPC_RMID` is destroyed when its last attachment goes; marked before the server's attach
///   and detached here, it would be gone when the server comes to it (BadAccess on the attach,
///   BadShmSeg on every put and the detach). So a new segment stays unmarked until an event or
///   reply tells that the server has processed its attach (``serverProcessed(through:)``); every
///   segment waiting for that is kept in a list (several may be waiting: a buffer replaced
///   twice in one turn of the loop). So that this does not wait for the next input event, each
///   attach is followed by a GetInputFocus whose reply the loop picks up without waiting
///   (``pollConfirmation()``): one request per new segment, none per frame. Once marked, the
///   segment lives while the server or this process has it attached, and never outlives both.
/// - **A later refusal** (an error event for one of the unchecked attaches) turns SHM off: the
///   presenter goes back to PutImage, without sending anything more for that segment.
@MainActor
final class SharedMemory {
    /// A segment attached here and (asked) by the server.
    struct Segment {
        let seg: xcb_shm_seg_t
        let id: Int32
        let address: UnsafeMutableRawPointer
        let attachSequence: UInt32
    }

    private let x: XConnection
    /// Whether new buffers go through SHM (the probe was accepted and nothing was refused since).
    private(set) var usable: Bool
    /// The extension's major opcode (its requests' errors name it).
    private var majorOpcode: UInt8 = 0
    /// Segments whose attach the server has not yet been seen to process: not yet marked.
    private var unmarked: [(id: Int32, sequence: UInt32)] = []
    /// Attaches the server refused (their segments must not be used or detached).
    private(set) var refusedSegments: Set<xcb_shm_seg_t> = []
    /// Attaches sent and not yet known processed, by sequence number (to match a refusal).
    private var attaching: [UInt32: xcb_shm_seg_t] = [:]
    /// The GetInputFocus sent after the last attach, its reply not yet read.
    private var confirmation: UInt32?

    init(connection: XConnection, allowed: Bool) {
        x = connection
        usable = false
        guard allowed, let ext = gestures_shm_extension(connection.raw), ext.pointee.present != 0 else { return }
        majorOpcode = ext.pointee.major_opcode
        usable = probe()
    }

    /// Attaches a one-page segment with a checked request; true when the server accepted it.
    private func probe() -> Bool {
        let id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0o600)
        guard id >= 0 else { return false }
        defer { shmctl(id, IPC_RMID, nil) }
        guard let p = gestures_shm_attach(id) else { return false }
        defer { shmdt(p) }
        let seg = x.newID()
        if let error = xcb_request_check(x.raw, xcb_shm_attach_checked(x.raw, seg, UInt32(id), 0)) {
            free(error)
            x.exitIfBroken()
            return false
        }
        // Marked for removal when the probe is detached here and by the server (in order).
        xcb_shm_detach(x.raw, seg)
        return true
    }

    /// A fresh segment of `bytes`, attached here and asked of the server (no round trip); nil
    /// when SHM is off or the system has no segment to give (then SHM stays off).
    func create(bytes: Int) -> Segment? {
        guard usable else { return nil }
        let id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
        guard id >= 0 else {
            usable = false
            return nil
        }
        guard let p = gestures_shm_attach(id) else {
            shmctl(id, IPC_RMID, nil)
            usable = false
            return nil
        }
        let seg = x.newID()
        let sequence = xcb_shm_attach(x.raw, seg, UInt32(id), 0).sequence
        unmarked.append((id, sequence))
        attaching[sequence] = seg
        if let old = confirmation { xcb_discard_reply(x.raw, old) }
        confirmation = xcb_get_input_focus(x.raw).sequence
        // While the server attaches it: fault the pages in with one call (MADV_POPULATE_WRITE,
        // Linux 5.14; ignored where unknown) instead of one fault per page in the first frame.
        _ = madvise(p, bytes, 23)
        return Segment(seg: seg, id: id, address: p, attachSequence: sequence)
    }

    /// Whether the server refused `segment`'s attach (seen so far).
    func isRefused(_ segment: Segment) -> Bool { refusedSegments.contains(segment.seg) }

    /// Done with `segment`: the server detaches it after every request sent before (request
    /// order), and this process unmaps it now. It is marked for removal once the server has
    /// attached it (already, or at ``serverProcessed(through:)``).
    func release(_ segment: Segment) {
        if !refusedSegments.contains(segment.seg) { xcb_shm_detach(x.raw, segment.seg) }
        refusedSegments.remove(segment.seg)
        shmdt(segment.address)
    }

    /// The server had processed every request up to `sequence` (an event's or a reply's full
    /// sequence number): the segments it has attached by then are marked for removal.
    func serverProcessed(through sequence: UInt32) {
        guard !unmarked.isEmpty else { return }
        unmarked.removeAll { entry in
            guard Int32(bitPattern: sequence &- entry.sequence) >= 0 else { return false }
            shmctl(entry.id, IPC_RMID, nil)
            return true
        }
        attaching = attaching.filter { Int32(bitPattern: sequence &- $0.key) < 0 }
    }

    /// Takes the reply that follows the last attach when it has come (never waits): every
    /// segment attached by then is marked.
    func pollConfirmation() {
        guard let seq = confirmation else { return }
        var reply: UnsafeMutableRawPointer?
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard xcb_poll_for_reply(x.raw, seq, &reply, &error) != 0 else { return }
        free(reply)
        free(error)
        confirmation = nil
        serverProcessed(through: seq)
    }

    /// An error event: true when it is the refusal of one of our attaches (SHM is then off).
    func takeRefusal(_ error: UnsafeRawPointer) -> Bool {
        let e = error.loadUnaligned(as: xcb_generic_error_t.self)
        guard e.major_code == majorOpcode, e.minor_code == UInt16(XCB_SHM_ATTACH),
            let seg = attaching.removeValue(forKey: e.full_sequence)
        else { return false }
        refusedSegments.insert(seg)
        usable = false
        return true
    }

    /// At exit: marks every segment still waiting (the process's own attachments go with it).
    func close() {
        for entry in unmarked { shmctl(entry.id, IPC_RMID, nil) }
        unmarked.removeAll()
        if let old = confirmation { xcb_discard_reply(x.raw, old) }
        confirmation = nil
        attaching.removeAll()
    }
}
