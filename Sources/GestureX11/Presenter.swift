import CCairo
import CXCB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The window's picture: drawn by Cairo into one small client-side buffer, in passes, and
/// uploaded to the window (which keeps the picture: there is no client-side copy of the whole
/// window).
///
/// Cairo draws into memory only (pixman, no X requests), so no drawing path can wait on the X
/// server. Each frame draws only the rectangles that changed; how they reach the window:
/// - **MIT-SHM** when the server has it and can attach our segments (checked once at set-up,
///   see ``SharedMemory``), and the frame's rectangles fit the buffer together: each is drawn
///   into its own part of one SysV shared-memory segment (marked for removal once the server has
///   attached it, so it never outlives the process, and never before: a segment gone before the
///   server attached it is an X error per frame) and sent with one `ShmPutImage`. Until the server has processed the frame's
///   last put, the frame is *in flight* and the buffer is not drawn into (the server may still
///   be reading it); ``isBusy``. The server tells without a completion event of its own: every
///   event and reply carries the sequence number of the last request it had processed, and the
///   next input event usually arrives before the next frame is due (one wake-up per frame, not
///   two). When a frame is wanted and nothing came, ``requestSync()`` asks for a reply
///   (GetInputFocus) and its arrival wakes the loop. A frame not confirmed within
///   ``completionTimeout`` means the server is not processing requests (stopped with SIGSTOP,
///   wedged): the shell says so once and draws nothing more until the confirmation comes
///   (``isStalled``) — it never waits for it: the loop runs on (signals, timers, the systemd
///   watchdog), and nothing piles up in the socket for the exit to flush.
/// - **PutImage** otherwise (a frame larger than the buffer, e.g. the first one; or no SHM:
///   `Xvfb -extension MIT-SHM`, a remote display): the rectangles are drawn in bands of whole
///   rows that fit the buffer and a request; XCB has copied or written each request when
///   `xcb_put_image` returns, so the next band reuses the buffer at once and nothing is in
///   flight.
///
/// The buffer starts at ``initialCapacity`` (1 MiB: a 512×512 pixel damage, what dragging the
/// flower at its first scale needs; a smaller window's size when that is less). A frame that does
/// not fit and is not a full redraw of a new size (the first frame, a resize, a kiosk reset: drawn
/// in bands) grows the SHM segment to the window's size once: the picture was enlarged to cover
/// most of the window, or the scene cannot tell what changed — every frame then goes through SHM
/// again, without copies through the socket. Startup and a common session so fault in and keep
/// 1 MiB instead of the window's 3 MiB (at 1024×768). A grown buffer goes back to its first size
/// at a new window size and after ``shrinkDelay`` without a frame, so the memory follows what is
/// being drawn: a window enlarged to 1280×800 and back, or a picture enlarged and shrunk again,
/// would otherwise keep 4 MiB (and the X server, which maps the segment, as much; the monkey
/// soak, seed 570101038937). One segment at a time: a new one replaces
/// the old after the server's last use of it (which request order guarantees), so the count of
/// segments stays flat.
@MainActor
final class Presenter {
    private let x: XConnection
    private let window: xcb_window_t
    private let gc: xcb_gcontext_t
    private let depth: UInt8
    /// The window size in pixels (0 before ``resize(width:height:)``).
    private(set) var width = 0
    private(set) var height = 0
    /// Whether a frame was drawn at the current size.
    private(set) var hasFrame = false
    /// The size changed since the buffer was last sized: a grown buffer goes back to its first size.
    private var resized = false
    /// When the last frame was drawn (shell seconds).
    private var lastDrawAt = 0.0
    /// How long without a frame before a grown buffer goes back to its first size: longer than
    /// the pauses within a gesture (a frame per refresh while anything moves), so a drag of an
    /// enlarged picture keeps its segment; short enough that an idle window holds 1 MiB.
    static let shrinkDelay = 0.5
    /// The buffer passes are drawn into, and its size in bytes.
    private var data: UnsafeMutableRawPointer?
    private var capacity = 0
    /// The buffer's first size (bytes); a window smaller than that gets its own size.
    static let initialCapacity = 1 << 20
    /// The MIT-SHM segments (see ``SharedMemory``) and the buffer's, when it is one.
    private let shm: SharedMemory
    private var segment: SharedMemory.Segment?
    /// Whether frames go through the buffer's segment (it is one and the server did not refuse it).
    private var shmSegment: xcb_shm_seg_t {
        guard let segment, !shm.isRefused(segment) else { return 0 }
        return segment.seg
    }
    private var shmAvailable: Bool { shm.usable }
    /// The sequence number of the frame in flight's last request.
    private var inFlightSequence: UInt32 = 0
    /// The sequence number of a GetInputFocus sent to learn that the frame was processed.
    private var syncSequence: UInt32?
    private var syncRequestedAt = 0.0
    /// The time the frame in flight was sent (shell seconds), nil when none is.
    private(set) var inFlightSince: Double?
    /// How long a completion is waited for before the frame is taken as done.
    static let completionTimeout = 0.5
    private var warnedTimeout = false
    /// The frame in flight was not confirmed within ``completionTimeout``: the server is not
    /// processing requests. Cleared by the confirmation.
    private(set) var isStalled = false
    init(connection: XConnection, window: xcb_window_t, depth: UInt8, allowSHM: Bool) {
        x = connection
        self.window = window
        self.depth = depth
        gc = connection.newID()
        var values: [UInt32] = [0]  // graphics_exposures off
        xcb_create_gc(connection.raw, gc, window, XCB_GC_GRAPHICS_EXPOSURES.rawValue, &values)
        shm = SharedMemory(connection: connection, allowed: allowSHM)
    }

