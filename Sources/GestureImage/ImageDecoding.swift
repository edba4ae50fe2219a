import CCairo
import CTurboJPEG

#if canImport(Glibc)
    import Glibc
#endif

/// PNG and JPEG bytes decoded into a Cairo image surface: the one decoder of the demo's picture
/// (`DemoImage`) and the library's `Image`. PNG is decoded by Cairo (libpng), JPEG by
/// libjpeg-turbo's TurboJPEG into an opaque surface; the format is told by the first bytes.
public enum ImageDecoding {
    /// The most pixels a picture may have (a 10000×10000 photo; 400 MB decoded): a larger one is
    /// refused before it is decoded. Cairo's own limit is 32767 pixels a side.
    public static let maximumPixels = 100_000_000

    /// A `cairo_surface_t *` (owned by the caller) holding the picture in `bytes`; throws one
    /// line (naming `path`) for anything but a whole PNG or JPEG within the size limits.
    public static func surface(_ bytes: [UInt8], path: String) throws(ImageDecodingError) -> OpaquePointer {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return try decodePNG(bytes, path: path)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            return try decodeJPEG(bytes, path: path)
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

    /// A JPEG, decoded by TurboJPEG straight into an opaque Cairo surface (BGRX in memory).
    static func decodeJPEG(_ bytes: [UInt8], path: String) throws(ImageDecodingError) -> OpaquePointer {
        guard let tj = tjInitDecompress() else {
            throw ImageDecodingError(path: path, reason: "cannot start the JPEG decoder")
        }
        defer { tjDestroy(tj) }
        func failure(_ what: String) -> ImageDecodingError {
            let detail = String(cString: tjGetErrorStr2(tj))
            return ImageDecodingError(path: path, reason: "\(what) (\(detail)); expected a whole PNG or JPEG image")
        }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(tj, $0.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw failure("the JPEG header is damaged") }
        guard width > 0, height > 0 else {
            throw ImageDecodingError(
                path: path, reason: "the JPEG is cut short (its header has no size); expected a whole PNG or JPEG image"
            )
        }
        try checkSize(width: Int(width), height: Int(height), format: "JPEG", path: path)
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height),
            cairo_surface_status(s) == CAIRO_STATUS_SUCCESS
        else { throw ImageDecodingError(path: path, reason: "out of memory for a \(width)×\(height) picture") }
        cairo_surface_flush(s)
        let stride = cairo_image_surface_get_stride(s)
        let pixelFormat = UInt32(1).littleEndian == 1 ? TJPF_BGRX : TJPF_XRGB
        let status = bytes.withUnsafeBufferPointer {
            tjDecompress2(
                tj, $0.baseAddress, UInt(bytes.count), cairo_image_surface_get_data(s), width, stride, height,
                Int32(pixelFormat.rawValue), 0)
        }
        // Warnings (a damaged but decodable stream) are accepted, except a file cut short: its
        // missing part would show as grey.
        if status != 0 {
            let message = String(cString: tjGetErrorStr2(tj))
            if tjGetErrorCode(tj) != Int32(TJERR_WARNING.rawValue) || message.contains("Premature end") {
                cairo_surface_destroy(s)
                throw failure(message.contains("Premature end") ? "the JPEG is cut short" : "the JPEG is damaged")
            }
        }
        cairo_surface_mark_dirty(s)
        return s
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
