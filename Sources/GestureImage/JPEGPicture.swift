import CCairo
import CTurboJPEG

#if canImport(Glibc)
    import Glibc
#endif

/// A JPEG file held in memory and decoded by libjpeg-turbo's TurboJPEG at the size it is shown:
/// the one JPEG decoder of the library's `Image` (through ``ImageDecoding``, at full size) and
/// the demo's picture (at the size it is drawn).
///
/// Reading it (``init(bytes:path:)``) decodes no pixel: the header, the markers and the scan count
/// are read, and a file cut short is refused then.
///
/// - **Scaled decoding**: libjpeg-turbo scales by 1/2, 1/4 and 1/8 while decoding (its reduced
///   inverse DCTs), so a picture shown small never costs a full-size decode nor its memory. The
///   denominator is the largest of 8, 4, 2, 1 whose decoded size is still at least the drawn size
///   in device pixels (``denominator(forScale:)``).
/// - **EXIF orientation** (tag 0x0112 of the APP1 `Exif` IFD0, all eight values) is applied after
///   decoding: libjpeg-turbo does not. ``size`` is the size as shown (width and height swapped
///   for orientations 5–8). A missing, damaged or out-of-range tag means 1 (as stored).
/// - **CMYK and YCCK** JPEGs are decoded to CMYK and converted to RGB with the naive
///   R = (1 − C)(1 − K) rule (no colour management). With an Adobe APP14 marker (Photoshop, and
///   libjpeg itself, write one with every CMYK JPEG) the stored values are inverted, as Photoshop
///   writes them; without one they are taken as stored.
/// - **Scan limit**: a JPEG of more than ``maximumScans`` scans is refused before it is decoded
///   (and TurboJPEG's `TJFLAG_LIMITSCANS` stops at 500): a few kilobytes can hold 100 000 scans,
///   each of which makes the decoder walk the whole picture again, which froze the app for
///   minutes.
public struct JPEGPicture: Sendable {
    /// The file's bytes: in memory, or the file mapped (``MappedFile``).
    enum Bytes: @unchecked Sendable {
        case array([UInt8])
        case mapped(MappedFile)

        func with<R>(_ body: (UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) -> R) throws(ImageDecodingError)
            -> R
        {
            switch self {
            case .array(let a):
                return try a.withUnsafeBufferPointer { buffer throws(ImageDecodingError) in try body(buffer) }
            case .mapped(let m):
                return try body(UnsafeBufferPointer(start: m.base, count: m.count))
            }
        }

        /// The mapped file changed under it (see ``MappedFile/changed``).
        var changed: Bool {
            if case .mapped(let m) = self { return m.changed }
            return false
        }
    }
    let bytes: Bytes
    /// The size as stored in the file, before orientation.
    public let storedWidth: Int
    public let storedHeight: Int
    let colorspace: Int32
    /// EXIF orientation, 1...8.
    public let orientation: Int
    /// An Adobe APP14 marker is present (CMYK values are stored inverted).
    let adobe: Bool

    /// The size as shown, after orientation.
    public var size: (width: Int, height: Int) {
        orientation >= 5 ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
    }

    /// The decoding denominators libjpeg-turbo offers that are used here, largest first.
    public static let denominators = [8, 4, 2, 1]

    /// The largest denominator (smallest decode) whose pixels are at least `scale` device pixels
    /// per picture pixel of the full size: `scale` ≤ 1/8 → 8, ≤ 1/4 → 4, ≤ 1/2 → 2, else 1.
    public static func denominator(forScale scale: Double) -> Int {
        denominators.first { 1 / Double($0) >= scale - 1e-9 } ?? 1
    }

    /// Reads the header, orientation and markers; throws one line when the header is damaged or
    /// the picture too large.
    public init(bytes: [UInt8], path: String) throws(ImageDecodingError) {
        try self.init(.array(bytes), path: path)
    }

    /// As ``init(bytes:path:)``, from a file mapped into memory: the bytes are read from the page
    /// cache where they are (no copy), and every decode checks that the file is still the one
    /// mapped (a file cut short or rewritten meanwhile is refused, never decoded as another
    /// picture nor crashing the reader).
    public init(mapped file: MappedFile, path: String) throws(ImageDecodingError) {
        try self.init(.mapped(file), path: path)
    }