    /// True while a frame is in flight (its buffer must not be drawn into).
    var isBusy: Bool { inFlightSince != nil }

    /// When the frame in flight counts as stalled: ``completionTimeout`` after a sync was asked
    /// for (nil when none was, or once it is stalled: only the server's answer ends that).
    var busyDeadline: Double? {
        syncSequence == nil || isStalled ? nil : syncRequestedAt + Self.completionTimeout
    }

    /// Marks the frame in flight stalled when its sync has not been answered in time at `now`
    /// (one warning line per stall). The sync stays asked: its reply ends the stall.
    func expireCompletion(now: Double) {
        guard inFlightSince != nil, !isStalled, let deadline = busyDeadline, now >= deadline else { return }
        isStalled = true
        if !warnedTimeout {
            warnedTimeout = true
            writeStderr(
                "gestures: warning: the X server did not confirm a frame within 0.5 s; "
                    + "drawing waits for it (input, timers and the watchdog go on)")
        }
    }

    /// The frame in flight is done (the server processed it).
    private func confirmed() {
        inFlightSince = nil
        isStalled = false
    }

    /// Notes that the server had processed every request up to `sequence` (an event's or a
    /// reply's full sequence number): the frame in flight is done once that covers its puts.
    func serverProcessed(through sequence: UInt32) {
        shm.serverProcessed(through: sequence)
        guard inFlightSince != nil, Int32(bitPattern: sequence &- inFlightSequence) >= 0 else { return }
        confirmed()
        dropSync()
    }

    /// Forgets the sync request; XCB drops its reply when it comes (no reply is kept forever).
    private func dropSync() {
        if let seq = syncSequence { xcb_discard_reply(x.raw, seq) }
        syncSequence = nil
    }

    /// A frame is wanted while one is in flight and no event may come to confirm it: asks the
    /// server for a reply (once per frame in flight); the caller flushes.
    func requestSync(now: Double) {
        guard inFlightSince != nil, syncSequence == nil else { return }
        syncSequence = xcb_get_input_focus(x.raw).sequence
        syncRequestedAt = now
    }

    /// Takes the reply of ``requestSync()`` if it has come (it confirms the frame), and the one
    /// that confirms a new segment's attach.
    func checkSync() {
        shm.pollConfirmation()
        guard let seq = syncSequence else { return }
        var reply: UnsafeMutableRawPointer?
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard xcb_poll_for_reply(x.raw, seq, &reply, &error) != 0 else { return }
        free(reply)
        free(error)
        shm.serverProcessed(through: seq)
        syncSequence = nil
        confirmed()
    }

