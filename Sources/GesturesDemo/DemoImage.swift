import CCairo
import Dispatch
import GestureImage
import GestureKit
import GestureTrace

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
/// **When a JPEG is decoded** (a 24-megapixel photo costs about 130 ms of CPU at 1/4 and 200 ms
/// at full size, mostly the entropy decoding that every scale pays): loading reads only its
/// header and markers. The live window starts the decode on another thread before it connects
/// (``startDecoding(toFit:height:)``, for the size it asks for), then calls
/// ``prepare(toFit:height:)`` with its size in device pixels; the JPEG is decoded once, at the
/// smallest of libjpeg-turbo's 1/8, 1/4, 1/2 and full size that still covers the picture fitted
/// whole into the window, and every later frame draws from that decode until the picture is
/// enlarged past it. A pinch past that size is drawn from those pixels while it moves and decoded
/// again, larger, once it settles (``pixels(forScale:load:)`` with `load`): no decode delays a
/// frame while the fingers move, and a touch that comes during that decode waits for it. The
/// larger decode is let go when the picture is shown at the window's size again.
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
        let bytes: [UInt8]
        do {
            bytes = try TraceReader.readFile(path)
        } catch {
            throw DemoImageError(path: path, reason: error.message + "; expected a PNG or JPEG image")
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            let s = try Self.decodePNG(bytes, path: path)
            own = s
            jpeg = nil
            size = Size(
                width: Double(cairo_image_surface_get_width(s)), height: Double(cairo_image_surface_get_height(s)))
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            let picture: JPEGPicture
            do { picture = try JPEGPicture(bytes: bytes, path: path) } catch { throw DemoImageError(error) }
            jpeg = picture
            size = Size(width: Double(picture.size.width), height: Double(picture.size.height))
        } else {
            throw DemoImageError(path: path, reason: "expected a PNG or JPEG image; this file is neither")
        }
    }

    /// The denominator of the decode for a window of `width`×`height` device pixels: the
    /// smallest decode whose pixels cover the picture fitted whole into the window.
    private func windowDenominator(_ width: Int, _ height: Int) -> Int? {
        guard jpeg != nil, width > 0, height > 0, size.width > 0, size.height > 0 else { return nil }
        return JPEGPicture.denominator(forScale: min(Double(width) / size.width, Double(height) / size.height))
    }

    /// Starts decoding a JPEG on another thread for a window of about `width`×`height` device
    /// pixels, while the caller does something else (the live window connects to the X server
    /// meanwhile: its size in device pixels is known only then). ``prepare(toFit:height:)`` takes
    /// the result when the size it is given needs the same decode, else it decodes again.
    /// Nothing for a PNG.
    public func startDecoding(toFit width: Int, height: Int) {
        guard let jpeg, pending == nil, base == nil, let denominator = windowDenominator(width, height) else { return }
        let job = PendingDecode(denominator: denominator)
        let path = path
        DispatchQueue.global(qos: .userInitiated).async {
            do throws(ImageDecodingError) {
                job.result = .success(try jpeg.decode(denominator: denominator, path: path))
            } catch {
                job.result = .failure(error)
            }
            job.done.signal()
        }
        pending = job
    }

    /// A decode running on another thread: `result` is written before `done` is signalled and
    /// read only after waiting for it.
    private final class PendingDecode: @unchecked Sendable {
        let denominator: Int
        let done = DispatchSemaphore(value: 0)
        var result: Result<OpaquePointer, ImageDecodingError>?
        init(denominator: Int) { self.denominator = denominator }
    }
    private var pending: PendingDecode?

    /// Waits for a decode started by ``startDecoding(toFit:height:)``, if any: its surface when it
    /// has `denominator` (or its error), else nil (a surface of another size is let go).
    private func takePending(_ denominator: Int) throws(DemoImageError) -> OpaquePointer? {
        guard let job = pending else { return nil }
        pending = nil
        job.done.wait()
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
    /// 1/2 and full size whose pixels cover the picture fitted whole into the window (see the
    /// type's notes), or takes that decode from ``startDecoding(toFit:height:)``; throws one line
    /// when the stream is damaged. Nothing for a PNG, or when that decode is already held.
    public func prepare(toFit width: Int, height: Int) throws(DemoImageError) {
        guard let jpeg, let denominator = windowDenominator(width, height) else { return }
        if let s = try takePending(denominator) {
            if let base { cairo_surface_destroy(base.surface) }
            base = (denominator, s)
            return
        }
        guard base?.denominator != denominator else { return }
        let s: OpaquePointer
        do { s = try jpeg.decode(denominator: denominator, path: path) } catch { throw DemoImageError(error) }
        if let base { cairo_surface_destroy(base.surface) }
        base = (denominator, s)
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

    /// `flower.pixels` (format in `scripts/make-flower.py`): "GPIXARGB", width and height
    /// (little-endian 32-bit), then premultiplied 0xAARRGGBB pixels, little-endian, no padding.
    /// Nil unless it is whole and the PNG's IHDR names the same size (a picture replaced
    /// without its pixels is decoded instead), or on a big-endian machine.
    static func readPixels(_ path: String, sizeOf png: String) -> OpaquePointer? {
        guard UInt32(1).littleEndian == 1 else { return nil }
        // The first `count` bytes of `file`, and the file's size.
        func head(_ file: String, _ count: Int) -> (bytes: [UInt8], size: Int)? {
            var bytes = [UInt8](repeating: 0, count: count)
            let size = try? bytes.withUnsafeMutableBytes { try TraceReader.readRegion(file, offset: 0, into: $0) }
            return size.map { (bytes, $0) }
        }
        guard let (header, fileSize) = head(path, 16), let (ihdr, _) = head(png, 24),
            header[0..<8].elementsEqual("GPIXARGB".utf8), ihdr[12..<16].elementsEqual("IHDR".utf8)
        else { return nil }
        let little = { (at: Int) in header[at..<at + 4].reversed().reduce(0) { $0 << 8 | Int($1) } }
        let big = { (at: Int) in ihdr[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height) = (little(8), little(12))
        guard width == big(16), height == big(20), width > 0, height > 0, width <= 32767, height <= 32767,
            width * height <= maximumPixels, fileSize == 16 + width * height * 4,
            let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        else { return nil }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS,
            Int(cairo_image_surface_get_stride(s)) == width * 4, let data = cairo_image_surface_get_data(s)
        else {
            cairo_surface_destroy(s)
            return nil
        }
        cairo_surface_flush(s)
        let pixels = UnsafeMutableRawBufferPointer(start: data, count: width * height * 4)
        guard (try? TraceReader.readRegion(path, offset: 16, into: pixels)) != nil else {
            cairo_surface_destroy(s)
            return nil
        }
        cairo_surface_mark_dirty(s)
        return s
    }

    deinit {
        if let pending {
            pending.done.wait()
            if case .success(let s) = pending.result { cairo_surface_destroy(s) }
        }
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
    /// window's decode again.
    @MainActor
    public func pixels(forScale scale: Double, load: Bool) -> (surface: OpaquePointer, width: Int, height: Int) {
        if let jpeg {
            let wanted = JPEGPicture.denominator(forScale: scale)
            func sized(_ s: OpaquePointer) -> (OpaquePointer, Int, Int) {
                (s, Int(cairo_image_surface_get_width(s)), Int(cairo_image_surface_get_height(s)))
            }
            guard let base else {
                let s = (try? jpeg.decode(denominator: wanted, path: path)) ?? Self.blank()
                base = (wanted, s)
                return sized(s)
            }
            guard wanted < base.denominator else {
                if let zoomed { cairo_surface_destroy(zoomed.surface) }
                zoomed = nil
                return sized(base.surface)
            }
            if load, zoomed?.denominator != wanted, !failedDenominators.contains(wanted) {
                if wanted == 1, let own {
                    return sized(own)
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

/// The visible part of a picture with transparent margins, in fractions of its size.
public struct VisibleRegion: Equatable, Sendable {
    /// The box of the mostly opaque pixels.
    public var box: Rect
    /// A mostly opaque pixel's centre near the middle of them.
    public var anchor: Point

    public init(box: Rect, anchor: Point) {
        self.box = box
        self.anchor = anchor
    }

    /// From an ARGB32 Cairo surface: pixels with alpha ≥ 128. Nil for another format or none.
    init?(surface s: OpaquePointer) {
        guard cairo_image_surface_get_format(s) == CAIRO_FORMAT_ARGB32, let data = cairo_image_surface_get_data(s)
        else { return nil }
        cairo_surface_flush(s)
        let (w, h) = (Int(cairo_image_surface_get_width(s)), Int(cairo_image_surface_get_height(s)))
        let stride = Int(cairo_image_surface_get_stride(s))
        func opaque(_ x: Int, _ y: Int) -> Bool {
            UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self) >> 24 >= 128
        }
        var (minX, minY, maxX, maxY) = (w, h, -1, -1)
        var (sumX, sumY, count) = (0.0, 0.0, 0.0)
        for y in 0..<h {
            for x in 0..<w where opaque(x, y) {
                (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                sumX += Double(x)
                sumY += Double(y)
                count += 1
            }
        }
        guard count > 0, w > 0, h > 0 else { return nil }
        var (ax, ay) = (Int((sumX / count).rounded()), Int((sumY / count).rounded()))
        if !opaque(ax, ay) {
            var best = Int.max
            for y in minY...maxY {
                for x in minX...maxX where opaque(x, y) {
                    let d = (x - ax) * (x - ax) + (y - ay) * (y - ay)
                    if d < best { (best, ax, ay) = (d, x, y) }
                }
            }
        }
        let (fw, fh) = (Double(w), Double(h))
        box = Rect(
            x: Double(minX) / fw, y: Double(minY) / fh, width: Double(maxX + 1 - minX) / fw,
            height: Double(maxY + 1 - minY) / fh)
        anchor = Point(x: (Double(ax) + 0.5) / fw, y: (Double(ay) + 0.5) / fh)
    }
}
