import CCairo
import GestureImage
import GestureKit
import GestureTrace

#if canImport(Glibc)
    import Glibc
#endif

/// A picture loaded once from a PNG or JPEG file into a Cairo image surface (UIKit: `UIImage`).
///
/// The format is told by the file's first bytes, not its name. PNG is decoded by Cairo (libpng),
/// JPEG by libjpeg-turbo's TurboJPEG into an opaque surface. Anything else — another format, a
/// text file, a directory, a PNG or JPEG cut short or damaged — is refused with one line that
/// names the file and says a PNG or JPEG was expected. Deviations from `UIImage`: no other formats,
/// and a JPEG's EXIF orientation is not applied (the pixels are shown as stored).
public final class DemoImage: @unchecked Sendable {
    /// The `cairo_surface_t *` holding the pixels.
    public let surface: OpaquePointer
    /// The size in pixels.
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
    public convenience init(path: String, renditions: [(factor: Double, path: String)] = []) throws(DemoImageError) {
        self.init(surface: try Self.decode(path), path: path, renditions: renditions)
    }

    private init(surface s: OpaquePointer, path: String, renditions: [(factor: Double, path: String)]) {
        self.renditions = renditions.sorted { $0.factor < $1.factor }
        surface = s
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

    /// A PNG or JPEG file, told by its first bytes, as a Cairo image surface.
    private static func decode(_ path: String) throws(DemoImageError) -> OpaquePointer {
        let bytes: [UInt8]
        do {
            bytes = try TraceReader.readFile(path)
        } catch {
            throw DemoImageError(path: path, reason: error.message + "; expected a PNG or JPEG image")
        }
        do {
            return try ImageDecoding.surface(bytes, path: path)
        } catch {
            throw DemoImageError(path: path, reason: error.reason)
        }
    }

    deinit {
        cairo_surface_destroy(surface)
    }

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
    @MainActor
    public func pixels(forScale scale: Double, load: Bool) -> (surface: OpaquePointer, width: Int, height: Int) {
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
}

/// A picture that could not be loaded: `description` is one line,
/// `notes.txt: expected a PNG or JPEG image; this file is neither`.
public struct DemoImageError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