    /// Sets the window size in pixels; true when it changed (or nothing was drawn yet): the next
    /// frame must draw everything. The shell passes sizes within its draw limit (at most 16384
    /// a side, see `X11Shell.drawLimit`), so every put's coordinates fit X's 16-bit fields; the
    /// conversions clamp all the same.
    @discardableResult
    func resize(width w: Int, height h: Int) -> Bool {
        let w = max(1, w)
        let h = max(1, h)
        if hasFrame && w == width && h == height { return false }
        resized = resized || w != width || h != height
        width = w
        height = h
        hasFrame = false
        return true
    }

    /// The buffer's size for the window: 1 MiB, or the window's size when that is less.
    private var firstCapacity: Int { min(Self.initialCapacity, max(4, width * height * 4)) }

    /// When a grown buffer goes back to its first size unless a frame comes first; nil when it
    /// has not grown.
    /// (None while a frame is in flight: the buffer is not changed under it, and a stalled
    /// server gets no new segment.)
    var shrinkDeadline: Double? {
        data != nil && capacity > firstCapacity && !isBusy ? lastDrawAt + Self.shrinkDelay : nil
    }

    /// When a frame in flight must be confirmed although no frame is wanted: a grown buffer waits
    /// for the confirmation to shrink, and when no input follows the last frame (the drag's last
    /// events came before the server processed it) no event would ever confirm it. nil when no
    /// sync is needed (nothing in flight, a sync already asked, or the buffer at its first size).
    var confirmDeadline: Double? {
        inFlightSince != nil && syncSequence == nil && capacity > firstCapacity
            ? lastDrawAt + Self.shrinkDelay : nil
    }

    /// Takes a grown buffer back to its first size once ``shrinkDeadline`` has passed.
    func shrinkIfIdle(now: Double) {
        guard let deadline = shrinkDeadline, now >= deadline else { return }
        allocate(bytes: firstCapacity)
    }

    /// Makes the buffer `bytes` long (SHM when it can); exits when memory is out.
    private func allocate(bytes: Int) {
        release()
        if let s = shm.create(bytes: bytes) {
            segment = s
            data = s.address
        } else {
            data = malloc(bytes)
        }
        guard data != nil else {
            writeStderr("gestures: out of memory for a \(bytes)-byte picture buffer")
            exit(1)
        }
        capacity = bytes
    }

    /// An X error event: when it is the server refusing one of our segments, SHM goes off and
    /// the next frame uses PutImage (the refused segment is never used or detached again).
    func takeRefusal(_ error: UnsafeRawPointer) {
        guard shm.takeRefusal(error) else { return }
        if segment != nil && shmSegment == 0 { hasFrame = false }
    }

    private func release() {
        guard let data else { return }
        if let segment {
            // The server handles requests in order: it is done with the segment when it detaches.
            shm.release(segment)
            self.segment = nil
        } else {
            free(data)
        }
        self.data = nil
        capacity = 0
        inFlightSince = nil
        dropSync()
    }

    /// Frees the buffer and the GC.
    func close() {
        release()
        shm.close()
        xcb_free_gc(x.raw, gc)
    }

    /// Where a frame's passes go: the window (RGB24 passes), or a drawable of the window's size
    /// (``RenderBackdrop``'s ARGB overlay: `argb` passes start transparent).
    struct Target {
        let drawable: xcb_drawable_t
        let depth: UInt8
        let gc: xcb_gcontext_t
        let argb: Bool
    }

    /// The frame in flight also holds requests sent after its puts (``RenderBackdrop``'s), the
    /// last one `sequence`: it is done when the server has processed that one.
    func alsoSent(through sequence: UInt32, now: Double) {
        guard sequence != 0 else { return }
        inFlightSequence = sequence
        if inFlightSince == nil { inFlightSince = now }
        dropSync()
    }

