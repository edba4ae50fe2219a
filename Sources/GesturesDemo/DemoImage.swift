import CCairo
import Dispatch
import GestureImage
import GestureKit
import GestureTrace
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A picture loaded once from a PNG or JPEG file into a Cairo image surface (UIKit: `UIImage`).
///
/// The format is told by the file's first bytes, not its name. PNG is decoded by Cairo (libpng),
/// JPEG by GestureImage's ``JPEGPicture`` (libjpeg-turbo's TurboJPEG), the decoder the library's
/// `Image` uses. Anything else — another format, a text file, a directory, a PNG or JPEG cut
/// short or damaged — is refused with one line that names the file and says a PNG or JPEG was
/// expected. A JPEG's EXIF orientation is applied, CMYK and YCCK JPEGs are shown, a JPEG of too
/// many scans is refused, and a JPEG is decoded once, at the size it is shown.
/// Deviation from `UIImage`: no other formats.
///
/// **When a JPEG is decoded** (a 24-megapixel photo costs about 110 ms of CPU at 1/8, 150 ms at
/// 1/4 and 240 ms at full size, mostly the entropy decoding that every scale pays): loading reads
/// only its header and markers. The live window starts the decode on other threads before it
/// connects (``startDecoding(toFit:height:)``, for the size it asks for): the smallest of
/// libjpeg-turbo's 1/8, 1/4, 1/2 and full size that still covers the picture fitted whole into
/// its place in the window (``DemoLayout/image``), and beside it, when that is larger than 1/8, a 1/8 preview. Connected, it calls
/// ``prepareWithPreview(toFit:height:)`` with its size in device pixels and maps the window
/// without waiting: its first frames leave the picture's place empty until a decode is handed
/// over on the main queue (``onDecoded``), the preview when it ends first, which the window's
/// decode then replaces; every later frame draws from that decode until the picture is enlarged
/// past it. A pinch past that size is drawn from those pixels while it moves and decoded again,
/// larger, once it settles (``pixels(forScale:load:)`` with `load`) — on the decode thread, so
/// the loop goes on answering input, redrawing and pinging the watchdog meanwhile; the larger
/// pixels are drawn from the frame after they are ready, and let go when the picture is shown at
/// the window's size again. Replays and PNG output (no ``onDecoded``) decode when asked, on
/// the caller's thread, and never draw a preview.
public final class DemoImage: @unchecked Sendable {
    /// The `cairo_surface_t *` holding the pixels at full size. A JPEG is decoded at full size
    /// only when this is asked for (the window draws from ``pixels(forScale:load:)``, which
    /// decodes it at the size shown).
    public var surface: OpaquePointer {
        if let own { return own }
        if let zoomed, zoomed.denominator == 1 { return zoomed.surface }
        if let base, base.denominator == 1 { return base.surface }
        // If memory fails, the smaller pixels are better than none.
        if let jpeg, let s = try? jpeg.decode(denominator: 1, path: path) {
            own = s
            return s
        }
        return (zoomed ?? base)?.surface ?? Self.blank()
    }
    /// The own pixels at full size: a PNG's, or a JPEG's once ``surface`` was asked for.
    private var own: OpaquePointer?
    /// A JPEG, kept in memory to be decoded at the size it is shown.
    private let jpeg: JPEGPicture?
    /// The JPEG decoded for the window (``prepare(toFit:height:)``, else at the first drawn size).
    private var base: (denominator: Int, surface: OpaquePointer)?
    /// The JPEG decoded larger than `base`, while it is shown enlarged past it: one at a time.
    private var zoomed: (denominator: Int, surface: OpaquePointer)?
    /// A decode that failed is not tried again (the base's pixels are drawn).
    private var failedDenominators: Set<Int> = []
    /// The size in pixels (a JPEG's as shown, after its EXIF orientation).
    public let size: Size
    /// Where it was loaded from.
    public let path: String
    /// Larger renditions of the same picture, each with how many times larger than ``size`` it is
    /// (the bundled flower@2x.png and flower@4x.png), loaded only when first needed.
    public let renditions: [(factor: Double, path: String)]
    /// The rendition in use, if any: at most one is kept.
    private var current: (factor: Double, image: DemoImage)?
    private var unusable: Set<String> = []

    /// The most pixels a picture may have (a 10000×10000 photo; 400 MB decoded): a larger one is
    /// refused before it is decoded. Cairo's own limit is 32767 pixels a side.
    public static let maximumPixels = ImageDecoding.maximumPixels

