import CCairo
import CXCB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The window's picture: a client-side Cairo image (the back buffer) and its presentation.
///
/// Cairo draws into memory only (pixman, no X requests), so no drawing path can wait on the X
/// server. The shell then uploads the rectangles that changed:
/// - **MIT-SHM** when the server has it and can attach our segment: the back buffer lives in one
///   SysV shared-memory segment (marked for removal as soon as the server has attached it, so it
///   never outlives the process); `ShmPutImage` of each changed rectangle. Until the server has
///   processed the frame's last put, the frame is *in flight* and the buffer is not drawn into
///   (the server may still be reading it); ``isBusy``. The server tells without a completion
///   event of its own: every event and reply carries the sequence number of the last request it
///   had processed, and the next input event usually arrives before the next frame is due (one
///   wake-up per frame, not two). When a frame is wanted and nothing came, ``requestSync()``
///   asks for a reply (GetInputFocus) and its arrival wakes the loop. A frame never confirmed is
///   given up after ``completionTimeout`` (one warning line), so a frame that cannot be
///   presented never stops the shell from drawing.
/// - **PutImage** otherwise (e.g. `Xvfb -extension MIT-SHM`, a remote display): the rectangles
///   are copied into requests of at most the server's maximum request size; nothing is in flight
///   (the data is in the request).
///
/// One segment per window size: a resize frees the old one (after the server's last use of it,
/// which request order guarantees) — the count of segments stays flat.
@MainActor
final class Presenter {
    private let x: XConnection
    private let window: xcb_window_t
    private let gc: xcb_gcontext_t
    private let depth: UInt8
    /// The `cairo_surface_t *` to draw into (pixels), nil before ``resize(width:height:)``.
    private(set) var surface: OpaquePointer?
    private(set) var width = 0
    private(set) var height = 0
    private var data: UnsafeMutableRawPointer?
    private var stride = 0
    /// The MIT-SHM segment (0: none) and the shell's wish to use SHM at all.
    private var shmSegment: xcb_shm_seg_t = 0
    private var shmAvailable: Bool
    /// The sequence number of the frame in flight's last request.
    private var inFlightSequence: UInt32 = 0
    /// The sequence number of a GetInputFocus sent to learn that the frame was processed.
    private var syncSequence: UInt32?
    private var syncRequestedAt = 0.0
    /// Scratch rows for PutImage.
    private var scratch: [UInt8] = []
    /// The time the frame in flight was sent (shell seconds), nil when none is.
    private(set) var inFlightSince: Double?
    /// How long a completion is waited for before the frame is taken as done.
    static let completionTimeout = 0.5
    private var warnedTimeout = false

    /// Whether SHM is in use (for tests and the ready line).
    var usesSHM: Bool { shmSegment != 0 }

    init(connection: XConnection, window: xcb_window_t, depth: UInt8, allowSHM: Bool) {
        x = connection
        self.window = window
        self.depth = depth
        gc = connection.newID()
        var values: [UInt32] = [0]  // graphics_exposures off
        xcb_create_gc(connection.raw, gc, window, XCB_GC_GRAPHICS_EXPOSURES.rawValue, &values)
        if allowSHM, let ext = gestures_shm_extension(connection.raw), ext.pointee.present != 0 {
            shmAvailable = true
        } else {
            shmAvailable = false
        }
    }

    /// True while a frame is in flight (its buffer must not be drawn into).
    var isBusy: Bool { inFlightSince != nil }

    /// When the wait for the frame in flight is given up: ``completionTimeout`` after a sync
    /// was asked for (nil when none was: nobody waits for the frame yet).
    var busyDeadline: Double? { syncSequence == nil ? nil : syncRequestedAt + Self.completionTimeout }

    /// Gives up waiting for a frame whose sync has not been answered in time at `now`.
    func expireCompletion(now: Double) {
        guard inFlightSince != nil, let deadline = busyDeadline, now >= deadline else { return }
        inFlightSince = nil
        dropSync()
        if !warnedTimeout {
            warnedTimeout = true
            writeStderr("gestures: warning: the X server did not confirm a frame within 0.5 s; drawing on")
        }
    }