    private init(_ bytes: Bytes, path: String) throws(ImageDecodingError) {
        guard let tj = tjInitDecompress() else {
            throw ImageDecodingError(path: path, reason: "cannot start the JPEG decoder")
        }
        defer { tjDestroy(tj) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let header = try bytes.with {
            tjDecompressHeader3(tj, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else {
            let detail = String(cString: tjGetErrorStr2(tj))
            throw ImageDecodingError(
                path: path, reason: "the JPEG header is damaged (\(detail)); expected a whole PNG or JPEG image")
        }
        guard width > 0, height > 0 else {
            throw ImageDecodingError(
                path: path, reason: "the JPEG is cut short (its header has no size); expected a whole PNG or JPEG image"
            )
        }
        try ImageDecoding.checkSize(width: Int(width), height: Int(height), format: "JPEG", path: path)
        self.bytes = bytes
        storedWidth = Int(width)
        storedHeight = Int(height)
        self.colorspace = colorspace
        let markers = try bytes.with { Self.markers($0) }
        guard markers.scans <= Self.maximumScans else {
            throw ImageDecodingError(
                path: path,
                reason:
                    "the JPEG has \(markers.scans) scans, more than \(Self.maximumScans) (each would decode the whole picture again); expected an ordinary PNG or JPEG image"
            )
        }
        // A stream that ends before its EOI marker: libjpeg would fill the rest with grey and
        // warn "Premature end of JPEG file"; found by the walk, before anything is decoded.
        if bytes.changed { throw Self.changedError(path) }
        guard markers.complete else {
            throw ImageDecodingError(
                path: path,
                reason: "the JPEG is cut short (Premature end of JPEG file); expected a whole PNG or JPEG image")
        }
        orientation = markers.orientation
        adobe = markers.adobe
    }

    public var isCMYK: Bool { colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) }

    /// The picture decoded at 1/`denominator` of its size and oriented, as an opaque Cairo surface
    /// (`cairo_surface_t *`, owned by the caller); throws one line when the stream is damaged.
    public func decode(denominator: Int, path: String) throws(ImageDecodingError) -> OpaquePointer {
        guard let tj = tjInitDecompress() else {
            throw ImageDecodingError(path: path, reason: "cannot start the JPEG decoder")
        }
        defer { tjDestroy(tj) }
        if bytes.changed { throw Self.changedError(path) }
        // TJSCALED: the size rounded up.
        let width = (storedWidth + denominator - 1) / denominator
        let height = (storedHeight + denominator - 1) / denominator
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
            cairo_surface_status(s) == CAIRO_STATUS_SUCCESS
        else { throw ImageDecodingError(path: path, reason: "out of memory for a \(width)×\(height) picture") }
        cairo_surface_flush(s)
        let stride = Int(cairo_image_surface_get_stride(s))
        let data = cairo_image_surface_get_data(s)!
        let flags = Int32(TJFLAG_LIMITSCANS)
        let status: Int32
        if isCMYK {
            // Decoded to CMYK beside the surface, then converted in place of it.
            var cmyk = [UInt8](repeating: 0, count: width * height * 4)
            status = try bytes.with { source in
                cmyk.withUnsafeMutableBufferPointer {
                    tjDecompress2(
                        tj, source.baseAddress, UInt(source.count), $0.baseAddress, Int32(width), Int32(width * 4),
                        Int32(height), Int32(TJPF_CMYK.rawValue), flags)
                }
            }
            if status == 0 || tjGetErrorCode(tj) == Int32(TJERR_WARNING.rawValue) {
                Self.convertCMYK(cmyk, width: width, height: height, inverted: adobe, into: data, stride: stride)
            }
        } else {
            let pixelFormat = UInt32(1).littleEndian == 1 ? TJPF_BGRX : TJPF_XRGB
            status = try bytes.with {
                tjDecompress2(
                    tj, $0.baseAddress, UInt($0.count), data, Int32(width), Int32(stride), Int32(height),
                    Int32(pixelFormat.rawValue), flags)
            }
        }
        // Warnings (a damaged but decodable stream) are accepted, except a file cut short: its
        // missing part would show as grey.
        if status != 0 {
            let message = String(cString: tjGetErrorStr2(tj))
            if tjGetErrorCode(tj) != Int32(TJERR_WARNING.rawValue) || message.contains("Premature end") {
                cairo_surface_destroy(s)
                let what =
                    message.contains("Premature end")
                    ? "the JPEG is cut short"
                    : message.contains("scans") ? "the JPEG has too many scans (more than 500)" : "the JPEG is damaged"
                throw ImageDecodingError(path: path, reason: "\(what) (\(message)); expected a whole PNG or JPEG image")
            }
        }
        // A mapped file cut short or rewritten while it was decoded: what was decoded is not it.
        if bytes.changed {
            cairo_surface_destroy(s)
            throw Self.changedError(path)
        }
        cairo_surface_mark_dirty(s)
        guard orientation != 1 else { return s }
        defer { cairo_surface_destroy(s) }
        return try Self.orient(s, width: width, height: height, orientation: orientation, path: path)
    }

    static func changedError(_ path: String) -> ImageDecodingError {
        ImageDecodingError(
            path: path,
            reason: "the file changed while it was read (cut short or rewritten); expected a whole PNG or JPEG image")
    }

    /// CMYK (4 bytes a pixel) to Cairo's RGB24: R = (1 − C)(1 − K); inverted values hold 1 − C.
    static func convertCMYK(
        _ cmyk: [UInt8], width: Int, height: Int, inverted: Bool, into data: UnsafeMutablePointer<UInt8>,
        stride: Int
    ) {
        cmyk.withUnsafeBufferPointer { src in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                var i = y * width * 4
                for x in 0..<width {
                    var c = UInt32(src[i])
                    var m = UInt32(src[i + 1])
                    var yy = UInt32(src[i + 2])
                    var k = UInt32(src[i + 3])
                    if !inverted { (c, m, yy, k) = (255 - c, 255 - m, 255 - yy, 255 - k) }
                    let r = (c * k + 127) / 255
                    let g = (m * k + 127) / 255
                    let b = (yy * k + 127) / 255
                    row[x] = 0xFF00_0000 | r << 16 | g << 8 | b
                    i += 4
                }
            }
        }
    }

    /// `s` (`width`×`height`, as stored) turned per EXIF `orientation` into a new surface.
    static func orient(
        _ s: OpaquePointer, width: Int, height: Int, orientation: Int, path: String
    ) throws(ImageDecodingError) -> OpaquePointer {
        let (w, h) = (Double(width), Double(height))
        // Stored pixel (x, y) → shown (xx·x + xy·y + x0, yx·x + yy·y + y0).
        let m: cairo_matrix_t =
            switch orientation {
            case 2: cairo_matrix_t(xx: -1, yx: 0, xy: 0, yy: 1, x0: w, y0: 0)
            case 3: cairo_matrix_t(xx: -1, yx: 0, xy: 0, yy: -1, x0: w, y0: h)
            case 4: cairo_matrix_t(xx: 1, yx: 0, xy: 0, yy: -1, x0: 0, y0: h)
            case 5: cairo_matrix_t(xx: 0, yx: 1, xy: 1, yy: 0, x0: 0, y0: 0)
            case 6: cairo_matrix_t(xx: 0, yx: 1, xy: -1, yy: 0, x0: h, y0: 0)
            case 7: cairo_matrix_t(xx: 0, yx: -1, xy: -1, yy: 0, x0: h, y0: w)
            case 8: cairo_matrix_t(xx: 0, yx: -1, xy: 1, yy: 0, x0: 0, y0: w)
            default: cairo_matrix_t(xx: 1, yx: 0, xy: 0, yy: 1, x0: 0, y0: 0)
            }
        let (ow, oh) = orientation >= 5 ? (height, width) : (width, height)
        guard let out = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(ow), Int32(oh)),
            cairo_surface_status(out) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(out)
        else { throw ImageDecodingError(path: path, reason: "out of memory for a \(ow)×\(oh) picture") }
        var matrix = m
        cairo_transform(cr, &matrix)
        cairo_set_source_surface(cr, s, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(out)
        return out
    }
}
