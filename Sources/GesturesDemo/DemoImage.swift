import CCairo
import GestureKit

/// A picture loaded once from a PNG file into a Cairo image surface (UIKit: `UIImage`).
public final class DemoImage: @unchecked Sendable {
    /// The `cairo_surface_t *` holding the pixels.
    public let surface: OpaquePointer
    /// The size in pixels.
    public let size: Size
    /// Where it was loaded from.
    public let path: String

    /// Loads `path` with `cairo_image_surface_create_from_png`; throws when the file cannot be
    /// read or is not a PNG.
    public init(path: String) throws(DemoImageError) {
        guard let s = cairo_image_surface_create_from_png(path) else {
            throw DemoImageError(path: path, reason: "cannot load the image")
        }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            let reason = String(cString: cairo_status_to_string(status))
            cairo_surface_destroy(s)
            throw DemoImageError(path: path, reason: reason)
        }
        surface = s
        size = Size(
            width: Double(cairo_image_surface_get_width(s)),
            height: Double(cairo_image_surface_get_height(s)))
        self.path = path
    }

    deinit {
        cairo_surface_destroy(surface)
    }
}

/// A picture that could not be loaded: `description` is one line, `flower.png: file not found`.
public struct DemoImageError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