    /// Notes that the server had processed every request up to `sequence` (an event's or a
    /// reply's full sequence number): the frame in flight is done once that covers its puts.
    func serverProcessed(through sequence: UInt32) {
        guard inFlightSince != nil, Int32(bitPattern: sequence &- inFlightSequence) >= 0 else { return }
        inFlightSince = nil
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

    /// Takes the reply of ``requestSync()`` if it has come (it confirms the frame).
    func checkSync() {
        guard let seq = syncSequence else { return }
        var reply: UnsafeMutableRawPointer?
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        guard xcb_poll_for_reply(x.raw, seq, &reply, &error) != 0 else { return }
        free(reply)
        free(error)
        syncSequence = nil
        inFlightSince = nil
    }

    /// Makes the back buffer `width`×`height` pixels; true when it was (re)allocated (its pixels
    /// are then undefined: draw everything).
    @discardableResult
    func resize(width w: Int, height h: Int) -> Bool {
        let w = max(1, w)
        let h = max(1, h)
        if surface != nil && w == width && h == height { return false }
        release()
        width = w
        height = h
        stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(w)))
        let bytes = stride * h
        if shmAvailable, let p = attachSHM(bytes: bytes) {
            data = p
        } else {
            data = malloc(bytes)
        }
        guard let data else {
            writeStderr("gestures: out of memory for a \(w)x\(h) window")
            exit(1)
        }
        surface = cairo_image_surface_create_for_data(
            data.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(w), Int32(h), Int32(stride))
        return true
    }

    /// A fresh segment of `bytes`, attached here and by the server (one round trip), already
    /// marked for removal; nil (and SHM off from now on) when the server cannot attach it.
    private func attachSHM(bytes: Int) -> UnsafeMutableRawPointer? {
        let id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
        guard id >= 0 else {
            shmAvailable = false
            return nil
        }
        guard let p = gestures_shm_attach(id) else {
            shmctl(id, IPC_RMID, nil)
            shmAvailable = false
            return nil
        }
        let seg = x.newID()
        let cookie = xcb_shm_attach_checked(x.raw, seg, UInt32(id), 0)
        x.flush()
        // While the server attaches it: fault the segment's pages in with one call
        // (MADV_POPULATE_WRITE, Linux 5.14; ignored where unknown) instead of one fault per
        // page when the first frame touches them.
        _ = madvise(p, bytes, 23)
        let error = xcb_request_check(x.raw, cookie)
        shmctl(id, IPC_RMID, nil)
        if let error {
            free(error)
            shmdt(p)
            shmAvailable = false
            return nil
        }
        x.exitIfBroken()
        shmSegment = seg
        return p
    }

    private func release() {
        if let s = surface { cairo_surface_destroy(s) }
        surface = nil
        guard let data else { return }
        if shmSegment != 0 {
            // The server handles requests in order: it is done with the segment when it detaches.
            xcb_shm_detach(x.raw, shmSegment)
            shmdt(data)
            shmSegment = 0
        } else {
            free(data)
        }
        self.data = nil
        inFlightSince = nil
        dropSync()
    }

    /// Frees the buffer and the GC.
    func close() {
        release()
        xcb_free_gc(x.raw, gc)
    }

    /// Uploads `rects` (clipped to the buffer) of the back buffer to the window; the caller
    /// flushes. With SHM the frame is in flight until its completion (`now` starts the wait).
    func present(_ rects: [PixelRect], now: Double) {
        guard surface != nil, let data else { return }
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        let clipped = rects.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        guard !clipped.isEmpty else { return }
        if shmSegment != 0 {
            for r in clipped {
                inFlightSequence =
                    xcb_shm_put_image(
                        x.raw, window, gc, UInt16(width), UInt16(height), UInt16(r.x), UInt16(r.y), UInt16(r.width),
                        UInt16(r.height), Int16(r.x), Int16(r.y), depth, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue),
                        0, shmSegment, 0
                    ).sequence
            }
            inFlightSince = now
            dropSync()
            return
        }
        for r in clipped { putImage(r, from: data) }
    }

    /// PutImage of `r` in bands of whole rows that fit a request.
    private func putImage(_ r: PixelRect, from data: UnsafeMutableRawPointer) {
        let rowBytes = r.width * 4
        let rowsPerBand = max(1, min(r.height, (min(x.maximumRequestBytes, 1 << 22) - 64) / rowBytes))
        if scratch.count < rowsPerBand * rowBytes { scratch = [UInt8](repeating: 0, count: rowsPerBand * rowBytes) }
        var y = r.y
        while y < r.y + r.height {
            let rows = min(rowsPerBand, r.y + r.height - y)
            scratch.withUnsafeMutableBytes { dst in
                for row in 0..<rows {
                    let src = data + (y + row) * stride + r.x * 4
                    (dst.baseAddress! + row * rowBytes).copyMemory(from: src, byteCount: rowBytes)
                }
                _ = xcb_put_image(
                    x.raw, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), window, gc, UInt16(r.width), UInt16(rows),
                    Int16(r.x), Int16(y), 0, depth, UInt32(rows * rowBytes), dst.baseAddress)
            }
            y += rows
        }
    }
}