    /// Loads `path`, a PNG or JPEG file (at most 256 MiB, a regular file); throws one line
    /// otherwise. `renditions` are not read now (see ``pixels(forScale:load:)``).
    ///
    /// A PNG is decoded now. A JPEG's header and markers are read now (a damaged header, a file
    /// cut short, too many scans or too many pixels are refused here); its pixels are decoded by
    /// ``prepare(toFit:height:)`` or the first draw, at the size shown.
    public init(path: String, renditions: [(factor: Double, path: String)] = []) throws(DemoImageError) {
        self.renditions = renditions.sorted { $0.factor < $1.factor }
        self.path = path
        // Mapped, not read: a big JPEG is decoded from the page cache where it lies (see
        // `MappedFile`: no copy to fault in, and a file changed meanwhile is refused).
        let file: MappedFile
        do throws(TraceError) {
            let (fd, count) = try TraceReader.openRegularFile(path)
            guard let mapped = MappedFile(fd: fd, size: count) else {
                throw TraceError(file: path, line: 0, message: "cannot read the file")
            }
            file = mapped
        } catch {
            throw DemoImageError(path: path, reason: error.message + "; expected a PNG or JPEG image")
        }
        let head = file.withBytes { Array($0.prefix(8)) }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            let s = try Self.decodePNG(file.withBytes { Array($0) }, path: path)
            own = s
            jpeg = nil
            size = Size(
                width: Double(cairo_image_surface_get_width(s)), height: Double(cairo_image_surface_get_height(s)))
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            let picture: JPEGPicture
            do { picture = try JPEGPicture(mapped: file, path: path) } catch { throw DemoImageError(error) }
            jpeg = picture
            size = Size(width: Double(picture.size.width), height: Double(picture.size.height))
        } else {
            throw DemoImageError(path: path, reason: "expected a PNG or JPEG image; this file is neither")
        }
    }

    /// The denominator of the decode for a window of `width`×`height` device pixels: the
    /// smallest decode whose pixels cover the picture where the window shows it, fitted whole
    /// into its place in the demo's layout (``DemoLayout/image``; 507×338 device pixels for a
    /// 3:2 photo in a 1024×768 window, so 1/8 of a 6000×4000 photo covers it).
    private func windowDenominator(_ width: Int, _ height: Int) -> Int? {
        guard jpeg != nil, width > 0, height > 0, size.width > 0, size.height > 0 else { return nil }
        let shown = DemoLayout(size: Size(width: Double(width), height: Double(height)), imageSize: size).image
        return JPEGPicture.denominator(forScale: min(shown.width / size.width, shown.height / size.height))
    }

    /// Starts decoding a JPEG on other threads for a window of about `width`×`height` device
    /// pixels, while the caller does something else (the live window connects to the X server
    /// meanwhile: its size in device pixels is known only then): the window's decode and, when
    /// that is larger than 1/8, the 1/8 preview beside it (see ``prepareWithPreview(toFit:height:)``).
    /// ``prepare(toFit:height:)`` takes the result when the size it is given needs the same
    /// decode, else it decodes again. Nothing for a PNG.
    public func startDecoding(toFit width: Int, height: Int) {
        guard let jpeg, pending == nil, base == nil, let denominator = windowDenominator(width, height) else { return }
        // The preview first: with two cores both run at once, and the preview ends first.
        let hook = decodeWillStart
        if denominator < 8 {
            preview = PendingDecode.start(jpeg, denominator: 8, path: path, willStart: hook)
        }
        pending = PendingDecode.start(jpeg, denominator: denominator, path: path, willStart: hook)
    }

    private var pending: PendingDecode?
    /// A decode started by ``startDecoding(toFit:height:)`` is running or waiting to be taken.
    var hasStartedDecoding: Bool { pending != nil }
    /// The 1/8 decode started beside ``pending``.
    private var preview: PendingDecode?
    /// The window's decode still running (see ``prepareWithPreview(toFit:height:)``): it replaces
    /// `base` on the main queue when done.
    var refining: PendingDecode?
    /// The larger decode asked for last (after a pinch past `base` settled), while shown enlarged;
    /// read by the decode thread too (a decode no longer wanted when its turn comes is skipped).
    let zoomWanted = Mutex<Int?>(nil)
    /// Larger decodes run here, one at a time, off the main thread (see ``onDecoded``).
    let zoomQueue = DispatchQueue(label: "gestures.picture-decode", qos: .userInitiated)
    /// Called on the decode thread before each decode made there starts (tests hold it).
    var decodeWillStart: (@Sendable (Int) -> Void)?

    /// Called on the main queue whenever a decode made off the main thread replaced the pixels
    /// drawn (the window's decode after its preview, a larger one after a pinch): the live
    /// window redraws the picture. While it is nil (replays, PNG output) a larger decode is made
    /// when it is asked for, on the caller's thread; once set, ``pixels(forScale:load:)`` only
    /// starts it on the decode thread and goes on drawing what it has (UIKit decodes images off
    /// the main thread too, e.g. `UIImage.prepareForDisplay(completionHandler:)`).
    @MainActor public var onDecoded: (@MainActor () -> Void)?

    /// Called instead of drawing a grey picture when the window's decode fails and no preview
    /// was drawn: the stream passed the header walk, but libjpeg refused its entropy data. The
    /// live window maps before the decode ends, so this is where bad input is still refused with
    /// one line (the `gestures` command exits with status 2); without it the picture is grey.
    @MainActor public var onDecodeFailed: (@MainActor (String) -> Void)?

    /// Waits for the 1/8 preview started beside the window's decode, if any, and lets it go.
    private func dropPreview() {
        guard let job = preview else { return }
        preview = nil
        job.group.wait()
        if case .success(let s) = job.result { cairo_surface_destroy(s) }
    }

    /// Waits for a decode started by ``startDecoding(toFit:height:)``, if any: its surface when it
    /// has `denominator` (or its error), else nil (a surface of another size is let go).
    private func takePending(_ denominator: Int) throws(DemoImageError) -> OpaquePointer? {
        dropPreview()
        guard let job = pending else { return nil }
        pending = nil
        job.group.wait()
        switch job.result {
        case .success(let s) where job.denominator == denominator: return s
        case .success(let s):
            cairo_surface_destroy(s)
            return nil
        case .failure(let error) where job.denominator == denominator: throw DemoImageError(error)
        case .failure, nil: return nil
        }
    }

    /// Decodes a JPEG for a window of `width`×`height` device pixels: at the smallest of 1/8, 1/4,
    /// 1/2 and full size whose pixels cover the picture fitted whole into its place in the window
    /// (see the type's notes), or takes that decode from ``startDecoding(toFit:height:)``; throws one line
    /// when the stream is damaged. Nothing for a PNG, or when that decode is already held.
    public func prepare(toFit width: Int, height: Int) throws(DemoImageError) {
        guard let jpeg, let denominator = windowDenominator(width, height) else { return }
        if let s = try takePending(denominator) {
            setBase(denominator, s)
            return
        }
        guard base?.denominator != denominator else { return }
        let s: OpaquePointer
        do { s = try jpeg.decode(denominator: denominator, path: path) } catch { throw DemoImageError(error) }
        setBase(denominator, s)
    }

    /// ``prepare(toFit:height:)`` for the live window, which does not wait for any decode: the
    /// window maps and its first frames are drawn while the decodes started by
    /// ``startDecoding(toFit:height:)`` run, and each is handed over on the main queue when it
    /// ends — between two frames, so a frame shows one picture whole — then ``onDecoded`` is
    /// called. The 1/8 preview, when there is one and it ends first, is drawn until the window's
    /// decode replaces it (a 24-megapixel photo's 1/8 decode is mostly its entropy decoding,
    /// which every scale pays: it is drawn about a third sooner than the 1/4 decode).
    ///
    /// Until the first of them arrives (``awaitingFirstDecode``) the window shows everything but
    /// the picture: the regions, the label and the window's background where the picture will
    /// be — never a picture half decoded, or decoded at another size on the main thread. The
    /// frame that shows it is drawn as soon as it arrives. A stream that the header walk
    /// accepted but whose decode fails (damage that libjpeg refuses rather than warns about, such
    /// as a progressive scan's bad parameters) is drawn as the preview when that decoded, else
    /// reported to ``onDecodeFailed`` (the `gestures` command: one line, status 2), else grey.
    /// When the size given needs
    /// another decode than the one started, as ``prepare(toFit:height:)``.
    public func prepareWithPreview(toFit width: Int, height: Int) throws(DemoImageError) {
        guard let job = pending, job.denominator == windowDenominator(width, height) else {
            return try prepare(toFit: width, height: height)
        }
        pending = nil
        refining = job
        if let previewJob = preview {
            preview = nil
            previewJob.group.notify(queue: .main) {
                MainActor.assumeIsolated { self.adoptPreview(previewJob, before: job) }
            }
        }
        job.group.notify(queue: .main) { MainActor.assumeIsolated { self.adoptWindowDecode(job) } }
    }

    /// True from ``prepareWithPreview(toFit:height:)`` until the first of its decodes is handed
    /// over: the renderer leaves the picture's place empty meanwhile.
    @MainActor var awaitingFirstDecode: Bool { base == nil && refining != nil }

    /// The size in pixels of the window's decode still running (as shown, after the EXIF
    /// orientation), while ``awaitingFirstDecode``.
    @MainActor var firstDecodeSize: (width: Int, height: Int)? {
        guard base == nil, let job = refining, let jpeg else { return nil }
        let d = job.denominator
        let (w, h) = ((jpeg.storedWidth + d - 1) / d, (jpeg.storedHeight + d - 1) / d)
        return jpeg.orientation >= 5 ? (h, w) : (w, h)
    }

    /// Asks the decode thread to make the picture's cached copy (`make`) right after the window's
    /// decode, while ``awaitingFirstDecode``: the renderer asks with the frame that leaves the
    /// picture's place empty, knowing where the picture will be drawn, and the frame after the
    /// hand-over takes the copy (``takePreparedCopy(for:)``) instead of making it on the main
    /// thread (10 ms of a 24-megapixel photo's start: its 1/8 decode resampled to its place).
    /// Nothing when the decode has ended meanwhile.
    @MainActor func makeCopyWhenDecoded(_ make: @escaping @Sendable (OpaquePointer) -> ScaledImageCache.Copy?) {
        guard base == nil else { return }
        refining?.makeCopyWhenDecoded(make)
    }

    /// The copy made on the decode thread for `surface` (see ``makeCopyWhenDecoded(_:)``), once:
    /// nil when there is none or it was made for other pixels (then it is let go).
    @MainActor func takePreparedCopy(for surface: OpaquePointer) -> ScaledImageCache.Copy? {
        guard let prepared = preparedCopy else { return nil }
        preparedCopy = nil
        guard prepared.source == surface else {
            cairo_surface_destroy(prepared.copy.surface)
            return nil
        }
        return prepared.copy
    }
    /// The window's decode's copy, made on the decode thread, until the renderer takes it.
    private var preparedCopy: (source: OpaquePointer, copy: ScaledImageCache.Copy)?

    /// Keeps the copy the decode thread made for `job`'s pixels `s`, for the next frame.
    private func keepCopy(of job: PendingDecode, for s: OpaquePointer) {
        guard let copy = job.copy else { return }
        job.copy = nil
        if let old = preparedCopy { cairo_surface_destroy(old.copy.surface) }
        preparedCopy = (s, copy)
    }

    /// The 1/8 preview, ended while the window's decode is still running and nothing is drawn
    /// yet, is drawn until that decode replaces it; otherwise it is let go.
    @MainActor private func adoptPreview(_ previewJob: PendingDecode, before job: PendingDecode) {
        guard refining === job, base == nil, case .success(let s) = previewJob.result else {
            return previewJob.discard()
        }
        previewJob.result = nil
        setBase(8, s)
        onDecoded?()
    }

    /// The window's decode, for a caller that draws without the main queue's hand-over: waited
    /// for here (the hand-over then finds it taken).
    @MainActor private func takeRefiningNow() {
        guard let job = refining, base == nil else { return }
        job.group.wait()
        refining = nil
        if case .success(let s) = job.result {
            job.result = nil
            setBase(job.denominator, s)
            keepCopy(of: job, for: s)
        } else {
            failedDenominators.insert(job.denominator)
        }
    }

    private func setBase(_ denominator: Int, _ s: OpaquePointer) {
        if let base { cairo_surface_destroy(base.surface) }
        base = (denominator, s)
    }

    /// The window's decode, ended, replaces the preview or the empty place.
    @MainActor private func adoptWindowDecode(_ job: PendingDecode) {
        guard refining === job else { return job.discard() }
        refining = nil
        guard case .success(let s) = job.result else {
            // The preview (the same stream), if it decoded, stays; else the picture is grey.
            failedDenominators.insert(job.denominator)
            if base == nil, let onDecodeFailed, case .failure(let error) = job.result {
                return onDecodeFailed(error.description)
            }
            if base == nil { base = (job.denominator, Self.blank()) }
            onDecoded?()
            return
        }
        job.result = nil
        setBase(job.denominator, s)
        keepCopy(of: job, for: s)
        onDecoded?()
    }

    /// A decode larger than `base`, asked for by ``pixels(forScale:load:)`` once the picture
    /// settled enlarged, on the decode thread; it replaces `zoomed` on the main queue if it is
    /// still wanted then. While the window's decode is still coming, nothing is asked for: its
    /// arrival redraws the picture, which asks again.
    @MainActor private func requestZoom(_ denominator: Int) {
        guard let jpeg, refining == nil, zoomWanted.withLock({ $0 }) != denominator else { return }
        zoomWanted.withLock { $0 = denominator }
        let job = PendingDecode.start(
            jpeg, denominator: denominator, path: path, on: zoomQueue, willStart: decodeWillStart,
            stillWanted: { [weak self] in self?.zoomWanted.withLock { $0 } == denominator })
        job.group.notify(queue: .main) { MainActor.assumeIsolated { self.adoptZoom(job) } }
    }

    @MainActor private func adoptZoom(_ job: PendingDecode) {
        let wanted = zoomWanted.withLock { $0 } == job.denominator
        switch job.result {
        case .success(let s) where wanted && base != nil:
            if let zoomed { cairo_surface_destroy(zoomed.surface) }
            zoomed = (job.denominator, s)
            onDecoded?()
        case .failure where wanted:
            failedDenominators.insert(job.denominator)
            zoomWanted.withLock { $0 = nil }
        default:
            job.discard()
        }
    }

    private init(surface s: OpaquePointer, path: String, renditions: [(factor: Double, path: String)]) {
        self.renditions = renditions.sorted { $0.factor < $1.factor }
        own = s
        jpeg = nil
        size = Size(
            width: Double(cairo_image_surface_get_width(s)),
            height: Double(cairo_image_surface_get_height(s)))
        self.path = path
    }

    /// The bundled picture `png`, taken from `pixels` — the same picture as Cairo holds it,
    /// written beside it by `scripts/make-flower.py` — when that file is whole and has the PNG's
    /// size; else decoded from `png` like any picture. Reading the pixels straight into the
    /// surface skips libpng (inflate, checksum, premultiplication): a quarter of the
    /// instructions from exec to the first frame. Not offered for `--image`: a user's picture
    /// is a PNG or JPEG, and a stale `.pixels` beside it would show something else.
    public static func bundled(
        png: String, pixels: String?, renditions: [(factor: Double, path: String)] = []
    ) throws(DemoImageError) -> DemoImage {
        if let pixels, let s = readPixels(pixels, sizeOf: png) {
            return DemoImage(surface: s, path: png, renditions: renditions)
        }
        return try DemoImage(path: png, renditions: renditions)
    }

    deinit {
        // (Decodes handed over on the main queue hold the picture until they are taken.)
        for job in [pending, preview].compactMap({ $0 }) {
            job.group.wait()
            job.discard()
        }
        if let preparedCopy { cairo_surface_destroy(preparedCopy.copy.surface) }
        if let own { cairo_surface_destroy(own) }
        if let base { cairo_surface_destroy(base.surface) }
        if let zoomed { cairo_surface_destroy(zoomed.surface) }
    }

    /// A 1×1 grey surface: what a JPEG whose every decode failed shows (never reached for a
    /// stream the loader accepted, short of memory).
    private static func blank() -> OpaquePointer {
        let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)!
        let cr = cairo_create(s)!
        cairo_set_source_rgb(cr, 0.5, 0.5, 0.5)
        cairo_paint(cr)
        cairo_destroy(cr)
        return s
    }

    /// Where the picture's visible pixels are, as fractions of ``size`` (0…1 from the top left):
    /// the box of its mostly opaque pixels (alpha ≥ ½) and an anchor, the mostly opaque pixel
    /// nearest to their centroid (the heart of the picture, not its transparent margin). Nil
    /// when the picture has no alpha channel (a JPEG), or has no mostly opaque pixel: then all
    /// of its box counts. Worked out from the own pixels on first use. Main actor only.
    @MainActor public var visibleRegion: VisibleRegion? {
        if let computedRegion { return computedRegion }
        guard jpeg == nil else { return nil }
        let region = VisibleRegion(surface: own ?? surface)
        computedRegion = .some(region)
        return region
    }
    private var computedRegion: VisibleRegion??

    /// How far past its own pixels a picture is enlarged before a larger rendition is used.
    public static let renditionThreshold = 1.25

    /// The pixels to draw when one pixel of this picture covers `scale` device pixels (UIKit
    /// picks `@2x`/`@3x` assets by the screen's scale once; here the drawn size decides, so a
    /// picture pinched larger or shown on a 4K screen is drawn from enough pixels to be crisp).
    ///
    /// Past ``renditionThreshold`` it is the smallest rendition at least `scale` times larger,
    /// else the largest; below it, the picture's own pixels (a rendition in use is then let go).
    /// A rendition not loaded yet is loaded only when `load` is true (the live window asks once the
    /// picture has settled, so a pinch in progress never waits for a decode); until then the
    /// rendition already in use, or the own pixels, are drawn. A rendition that cannot be loaded
    /// is not tried again. Main actor only, like all drawing (it changes the rendition in use).
    ///
    /// A JPEG has no renditions: it is drawn from the decode made for the window
    /// (``prepare(toFit:height:)``; without one, a decode at the first drawn size), and, once it
    /// is enlarged past that and `load` is true, from a larger decode at the smallest of 1/4, 1/2
    /// or its full size that has at least `scale` device pixels per pixel of its full size
    /// (``JPEGPicture/denominator(forScale:)``); that one is let go when it is shown at the
    /// window's decode again. With ``onDecoded`` set the larger decode is only started here, on
    /// the decode thread, and the pixels held are returned until it is ready.
    @MainActor
    public func pixels(forScale scale: Double, load: Bool) -> (surface: OpaquePointer, width: Int, height: Int) {
        if let jpeg {
            let wanted = JPEGPicture.denominator(forScale: scale)
            func sized(_ s: OpaquePointer) -> (OpaquePointer, Int, Int) {
                (s, Int(cairo_image_surface_get_width(s)), Int(cairo_image_surface_get_height(s)))
            }
            if base == nil { takeRefiningNow() }
            guard let base else {
                let s = (try? jpeg.decode(denominator: wanted, path: path)) ?? Self.blank()
                base = (wanted, s)
                return sized(s)
            }
            guard wanted < base.denominator else {
                if let zoomed { cairo_surface_destroy(zoomed.surface) }
                zoomed = nil
                zoomWanted.withLock { $0 = nil }
                return sized(base.surface)
            }
            if load, zoomed?.denominator != wanted, !failedDenominators.contains(wanted) {
                if wanted == 1, let own {
                    return sized(own)
                } else if onDecoded != nil {
                    requestZoom(wanted)
                } else if let s = try? jpeg.decode(denominator: wanted, path: path) {
                    if let zoomed { cairo_surface_destroy(zoomed.surface) }
                    zoomed = (wanted, s)
                } else {
                    failedDenominators.insert(wanted)
                }
            }
            return sized((zoomed ?? base).surface)
        }
        let own = (surface, Int(size.width), Int(size.height))
        guard scale > Self.renditionThreshold else {
            current = nil
            return own
        }
        while load {
            let usable = renditions.filter { !unusable.contains($0.path) }
            guard let wanted = usable.first(where: { $0.factor >= scale }) ?? usable.last,
                current?.factor != wanted.factor
            else { break }
            guard let image = try? DemoImage(path: wanted.path) else {
                unusable.insert(wanted.path)
                continue
            }
            current = (wanted.factor, image)
        }
        guard let current else { return own }
        return (current.image.surface, Int(current.image.size.width), Int(current.image.size.height))
    }

    /// A PNG from memory: GestureImage's decoder (the one the library's `Image` uses).
    private static func decodePNG(_ bytes: [UInt8], path: String) throws(DemoImageError) -> OpaquePointer {
        do { return try ImageDecoding.decodePNG(bytes, path: path) } catch { throw DemoImageError(error) }
    }
}

/// A picture that could not be loaded: `description` is one line,
/// `notes.txt: expected a PNG or JPEG image; this file is neither`.
public struct DemoImageError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    init(_ error: ImageDecodingError) { self.init(path: error.path, reason: error.reason) }
}