    /// Draws `rects` (window pixels, clipped to the window) with `paint` and uploads them to
    /// `target` (nil: the window); the caller flushes. `paint` gets a `cairo_t *` whose user
    /// space is window pixels, already clipped to the pass's part; it is called once per pass, and at least once (with an empty
    /// clip when nothing is to be drawn: a scene learns from its draw that the frame is done).
    /// `full`: the frame redraws the whole window (the first one, after a resize) or parts the
    /// server exposed; it never grows the buffer. With SHM the frame is in flight until its completion (`now` starts the
    /// wait). Not called while ``isBusy``.
    func draw(
        _ rects: [PixelRect], full: Bool, now: Double, into target: Target? = nil, paint: (OpaquePointer) -> Void
    ) {
        let target = target ?? Target(drawable: window, depth: depth, gc: gc, argb: false)
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        let parts = rects.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        let needed = parts.reduce(0) { $0 + $1.area * 4 }
        let first = firstCapacity
        lastDrawAt = now
        if data == nil || capacity < first || (resized && capacity > first) {
            // The first frame, a window enlarged past a buffer made for a smaller one, or a new
            // size after the buffer grew.
            allocate(bytes: first)
        } else if !full && needed > capacity && shmAvailable && capacity < width * height * 4 {
            allocate(bytes: width * height * 4)
        }
        hasFrame = true
        resized = false
        guard let data else { return }  // allocate(bytes:) exits when memory is out
        if parts.isEmpty {
            pass(PixelRect(x: 0, y: 0, width: 1, height: 1), clip: nil, into: data, argb: target.argb, paint: paint)
            return
        }
        if shmSegment != 0 && needed <= capacity {
            var offset = 0
            for r in parts {
                pass(r, clip: r, into: data + offset, argb: target.argb, paint: paint)
                inFlightSequence =
                    xcb_shm_put_image(
                        x.raw, target.drawable, target.gc, UInt16(clamping: r.width), UInt16(clamping: r.height), 0, 0,
                        UInt16(clamping: r.width), UInt16(clamping: r.height), Int16(clamping: r.x),
                        Int16(clamping: r.y), target.depth, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue),
                        0, shmSegment, UInt32(offset)
                    ).sequence
                offset += r.area * 4
            }
            inFlightSince = now
            dropSync()
            return
        }
        // In flight too (XCB has copied the bands, so only the next frame waits): a server that
        // stops reading then gets no more frames than one.
        for r in parts { inFlightSequence = putImage(r, from: data, into: target, paint: paint) }
        inFlightSince = now
        dropSync()
    }

    /// One pass: a Cairo surface on `buffer` holding `area` (rows of `area.width` pixels), its
    /// user space moved so that window pixels land there, clipped to `clip` (nothing when nil);
    /// `argb`: an ARGB32 surface, transparent before `paint`.
    private func pass(
        _ area: PixelRect, clip: PixelRect?, into buffer: UnsafeMutableRawPointer, argb: Bool = false,
        paint: (OpaquePointer) -> Void
    ) {
        if argb { memset(buffer, 0, area.width * area.height * 4) }
        let surface = cairo_image_surface_create_for_data(
            buffer.assumingMemoryBound(to: UInt8.self), argb ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24,
            Int32(area.width), Int32(area.height), Int32(area.width * 4))!
        let cr = cairo_create(surface)!
        cairo_translate(cr, Double(-area.x), Double(-area.y))
        if let c = clip {
            cairo_rectangle(cr, Double(c.x), Double(c.y), Double(c.width), Double(c.height))
        } else {
            cairo_rectangle(cr, 0, 0, 0, 0)
        }
        cairo_clip(cr)
        paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        cairo_surface_destroy(surface)
    }

    /// `r` drawn and sent in bands of whole rows that fit the buffer and a request; the last
    /// request's sequence number.
    private func putImage(
        _ r: PixelRect, from data: UnsafeMutableRawPointer, into target: Target, paint: (OpaquePointer) -> Void
    ) -> UInt32 {
        var sequence: UInt32 = 0
        let rowBytes = r.width * 4
        let rowsPerBand = max(1, min(r.height, min(capacity, min(x.maximumRequestBytes, 1 << 22) - 64) / rowBytes))
        var y = r.y
        while y < r.y + r.height {
            let rows = min(rowsPerBand, r.y + r.height - y)
            let band = PixelRect(x: r.x, y: y, width: r.width, height: rows)
            pass(band, clip: band, into: data, argb: target.argb, paint: paint)
            sequence =
                xcb_put_image(
                    x.raw, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), target.drawable, target.gc,
                    UInt16(clamping: r.width), UInt16(clamping: rows), Int16(clamping: r.x), Int16(clamping: y), 0,
                    target.depth, UInt32(rows * rowBytes),
                    data.assumingMemoryBound(to: UInt8.self)
                ).sequence
            y += rows
        }
        return sequence
    }
}
