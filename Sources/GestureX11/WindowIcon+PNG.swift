import CCairo
import GestureShellCore

extension WindowIcon {
    /// Loads an icon from PNG files, one size each (Cairo decodes them). Files that cannot be read
    /// are skipped; nil when none can. A missing icon is not worth failing a start for.
    public init?(pngs paths: [String]) {
        var images: [Image] = []
        for path in paths {
            if let image = Self.load(path) { images.append(image) }
        }
        guard !images.isEmpty else { return nil }
        self.init(images: images)
    }

    /// One PNG as straight-alpha ARGB (Cairo's image surfaces hold premultiplied alpha).
    static func load(_ path: String) -> Image? {
        guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24,
            let data = cairo_image_surface_get_data(surface)
        else { return nil }
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard width > 0, height > 0 else { return nil }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride)
            for x in 0..<width {
                let p = row.load(fromByteOffset: x * 4, as: UInt32.self)
                pixels[y * width + x] = format == CAIRO_FORMAT_RGB24 ? p | 0xFF00_0000 : unpremultiply(p)
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// `0xAARRGGBB` with premultiplied colour → the same with straight colour (rounded).
    static func unpremultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        guard a != 0 else { return 0 }
        guard a != 255 else { return p }
        func channel(_ shift: UInt32) -> UInt32 {
            let c = (p >> shift) & 0xFF
            return min(255, (c * 255 + a / 2) / a) << shift
        }
        return a << 24 | channel(16) | channel(8) | channel(0)
    }
}
