import CXCB
import GestureKit
import GestureShellCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The scene's lowest layer resampled by the X server (the RENDER extension: pixman in Xvfb and
/// Xorg's software path, glamor on the GPU under Xorg and Xwayland), for the motion frames of an
/// enlarged picture (``ServerBackdrop``). Drawing such a frame in the client wrote every pixel
/// of the window (33 MB a frame at 3840×2160, 17 ms of CPU); here it is a few requests.
///
/// Server resources, made when the first such frame comes and freed at the next frame drawn by
/// the client (``release()``): they exist only while a picture moves enlarged.
/// - **source**: the picture (opaque, already over the background) in a depth-24 pixmap with a
///   one-pixel border of the background, uploaded once per ``ServerBackdrop/identity``, as a
///   Picture with filter `nearest` and repeat `Pad`: everything outside the picture samples the
///   border, so the background needs no fill of its own. Each frame sets its transform
///   (window pixel → source pixel, 16.16 fixed point).
/// - **overlay**: a depth-32 ARGB pixmap of the window's size holding what lies above the picture
///   (the scene's ``ShellScene/drawOverlay(into:overlay:showTouches:)``), drawn by Cairo in the
///   client only where it changed and uploaded by the ``Presenter``.
/// - **back**: a depth-24 pixmap of the window's size where the picture and the overlay are
///   blended (Src, then Over) for the parts of the frame the overlay can cover
///   (``ShellScene/overlayExtent``).
///
/// A frame: the overlay's parts composited in the back pixmap first; then the picture straight
/// into the window outside them (a clip list); then the blended parts copied to the window. No
/// state of the window shows the new picture without what lies over it.
///
/// Pixels: pixman's nearest filter, which ``NearestPainter`` (the client path) follows, except
/// that the server's transform is 16.16 fixed point: a pixel whose centre falls within a few
/// thousandths of a source pixel's edge can take the neighbour (`RenderBackdropTests` counts
/// them). The overlay is blended in two steps (over transparent, then over the picture) instead
/// of straight onto the picture: a channel may differ by 1–2 where it is translucent.
///
/// Used only when the server has RENDER 0.10 (Pad) and the formats below, on a depth-24 screen.
/// The server is asked at start-up, before the loop (nothing in the loop waits for a reply), in
/// steps that add no round trip of their own: ``ask(_:_:)`` sends the QueryExtension requests
/// (DRI3's, RENDER's) before the atoms' round trip, ``askFormats(_:_:)`` sends RENDER's version
/// and formats requests once that has brought the answers (the RENDER requests need its opcode),
/// and ``init(connection:window:asked:)`` takes their replies, which the round trips between
/// (the window manager's property, XInput's version) have brought by then. Where no round trip
/// comes between, a step waits for its reply instead: the same answers, one round trip later.
@MainActor
final class RenderBackdrop {
    private let x: XConnection
    private let window: xcb_window_t
    /// x8r8g8b8 (depth 24: the window, the source and back pixmaps) and a8r8g8b8 (depth 32: the overlay).
    private let rgbFormat: xcb_render_pictformat_t
    private let argbFormat: xcb_render_pictformat_t
    private let windowPicture: xcb_render_picture_t

    private struct Source {
        let pixmap: xcb_pixmap_t
        let picture: xcb_render_picture_t
        let identity: UInt64
    }
    private struct Layers {
        let width: Int
        let height: Int
        let back: xcb_pixmap_t
        let backPicture: xcb_render_picture_t
        let overlay: xcb_pixmap_t
        let overlayPicture: xcb_render_picture_t
        let overlayGC: xcb_gcontext_t
    }
    private var source: Source?
    private var layers: Layers?
    private let gc: xcb_gcontext_t
    /// Whether the overlay pixmap holds what lies above the picture in every part of the extent
    /// (false when it is new, and after a frame the client drew whole: the scene's overlay
    /// damage is counted from its last draw).
    private(set) var overlayCurrent = false

    /// RENDER's version and formats requests in flight (``askFormats(_:_:)``).
    struct Asked {
        fileprivate let version: xcb_render_query_version_cookie_t
        fileprivate let formats: xcb_render_query_pict_formats_cookie_t
    }

    /// Start-up, first step: sends the QueryExtension requests `mode` needs (DRI3's for `auto`,
    /// RENDER's) and returns at once. Nothing for `never` or a screen that is not 24 bits deep.
    static func ask(_ mode: ServerResampling, _ connection: XConnection) {
        guard mode != .never, connection.rootDepth == 24 else { return }
        if mode == .auto { connection.askExtension("DRI3") }
        connection.askRenderExtension()
    }

