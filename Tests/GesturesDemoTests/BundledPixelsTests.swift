import CCairo
import Foundation
import GestureTestSupport
import GesturesDemo
import Testing

/// The bundled flower is read from `flower.pixels` (the picture as Cairo holds it) instead of
/// being decoded from `flower.png` at every start: the two must be the same picture, byte for
/// byte, and a pixels file that is not whole or not the PNG's size must never be shown.
@Suite("The bundled flower's pixels: the PNG's exact decode, used only when whole")
struct BundledPixelsTests {
    static let png = repositoryRoot + "/Resources/flower.png"

    /// All bytes of an image surface (ARGB32, no padding at 300 px).
    static func bytes(_ image: DemoImage) -> [UInt8] {
        let s = image.surface
        cairo_surface_flush(s)
        let count = Int(cairo_image_surface_get_stride(s)) * Int(cairo_image_surface_get_height(s))
        return Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(s)!, count: count))
    }

    @Test("flower.pixels is flower.png as cairo decodes it, every byte (scripts/make-flower.py --pixels)")
    func pixelsAreThePNGsDecode() throws {
        let decoded = try DemoImage(path: Self.png)
        let bundled = try DemoImage.bundled(png: Self.png, pixels: repositoryRoot + "/Resources/flower.pixels")
        #expect(bundled.size == decoded.size)
        #expect(bundled.path == Self.png)
        let (a, b) = (Self.bytes(decoded), Self.bytes(bundled))
        #expect(a.count == 300 * 300 * 4)
        let differing = zip(a, b).filter { $0 != $1 }.count
        #expect(a == b, "\(differing) bytes differ")
    }

    /// A pixels file of the PNG's size, `header` and `pixel` as given, `trim` bytes cut off the
    /// end (negative: added).
    static func pixelsFile(
        _ name: String, magic: String = "GPIXARGB", width: UInt32 = 300, height: UInt32 = 300, pixel: UInt32,
        trim: Int = 0
    ) -> String {
        var data = Data(magic.utf8)
        for v in [width, height] { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let one = withUnsafeBytes(of: pixel.littleEndian) { Array($0) }
        data.append(contentsOf: [[UInt8]](repeating: one, count: Int(width * height)).joined())
        if trim > 0 { data.removeLast(trim) } else { data.append(contentsOf: [UInt8](repeating: 0, count: -trim)) }
        let path = scratch + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: data))
        return path
    }

    @Test("a whole pixels file of the PNG's size is what is shown")
    func wholeFileIsUsed() throws {
        let path = Self.pixelsFile("green.pixels", pixel: 0xFF00_FF00)
        let image = try DemoImage.bundled(png: Self.png, pixels: path)
        #expect(ImageTests.pixel(image, 0, 0) == 0xFF00_FF00)
        #expect(ImageTests.pixel(image, 299, 299) == 0xFF00_FF00)
    }

    @Test(
        "anything else is ignored and the PNG decoded",
        arguments: [
            ("bad-magic.pixels", "GPIXRGBA", 300, 300, 0),
            ("narrow.pixels", "GPIXARGB", 299, 300, 0),
            ("short.pixels", "GPIXARGB", 300, 300, 1),
            ("long.pixels", "GPIXARGB", 300, 300, -1),
            ("empty-size.pixels", "GPIXARGB", 0, 300, 0),
        ] as [(String, String, UInt32, UInt32, Int)])
    func otherFilesFallBack(name: String, magic: String, width: UInt32, height: UInt32, trim: Int) throws {
        let path = Self.pixelsFile(name, magic: magic, width: width, height: height, pixel: 0xFF00_FF00, trim: trim)
        let image = try DemoImage.bundled(png: Self.png, pixels: path)
        #expect(Self.bytes(image) == Self.bytes(try DemoImage(path: Self.png)))
    }

    @Test("no pixels file, or one that cannot be read: the PNG")
    func missingFileFallsBack() throws {
        for pixels in [nil, "/nonexistent/flower.pixels", scratch] {
            let image = try DemoImage.bundled(png: Self.png, pixels: pixels)
            #expect(image.size.width == 300 && ImageTests.pixel(image, 0, 0) == 0, "\(pixels ?? "nil")")
        }
    }
}
