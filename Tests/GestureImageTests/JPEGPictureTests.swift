import CCairo
import Foundation
import GestureImage
import Testing

/// JPEGs as people have them, decoded by the one JPEG decoder (GestureImage's `JPEGPicture`, which
/// the library's `Image` and the demo's picture share): EXIF orientation applied, CMYK and YCCK
/// shown, a file cut short or of too many scans refused before a pixel is decoded, and the
/// decoded size per libjpeg-turbo scale.
struct JPEGPictureTests {
    static let fixtures =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path + "/"
    static let (red, green, blue) = (UInt32(0xFFFF_0000), UInt32(0xFF00_FF00), UInt32(0xFF00_00FF))

    static func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtures + name)))
    }

    /// The picture in `bytes` decoded at 1/`denominator`: its size and a pixel reader (0xAARRGGBB).
    static func decoded(_ bytes: [UInt8], denominator: Int = 1) throws -> (
        width: Int, height: Int, pixel: (Int, Int) -> UInt32
    ) {
        let s = try JPEGPicture(bytes: bytes, path: "test.jpg").decode(denominator: denominator, path: "test.jpg")
        let (w, h) = (Int(cairo_image_surface_get_width(s)), Int(cairo_image_surface_get_height(s)))
        let stride = Int(cairo_image_surface_get_stride(s))
        let data = cairo_image_surface_get_data(s)!
        var pixels = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                pixels[y * w + x] = UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self) | 0xFF00_0000
            }
        }
        cairo_surface_destroy(s)
        return (w, h, { x, y in pixels[y * w + x] })
    }

    static func close(_ a: UInt32, _ b: UInt32, within t: Int) -> Bool {
        [24, 16, 8, 0].allSatisfy { abs(Int((a >> $0) & 0xFF) - Int((b >> $0) & 0xFF)) <= t }
    }

    /// `quadrants.jpg` (32×24, as stored): the top-left quarter red, the top-right green, the
    /// bottom half blue. The colours expected at the shown corners for each EXIF orientation,
    /// read off the EXIF definitions (where the stored row 0 and column 0 are shown):
    /// top-left, top-right, bottom-left, bottom-right.
    static let corners: [Int: [UInt32]] = [
        1: [red, green, blue, blue],  // row 0 top, column 0 left
        2: [green, red, blue, blue],  // row 0 top, column 0 right
        3: [blue, blue, green, red],  // row 0 bottom, column 0 right
        4: [blue, blue, red, green],  // row 0 bottom, column 0 left
        5: [red, blue, green, blue],  // row 0 left, column 0 top
        6: [blue, red, blue, green],  // row 0 right, column 0 top
        7: [blue, green, blue, red],  // row 0 right, column 0 bottom
        8: [green, blue, red, blue],  // row 0 left, column 0 bottom
    ]

    /// `quadrants.jpg` with an APP1 Exif segment holding only IFD0's Orientation, in Intel
    /// (`II`) or Motorola (`MM`) byte order, inserted after SOI.
    static func withOrientation(_ o: Int, bigEndian: Bool) throws -> [UInt8] {
        let jpeg = try bytes("quadrants.jpg")
        func u16(_ v: Int) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        // A first, unrelated entry (ImageWidth) so that the tag is looked for, not assumed first.
        let tiff =
            (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8) + u16(2)
            + u16(0x0100) + u16(3) + u32(1) + u16(32) + u16(0)
            + u16(0x0112) + u16(3) + u32(1) + u16(o) + u16(0) + u32(0)
        let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1] + [UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        return Array(jpeg[0..<2] + app1 + jpeg[2...])
    }

    static func expectCorners(_ bytes: [UInt8], _ o: Int, _ what: String) throws {
        let picture = try JPEGPicture(bytes: bytes, path: "test.jpg")
        let shown = o >= 5 ? [24, 32] : [32, 24]
        #expect([picture.size.width, picture.size.height] == shown, "\(what): size \(picture.size)")
        let d = try decoded(bytes)
        #expect([d.width, d.height] == shown, "\(what): decoded \(d.width)×\(d.height)")
        guard d.width > 8, d.height > 8 else { return }
        let points = [(3, 3), (d.width - 4, 3), (3, d.height - 4), (d.width - 4, d.height - 4)]
        for (point, want) in zip(points, corners[o]!) {
            let got = d.pixel(point.0, point.1)
            #expect(close(got, want, within: 40), "\(what) at \(point): \(String(got, radix: 16))")
        }
    }

    @Test(arguments: 1...8)
    func exifOrientationIsApplied(orientation: Int) throws {
        for bigEndian in [false, true] {
            try Self.expectCorners(
                Self.withOrientation(orientation, bigEndian: bigEndian), orientation,
                "orientation \(orientation), MM \(bigEndian)")
        }
    }

    /// As exiftool writes it (with its own other tags): orientation 6, a phone held upright.
    @Test func exiftoolOrientationSix() throws {
        try Self.expectCorners(Self.bytes("quadrants-orientation6.jpg"), 6, "exiftool")
    }

    /// A damaged Exif segment (IFD offset past the end) is ignored: shown as stored.
    @Test func damagedExifIsIgnored() throws {
        var bytes = try Self.withOrientation(6, bigEndian: false)
        bytes[2 + 4 + 6 + 4] = 0xF0  // IFD0 offset → 0x...F0: out of range
        try Self.expectCorners(bytes, 1, "damaged Exif")
    }

    /// CMYK (libjpeg, Adobe transform 0, inverted like Photoshop's) and YCCK (ImageMagick's
    /// `-colorspace CMYK`): left half red, right half blue.
    @Test(arguments: ["red-blue-cmyk.jpg", "red-blue-ycck.jpg"])
    func cmykIsShown(name: String) throws {
        let d = try Self.decoded(Self.bytes(name))
        #expect(d.width == 32 && d.height == 24)
        for y in [2, 12, 21] {
            let (l, r) = (d.pixel(4, y), d.pixel(27, y))
            #expect(Self.close(l, Self.red, within: 16), "\(name) (4,\(y)): \(String(l, radix: 16))")
            #expect(Self.close(r, Self.blue, within: 16), "\(name) (27,\(y)): \(String(r, radix: 16))")
        }
    }

    /// `many-scans.jpg` (64×48, progressive, 810 scans: its scan 5 repeated 800 times) with its
    /// last scan repeated until the file has `count` scans. In entropy-coded data every 0xFF is
    /// followed by 0x00 or a restart marker, so 0xFF 0xDA is always a scan header.
    static func jpeg(withScans count: Int) throws -> [UInt8] {
        let b = try bytes("many-scans.jpg")
        let sos = (0..<(b.count - 1)).filter { b[$0] == 0xFF && b[$0 + 1] == 0xDA }
        precondition(b.suffix(2) == [0xFF, 0xD9] && count >= sos.count, "many-scans.jpg as made by make-many-scans.py")
        let last = b[sos.last!..<(b.count - 2)]
        var out = Array(b[..<(b.count - 2)])
        out.reserveCapacity(b.count + last.count * (count - sos.count))
        for _ in sos.count..<count { out += last }
        return out + [0xFF, 0xD9]
    }

    /// 810 and 100 000 scans: refused when read, before any pixel is decoded (decoding 100 000
    /// scans took minutes), with one line naming the file and the count.
    @Test(arguments: [810, 100_000])
    func tooManyScansAreRefused(scans: Int) throws {
        let bytes = try Self.jpeg(withScans: scans)
        #expect(throws: ImageDecodingError.self) { try JPEGPicture(bytes: bytes, path: "scans.jpg") }
        do {
            _ = try JPEGPicture(bytes: bytes, path: "scans.jpg")
        } catch {
            #expect(!error.description.contains("\n"))
            #expect(
                error.description.hasPrefix("scans.jpg: the JPEG has \(scans) scans, more than 100 "),
                "\(error.description)")
        }
        // An ordinary progressive JPEG (10 scans) is within the limit.
        let d = try Self.decoded(Self.bytes("red-blue-progressive.jpg"))
        #expect(d.width == 64 && d.height == 48)
    }

    /// A file cut short — in its last scan, halfway, or only its EOI marker missing — is refused
    /// when read, with one line (no grey rest is ever decoded).
    @Test func cutShortIsRefusedWhenRead() throws {
        let whole = try Self.bytes("red-blue-progressive.jpg")
        _ = try JPEGPicture(bytes: whole, path: "whole.jpg")
        for cut in [2, 60, whole.count / 2] {
            do {
                _ = try JPEGPicture(bytes: Array(whole.prefix(whole.count - cut)), path: "cut.jpg")
                Issue.record("a JPEG without its last \(cut) bytes was accepted")
            } catch {
                #expect(
                    error.description
                        == "cut.jpg: the JPEG is cut short (Premature end of JPEG file); expected a whole PNG or JPEG image"
                )
            }
        }
    }

    /// Decoded at 1/8, 1/4, 1/2 and full size (sizes rounded up), and the denominator chosen for
    /// a drawn scale: the smallest decode that still has the drawn size's pixels.
    @Test func scaledDecodes() throws {
        let bytes = try Self.bytes("red-blue.jpg")  // 64×48
        for (denominator, size) in [(8, [8, 6]), (4, [16, 12]), (2, [32, 24]), (1, [64, 48])] {
            let d = try Self.decoded(bytes, denominator: denominator)
            #expect([d.width, d.height] == size)
            #expect(Self.close(d.pixel(1, d.height / 2), Self.red, within: 40), "1/\(denominator)")
        }
        let chosen = [0.1, 0.125, 0.2, 0.25, 0.5, 0.51, 1, 3].map(JPEGPicture.denominator(forScale:))
        #expect(chosen == [8, 8, 4, 4, 2, 1, 1, 1])
    }
}