    /// Start-up, second step: when frames should go through RENDER in `mode` and the server has
    /// it, sends RENDER's version and formats requests and returns at once (the answers to
    /// ``ask(_:_:)`` are read here: in hand after a round trip). Nil otherwise.
    static func askFormats(_ mode: ServerResampling, _ connection: XConnection) -> Asked? {
        guard connection.rootDepth == 24, wanted(mode, connection),
            let ext = gestures_render_extension(connection.raw), ext.pointee.present != 0
        else { return nil }
        let c = connection.raw
        return Asked(version: xcb_render_query_version(c, 0, 11), formats: xcb_render_query_pict_formats(c))
    }

    /// Whether frames should go through RENDER at all in `mode` (``ServerResampling``): for
    /// `auto`, whether the server has DRI3 (the answer to ``ask(_:_:)``'s question).
    static func wanted(_ mode: ServerResampling, _ connection: XConnection) -> Bool {
        switch mode {
        case .never: return false
        case .always: return true
        case .auto: return connection.hasExtension("DRI3")
        }
    }

    /// Start-up, last step: takes the replies to `asked` (``askFormats(_:_:)``); nil when the
    /// server's RENDER is older than 0.10 or lacks the formats.
    init?(connection: XConnection, window: xcb_window_t, asked: Asked) {
        let c = connection.raw
        var major: UInt32 = 0
        var minor: UInt32 = 0
        if let v = xcb_render_query_version_reply(c, asked.version, nil) {
            major = v.pointee.major_version
            minor = v.pointee.minor_version
            free(v)
        }
        guard let reply = xcb_render_query_pict_formats_reply(c, asked.formats, nil) else { return nil }
        let formats = XConnection.withReply(UnsafeMutableRawPointer(reply)) { Self.formats(in: $0) }
        guard major > 0 || minor >= 10, let rgb = formats.rgb, let argb = formats.argb else { return nil }
        x = connection
        self.window = window
        rgbFormat = rgb
        argbFormat = argb
        windowPicture = connection.newID()
        xcb_render_create_picture(c, windowPicture, window, rgb, 0, nil)
        gc = connection.newID()
        var values: [UInt32] = [0]  // graphics_exposures off
        xcb_create_gc(c, gc, window, XCB_GC_GRAPHICS_EXPOSURES.rawValue, &values)
    }

