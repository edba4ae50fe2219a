import CCairo
import CTurboJPEG

#if canImport(Glibc)
    import Glibc
#endif

/// PNG and JPEG bytes decoded into a Cairo image surface: the one decoder of the demo's picture
/// (`DemoImage`) and the library's `Image`. PNG is decoded by Cairo (libpng), JPEG by
/// libjpeg-turbo's TurboJPEG into an opaque surface (``JPEGPicture``: EXIF orientation applied,
/// CMYK and YCCK converted, a scan limit); the format is told by the first bytes.
public enum ImageDecoding {
    /// The most pixels a picture may have (a 10000×10000 photo; 400 MB decoded): a larger one is
    /// refused before it is decoded. Cairo's own limit is 32767 pixels a side.
    public static let maximumPixels = 100_000_000

    /// A `cairo_surface_t *` (owned by the caller) holding the picture in `bytes` at its full
    /// size, upright; throws one line (naming `path`) for anything but a whole PNG or JPEG within
    /// the size and scan limits.
    public static func surface(_ bytes: [UInt8], path: String) throws(ImageDecodingError) -> OpaquePointer {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return try decodePNG(bytes, path: path)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            return try JPEGPicture(bytes: bytes, path: path).decode(denominator: 1, path: path)
        }
        throw ImageDecodingError(path: path, reason: "expected a PNG or JPEG image; this file is neither")
    }

    /// A PNG from memory (Cairo reads it through a stream callback).
    public static func decodePNG(_ bytes: [UInt8], path: String) throws(ImageDecodingError) -> OpaquePointer {
        // The size, from the IHDR chunk that must come first, checked before Cairo allocates.
        if bytes.count >= 24 && bytes[12..<16].elementsEqual("IHDR".utf8) {
            let field = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            try checkSize(width: field(16), height: field(20), format: "PNG", path: path)
        }
        struct Source {
            var base: UnsafePointer<UInt8>
            var count: Int
            var offset = 0
        }
        let s: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var source = Source(base: buffer.baseAddress!, count: buffer.count)
            return withUnsafeMutablePointer(to: &source) { pointer in
                cairo_image_surface_create_from_png_stream(
                    { closure, data, length in
                        let source = closure!.assumingMemoryBound(to: Source.self)
                        let n = Int(length)
                        guard let data, source.pointee.offset + n <= source.pointee.count else {
                            return CAIRO_STATUS_READ_ERROR
                        }
                        memcpy(data, source.pointee.base + source.pointee.offset, n)
                        source.pointee.offset += n
                        return CAIRO_STATUS_SUCCESS
                    }, pointer)
            }
        }
        guard let s else { throw ImageDecodingError(path: path, reason: "cannot decode the PNG image") }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            // Cairo says "out of memory" for most libpng errors (a damaged file): not repeated.
            let why = status == CAIRO_STATUS_READ_ERROR ? "the PNG is cut short" : "the PNG is damaged or unsupported"
            throw ImageDecodingError(path: path, reason: why + "; expected a whole PNG or JPEG image")
        }
        return s
    }

    /// Refuses a picture over ``maximumPixels`` or 32767 pixels a side before it is decoded.
    public static func checkSize(width: Int, height: Int, format: String, path: String) throws(ImageDecodingError) {
        guard width > 32767 || height > 32767 || width * height > ImageDecoding.maximumPixels else { return }
        throw ImageDecodingError(
            path: path,
            reason: "the \(format) is \(width)×\(height) pixels; expected at most 32767 a side and 100 megapixels")
    }
}

/// A picture that could not be decoded: `description` is one line, `path: reason`.
public struct ImageDecodingError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}
