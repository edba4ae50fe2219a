import CCairo
import GestureTrace

extension DemoImage {
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
}
