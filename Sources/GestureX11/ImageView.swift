import CCairo
import GestureImage
import GestureKit

#if canImport(Glibc)
    import Glibc
#endif

/// A picture decoded once from a PNG or JPEG file (told by its first bytes) into a Cairo image
/// surface. UIKit: `UIImage`. `Image(contentsOfFile:)` returns nil as UIKit's does;
/// ``init(path:)`` throws one line saying why. Decoding is thread-safe: load large pictures off
/// the main actor (the type is `Sendable`: immutable once made). JPEGs are decoded by
/// GestureImage's `JPEGPicture`, as the demo's picture is: a photo's EXIF orientation is applied
/// (``size`` is the size shown), CMYK and YCCK JPEGs are shown, and a JPEG of more than 100 scans
/// is refused before it is decoded. Deviation: decoded at full size (UIKit decodes lazily).
public final class Image: @unchecked Sendable {
    /// The `cairo_surface_t *`.
    public let surface: OpaquePointer
    /// The size in pixels (drawn one point per pixel at scale 1). UIKit: `size`.
    public let size: Size

    /// Reads and decodes `path` (a regular file of at most 256 MiB); throws one line otherwise.
    public init(path: String) throws(ImageDecodingError) {
        let bytes = try Self.readFile(path)
        surface = try ImageDecoding.surface(bytes, path: path)
        size = Size(
            width: Double(cairo_image_surface_get_width(surface)),
            height: Double(cairo_image_surface_get_height(surface)))
    }

    /// UIKit: `UIImage(contentsOfFile:)`.
    public convenience init?(contentsOfFile path: String) {
        do { try self.init(path: path) } catch { return nil }
    }

    deinit { cairo_surface_destroy(surface) }

    private static func readFile(_ path: String) throws(ImageDecodingError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ImageDecodingError(
                path: path, reason: String(cString: strerror(errno)) + "; expected a PNG or JPEG image")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw ImageDecodingError(path: path, reason: "not a regular file; expected a PNG or JPEG image")
        }
        guard st.st_size <= 256 << 20 else {
            throw ImageDecodingError(path: path, reason: "larger than 256 MiB; expected a PNG or JPEG image")
        }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        return Array(bytes[0..<done])
    }
}

/// How an ``ImageView`` places its picture in its bounds. UIKit: `UIView.ContentMode` (the
/// modes an image view uses; the others are not offered).
public enum ContentMode: Sendable {
    /// Stretched to the bounds (UIKit's default for image views).
    case scaleToFill
    /// As large as fits whole, centred (letterboxed).
    case scaleAspectFit
    /// As small as covers the bounds, centred (the overflow is clipped).
    case scaleAspectFill
    /// At its own size, centred.
    case center
}

/// A view that draws a picture. UIKit: `UIImageView`. `ImageView(image:)` takes the picture's
/// size as its frame, as UIKit's does. Deviation: `contentMode` lives here, not on every view.
open class ImageView: View {
    /// UIKit: `image`.
    public var image: Image? { didSet { if image !== oldValue { setNeedsDisplay() } } }
    /// UIKit: `contentMode` (default `.scaleToFill`).
    public var contentMode = ContentMode.scaleToFill { didSet { if contentMode != oldValue { setNeedsDisplay() } } }

    public override init(frame: Rect = .zero, name: String = "") {
        super.init(frame: frame, name: name)
    }

    /// UIKit: `init(image:)`: the frame is the picture's size at the origin.
    public init(image: Image?) {
        super.init(frame: Rect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
    }

    /// Where the picture goes in the bounds for ``contentMode``.
    public var imageRect: Rect {
        guard let image, image.size.width > 0, image.size.height > 0 else { return .zero }
        let b = bounds
        let sx = b.width / image.size.width
        let sy = b.height / image.size.height
        let size: Size
        switch contentMode {
        case .scaleToFill: return b
        case .scaleAspectFit:
            size = Size(width: image.size.width * min(sx, sy), height: image.size.height * min(sx, sy))
        case .scaleAspectFill:
            size = Size(width: image.size.width * max(sx, sy), height: image.size.height * max(sx, sy))
        case .center: size = image.size
        }
        return Rect(x: b.midX - size.width / 2, y: b.midY - size.height / 2, width: size.width, height: size.height)
    }

    open override func draw(_ rect: Rect, in context: GraphicsContext) {
        guard let image else { return }
        let r = imageRect
        guard r.width > 0, r.height > 0 else { return }
        let cr = context.cairo
        cairo_save(cr)
        cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
        cairo_clip(cr)
        cairo_translate(cr, r.minX, r.minY)
        cairo_scale(cr, r.width / image.size.width, r.height / image.size.height)
        cairo_set_source_surface(cr, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