    /// The x8r8g8b8 and a8r8g8b8 formats of a QueryPictFormats reply (its bytes, within their
    /// stated length).
    nonisolated static func formats(in bytes: UnsafeRawBufferPointer) -> (rgb: UInt32?, argb: UInt32?) {
        guard bytes.count >= 32 else { return (nil, nil) }
        let count = Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        var rgb: UInt32?
        var argb: UInt32?
        for i in 0..<count {
            let at = 32 + i * 28
            guard at + 28 <= bytes.count else { break }
            func u16(_ o: Int) -> UInt16 { bytes.loadUnaligned(fromByteOffset: at + o, as: UInt16.self) }
            let id = bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)
            let type = bytes[at + 4]
            let depth = bytes[at + 5]
            // direct: red shift, mask, green shift, mask, blue shift, mask, alpha shift, mask.
            guard type == UInt8(XCB_RENDER_PICT_TYPE_DIRECT.rawValue), u16(8) == 16, u16(10) == 0xFF,
                u16(12) == 8, u16(14) == 0xFF, u16(16) == 0, u16(18) == 0xFF
            else { continue }
            if depth == 24 && u16(22) == 0 && rgb == nil { rgb = id }
            if depth == 32 && u16(20) == 24 && u16(22) == 0xFF && argb == nil { argb = id }
        }
        return (rgb, argb)
    }

    /// The overlay pixmap for a window of `width`×`height` pixels (made, with the back pixmap,
    /// when there is none of that size): where the presenter uploads what lies above the picture.
    func overlayTarget(width: Int, height: Int) -> Presenter.Target {
        if let l = layers, l.width != width || l.height != height { releaseLayers() }
        if layers == nil {
            let c = x.raw
            let w = UInt16(clamping: width)
            let h = UInt16(clamping: height)
            let back = x.newID()
            xcb_create_pixmap(c, 24, back, window, w, h)
            let backPicture = x.newID()
            xcb_render_create_picture(c, backPicture, back, rgbFormat, 0, nil)
            let overlay = x.newID()
            xcb_create_pixmap(c, 32, overlay, window, w, h)
            let overlayPicture = x.newID()
            xcb_render_create_picture(c, overlayPicture, overlay, argbFormat, 0, nil)
            let overlayGC = x.newID()
            var values: [UInt32] = [0]
            xcb_create_gc(c, overlayGC, overlay, XCB_GC_GRAPHICS_EXPOSURES.rawValue, &values)
            layers = Layers(
                width: width, height: height, back: back, backPicture: backPicture, overlay: overlay,
                overlayPicture: overlayPicture, overlayGC: overlayGC)
            overlayCurrent = false
        }
        let l = layers!
        return Presenter.Target(drawable: l.overlay, depth: 32, gc: l.overlayGC, argb: true)
    }

    /// The overlay now holds what lies above the picture over the whole extent.
    func overlayUploaded() { overlayCurrent = true }

    /// Window pixel → source pixmap pixel for `b` in RENDER's 16.16 fixed point (the border moves
    /// the picture by one pixel); nil when the matrix cannot be inverted or its entries do not
    /// fit (a transform no gesture makes: the client draws the frame).
    nonisolated static func transform(for b: ServerBackdrop) -> xcb_render_transform_t? {
        let det = b.xx * b.yy - b.xy * b.yx
        guard det != 0, det.isFinite else { return nil }
        let ia = b.yy / det
        let ib = -b.yx / det
        let ic = -b.xy / det
        let id = b.xx / det
        let itx = -(ia * b.x0 + ic * b.y0) + 1
        let ity = -(ib * b.x0 + id * b.y0) + 1
        var fixed: [Int32] = []
        for v in [ia, ic, itx, ib, id, ity] {
            let f = (v * 65536).rounded()
            guard f.isFinite, abs(f) < 2_000_000_000 else { return nil }
            fixed.append(Int32(f))
        }
        return xcb_render_transform_t(
            matrix11: fixed[0], matrix12: fixed[1], matrix13: fixed[2], matrix21: fixed[3], matrix22: fixed[4],
            matrix23: fixed[5], matrix31: 0, matrix32: 0, matrix33: 65536)
    }

    /// Whether `b` fits a pixmap (at most 32765 pixels a side with its border).
    nonisolated static func fits(_ b: ServerBackdrop) -> Bool {
        b.width > 0 && b.height > 0 && b.width <= 32765 && b.height <= 32765 && b.stride >= b.width * 4
    }

    /// Uploads `b`'s pixels unless they are the ones uploaded last.
    private func upload(_ b: ServerBackdrop) -> xcb_render_picture_t {
        if let s = source, s.identity == b.identity { return s.picture }
        releaseSource()
        let c = x.raw
        let pixmap = x.newID()
        xcb_create_pixmap(c, 24, pixmap, window, UInt16(b.width + 2), UInt16(b.height + 2))
        var values: [UInt32] = [b.background & 0xFF_FFFF]
        xcb_change_gc(c, gc, XCB_GC_FOREGROUND.rawValue, &values)
        var all = xcb_rectangle_t(x: 0, y: 0, width: UInt16(b.width + 2), height: UInt16(b.height + 2))
        xcb_poly_fill_rectangle(c, pixmap, gc, 1, &all)
        // Bands of whole rows that fit a request (rows `stride` bytes apart are sent as they are
        // when the stride is the width; else row by row).
        let rowBytes = b.width * 4
        let rowsPerBand = b.stride == rowBytes ? max(1, (min(x.maximumRequestBytes, 1 << 22) - 64) / rowBytes) : 1
        var y = 0
        while y < b.height {
            let rows = min(rowsPerBand, b.height - y)
            xcb_put_image(
                c, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), pixmap, gc, UInt16(b.width), UInt16(rows), 1,
                Int16(clamping: y + 1), 0, 24, UInt32(rows * rowBytes),
                (b.pixels + y * b.stride).assumingMemoryBound(to: UInt8.self))
            y += rows
        }
        let picture = x.newID()
        var repeatPad: [UInt32] = [UInt32(XCB_RENDER_REPEAT_PAD.rawValue)]
        xcb_render_create_picture(c, picture, pixmap, rgbFormat, XCB_RENDER_CP_REPEAT.rawValue, &repeatPad)
        let filter = "nearest"
        xcb_render_set_picture_filter(c, picture, UInt16(filter.utf8.count), filter, 0, nil)
        source = Source(pixmap: pixmap, picture: picture, identity: b.identity)
        return picture
    }

    /// Sends the frame: `damage` (window pixels) shows `b` under `transform`, with the overlay over
    /// it where `extent` (window pixels, not overlapping) lies. Returns the last request's
    /// sequence number. ``overlayTarget(width:height:)`` must have been called for this frame.
    func compose(
        _ b: ServerBackdrop, transform: xcb_render_transform_t, damage: [PixelRect], extent: [PixelRect]
    ) -> UInt32 {
        let c = x.raw
        let picture = upload(b)
        xcb_render_set_picture_transform(c, picture, transform)
        guard let l = layers else { return 0 }
        let src = UInt8(XCB_RENDER_PICT_OP_SRC.rawValue)
        let over = UInt8(XCB_RENDER_PICT_OP_OVER.rawValue)
        var blended: [PixelRect] = []
        var outside: [PixelRect] = []
        for d in damage {
            for e in extent {
                let r = d.intersection(e)
                if !r.isEmpty { blended.append(r) }
            }
            outside += Self.subtract(extent, from: d)
        }
        func composite(_ op: UInt8, _ from: xcb_render_picture_t, _ to: xcb_render_picture_t, _ r: PixelRect) {
            xcb_render_composite(
                c, op, from, 0, to, Int16(clamping: r.x), Int16(clamping: r.y), 0, 0, Int16(clamping: r.x),
                Int16(clamping: r.y), UInt16(clamping: r.width), UInt16(clamping: r.height))
        }
        for r in blended {
            composite(src, picture, l.backPicture, r)
            composite(over, l.overlayPicture, l.backPicture, r)
        }
        var sequence: UInt32 = 0
        if !outside.isEmpty {
            let clip = outside.map {
                xcb_rectangle_t(
                    x: Int16(clamping: $0.x), y: Int16(clamping: $0.y), width: UInt16(clamping: $0.width),
                    height: UInt16(clamping: $0.height))
            }
            xcb_render_set_picture_clip_rectangles(c, windowPicture, 0, 0, UInt32(clip.count), clip)
            let box = outside.dropFirst().reduce(outside[0]) { $0.union($1) }
            sequence =
                xcb_render_composite(
                    c, src, picture, 0, windowPicture, Int16(clamping: box.x), Int16(clamping: box.y), 0, 0,
                    Int16(clamping: box.x), Int16(clamping: box.y), UInt16(clamping: box.width),
                    UInt16(clamping: box.height)
                ).sequence
        }
        for r in blended {
            sequence =
                xcb_copy_area(
                    c, l.back, window, gc, Int16(clamping: r.x), Int16(clamping: r.y), Int16(clamping: r.x),
                    Int16(clamping: r.y), UInt16(clamping: r.width), UInt16(clamping: r.height)
                ).sequence
        }
        return sequence
    }

    /// `r` without the parts any of `holes` covers: at most four pieces per hole.
    nonisolated static func subtract(_ holes: [PixelRect], from r: PixelRect) -> [PixelRect] {
        var pieces = [r]
        for h in holes {
            var next: [PixelRect] = []
            for p in pieces {
                let i = p.intersection(h)
                guard !i.isEmpty else {
                    next.append(p)
                    continue
                }
                let top = PixelRect(x: p.x, y: p.y, width: p.width, height: i.y - p.y)
                let bottom = PixelRect(
                    x: p.x, y: i.y + i.height, width: p.width, height: p.y + p.height - i.y - i.height)
                let left = PixelRect(x: p.x, y: i.y, width: i.x - p.x, height: i.height)
                let right = PixelRect(x: i.x + i.width, y: i.y, width: p.x + p.width - i.x - i.width, height: i.height)
                next += [top, bottom, left, right].filter { !$0.isEmpty }
            }
            pieces = next
        }
        return pieces
    }

    /// Whether any server resource of a moving picture is held.
    var isHolding: Bool { source != nil || layers != nil }

    /// Frees the pixmaps (the next frame is the client's).
    func release() {
        releaseSource()
        releaseLayers()
    }

    private func releaseSource() {
        guard let s = source else { return }
        xcb_render_free_picture(x.raw, s.picture)
        xcb_free_pixmap(x.raw, s.pixmap)
        source = nil
    }

    private func releaseLayers() {
        guard let l = layers else { return }
        xcb_render_free_picture(x.raw, l.backPicture)
        xcb_render_free_picture(x.raw, l.overlayPicture)
        xcb_free_gc(x.raw, l.overlayGC)
        xcb_free_pixmap(x.raw, l.back)
        xcb_free_pixmap(x.raw, l.overlay)
        layers = nil
        overlayCurrent = false
    }

    /// Frees everything, the window's picture and the GC included (the window is going).
    func close() {
        release()
        xcb_render_free_picture(x.raw, windowPicture)
        xcb_free_gc(x.raw, gc)
    }
}
