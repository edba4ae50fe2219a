import Foundation
import GestureTestSupport
import GesturesDemo
import Testing

/// JPEGs as people have them: EXIF orientation applied, CMYK and YCCK shown, a JPEG of too many
/// scans refused before it is decoded, and a JPEG decoded at the size it is drawn.
@Suite(.enabled(if: CLI.available, "the gestures executable is built beside the tests"))
struct JPEGPictureTests {
    static let fixtures = fixturesDirectory + "/"
    static let (red, green, blue) = (UInt32(0xFFFF_0000), UInt32(0xFF00_FF00), UInt32(0xFF00_00FF))

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
    static func withOrientation(_ o: Int, bigEndian: Bool) throws -> String {
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtures + "quadrants.jpg")))
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
        let path = scratch + "/orientation-\(o)-\(bigEndian ? "mm" : "ii").jpg"
        try Data(jpeg[0..<2] + app1 + jpeg[2...]).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func expectCorners(_ image: DemoImage, _ o: Int, _ what: String) {
        let (w, h) = (Int(image.size.width), Int(image.size.height))
        #expect((w, h) == (o >= 5 ? (24, 32) : (32, 24)), "\(what): \(w)×\(h)")
        guard w > 8, h > 8 else { return }
        let points = [(3, 3), (w - 4, 3), (3, h - 4), (w - 4, h - 4)]
        for (point, want) in zip(points, corners[o]!) {
            let got = ImageTests.pixel(image, point.0, point.1)
            #expect(ImageTests.close(got, want, within: 40), "\(what) at \(point): \(String(got, radix: 16))")
        }
    }

    @Test(arguments: 1...8)
    func exifOrientationIsApplied(orientation: Int) throws {
        for bigEndian in [false, true] {
            let path = try Self.withOrientation(orientation, bigEndian: bigEndian)
            Self.expectCorners(try DemoImage(path: path), orientation, "orientation \(orientation), MM \(bigEndian)")
        }
    }

    /// As exiftool writes it (with its own other tags): orientation 6, a phone held upright.
    @Test func exiftoolOrientationSix() throws {
        Self.expectCorners(try DemoImage(path: Self.fixtures + "quadrants-orientation6.jpg"), 6, "exiftool")
    }

    /// A damaged Exif segment (IFD offset past the end, a count beyond the bytes) is ignored.
    @Test func damagedExifIsIgnored() throws {
        let path = try Self.withOrientation(6, bigEndian: false)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[2 + 4 + 6 + 4] = 0xF0  // IFD0 offset → 0x...F0: out of range
        let damaged = scratch + "/orientation-damaged.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        Self.expectCorners(try DemoImage(path: damaged), 1, "damaged Exif")
    }

    /// CMYK (libjpeg, Adobe transform 0, inverted like Photoshop's) and YCCK (ImageMagick's
    /// `-colorspace CMYK`): left half red, right half blue.
    @Test(arguments: ["red-blue-cmyk.jpg", "red-blue-ycck.jpg"])
    func cmykIsShown(name: String) throws {
        let image = try DemoImage(path: Self.fixtures + name)
        #expect(image.size.width == 32 && image.size.height == 24)
        for y in [2, 12, 21] {
            let (l, r) = (ImageTests.pixel(image, 4, y), ImageTests.pixel(image, 27, y))
            #expect(ImageTests.close(l, Self.red, within: 16), "\(name) (4,\(y)): \(String(l, radix: 16))")
            #expect(ImageTests.close(r, Self.blue, within: 16), "\(name) (27,\(y)): \(String(r, radix: 16))")
        }
    }

    /// A progressive JPEG whose last scan is repeated 800 times (`Tests/Fixtures/many-scans.jpg`,
    /// 64×48, 810 scans): refused with one line naming the file and the scans, status 2.
    @Test func tooManyScansAreRefused() throws {
        #expect(throws: DemoImageError.self) { try DemoImage(path: Self.fixtures + "many-scans.jpg") }
        let trace = write("many-scans-tap.jsonl", CLITests.tapTrace)
        let r = try CLI.run(["replay", trace, "--image", Self.fixtures + "many-scans.jpg"])
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("many-scans.jpg: the JPEG has 810 scans, more than 100"), "\(r.stderr)")
    }

    /// Decoded at the smallest of 1/8, 1/4, 1/2, 1 that still has the drawn size's pixels; a
    /// larger decode only when loading is allowed.
    @Test @MainActor func decodedAtTheDrawnSize() throws {
        let image = try DemoImage(path: Self.fixtures + "red-blue.jpg")  // 64×48
        func size(_ scale: Double, load: Bool = true) -> [Int] {
            let p = image.pixels(forScale: scale, load: load)
            return [p.width, p.height]
        }
        #expect(size(0.1) == [8, 6])
        #expect(size(0.125) == [8, 6])
        #expect(size(0.2) == [16, 12])
        #expect(size(0.5, load: false) == [16, 12], "not decoded again until loading is allowed")
        #expect(size(0.5) == [32, 24])
        #expect(size(0.51) == [64, 48])
        #expect(size(3) == [64, 48])
        #expect(size(0.1) == [8, 6], "smaller again")
        #expect(image.size.width == 64 && image.size.height == 48, "the size is the full size")
    }
}
