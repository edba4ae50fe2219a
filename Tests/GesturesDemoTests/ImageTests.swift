import CCairo
import Foundation
import GestureTestSupport
import GesturesDemo
import Testing

/// Pictures: PNG and JPEG load, told apart by their first bytes; anything else
/// is refused with one line naming the file and the formats accepted, status 2.
@Suite(.enabled(if: CLI.available, "the gestures executable is built beside the tests"))
struct ImageTests {
    static let fixtures = fixturesDirectory + "/"

    /// The pixel at (x, y) of an image surface, `0xAARRGGBB` (RGB24: alpha reads 0xFF).
    static func pixel(_ image: DemoImage, _ x: Int, _ y: Int) -> UInt32 {
        let s = image.surface
        cairo_surface_flush(s)
        precondition(
            (0..<Int(cairo_image_surface_get_width(s))).contains(x)
                && (0..<Int(cairo_image_surface_get_height(s))).contains(y), "(\(x), \(y)) lies outside the image")
        let data = cairo_image_surface_get_data(s)!
        let p = UnsafeRawPointer(data + y * Int(cairo_image_surface_get_stride(s)) + x * 4).load(as: UInt32.self)
        return cairo_image_surface_get_format(s) == CAIRO_FORMAT_RGB24 ? p | 0xFF00_0000 : p
    }

    static func close(_ a: UInt32, _ b: UInt32, within t: Int = 12) -> Bool {
        [24, 16, 8, 0].allSatisfy { abs(Int((a >> $0) & 0xFF) - Int((b >> $0) & 0xFF)) <= t }
    }

    /// Left half, right half: the colours the fixtures were made with (ImageMagick, quality 95).
    @Test(arguments: [
        ("red-blue.jpg", UInt32(0xFFFF_0000), UInt32(0xFF00_00FF)),
        ("red-blue-progressive.jpg", 0xFFFF_0000, 0xFF00_00FF),
        ("gray.jpg", 0xFF20_2020, 0xFFE0_E0E0),
    ])
    func jpegDecodesToItsPixels(name: String, left: UInt32, right: UInt32) throws {
        let image = try DemoImage(path: Self.fixtures + name)
        try #require(image.size.width == 64 && image.size.height == 48)
        for y in [4, 24, 43] {
            let (l, r) = (Self.pixel(image, 8, y), Self.pixel(image, 55, y))
            #expect(Self.close(l, left), "\(name) (8,\(y)): \(String(l, radix: 16))")
            #expect(Self.close(r, right), "\(name) (55,\(y)): \(String(r, radix: 16))")
        }
    }

    @Test func pngStillLoadsWithAlpha() throws {
        let image = try DemoImage(path: repositoryRoot + "/Resources/flower.png")
        #expect(image.size.width == 300 && image.size.height == 300)
        #expect(Self.pixel(image, 0, 0) == 0, "a transparent corner")
        #expect(Self.pixel(image, 150, 118) >> 24 == 0xFF, "the opaque centre")
    }

    /// `replay --png` draws a JPEG picture like a PNG one: the left half of the image view red.
    @Test func replayDrawsAJPEG() throws {
        let out = scratch + "/jpeg-replay.png"
        let trace = write("jpeg-tap.jsonl", CLITests.tapTrace)
        let r = try CLI.run(["replay", trace, "--image", Self.fixtures + "red-blue.jpg", "--png", out])
        #expect(r.status == 0, "\(r.stderr)")
        let layout = try #require(r.lines.first)
        #expect(layout.hasPrefix(#"{"type":"layout""#))
        let png = try DemoImage(path: out)
        // The image region: [x, y, w, h] from the layout line (its aspect is the JPEG's, 4:3).
        let region = try #require(layout.components(separatedBy: #""image":["#).last?.split(separator: "]").first)
        let v = region.split(separator: ",").compactMap { Double($0) }
        let (x, y, w, h) = (v[0], v[1], v[2], v[3])
        #expect(abs(w / h - 64.0 / 48.0) < 0.01, "\(v)")
        #expect(Self.close(Self.pixel(png, Int(x + w * 0.25), Int(y + h / 2)), 0xFFFF_0000))
        #expect(Self.close(Self.pixel(png, Int(x + w * 0.75), Int(y + h / 2)), 0xFF00_00FF))
    }

    /// The bundled flower's renditions: picked by the drawn scale, loaded only when allowed, at
    /// most one kept, a broken one not tried again.
    @Test @MainActor func renditionsFollowTheDrawnScale() throws {
        let r = repositoryRoot + "/Resources/"
        let image = try DemoImage(
            path: r + "flower.png",
            renditions: [(4, r + "flower@4x.png"), (2, r + "flower@2x.png"), (8, "/nonexistent/flower@8x.png")])
        func width(_ scale: Double, load: Bool = true) -> Int { image.pixels(forScale: scale, load: load).width }
        #expect(width(1) == 300)
        #expect(width(1.25) == 300)
        #expect(width(3, load: false) == 300, "not loaded yet: the own pixels")
        #expect(width(1.5) == 600)
        #expect(width(3, load: false) == 600, "the rendition in use until loading is allowed")
        #expect(width(3) == 1200)
        #expect(width(2) == 600)
        #expect(width(9) == 1200, "the 8x one cannot be loaded: the largest that can")
        #expect(width(20) == 1200)
        #expect(width(1) == 300)
        #expect(width(3, load: false) == 300, "a rendition is let go below the threshold")
        #expect(image.pixels(forScale: 1, load: true).surface == image.surface)
    }

    /// How many steps between neighbouring pixels (green channel) in a box of a PNG are steep
    /// (≥ 40 of 255): a crisp edge is one or two steep steps, a blurred one a ramp of gentle ones.
    static func steepSteps(_ path: String, x: Int, y: Int, w: Int, h: Int) throws -> Int {
        let png = try DemoImage(path: path)
        var count = 0
        for yy in y..<(y + h) {
            for xx in x..<(x + w) {
                let (p, q) = (pixel(png, xx, yy), pixel(png, xx + 1, yy))
                if abs(Int((p >> 8) & 0xFF) - Int((q >> 8) & 0xFF)) >= 40 { count += 1 }
            }
        }
        return count
    }

    /// Pinched ×3, the flower's centre is drawn from flower@4x.png: its edges are as sharp as at
    /// ×1, where the 300 px picture alone gives a blur three pixels wide.
    @Test func enlargedFlowerIsCrisp() throws {
        let trace = write(
            "pinch3.jsonl",
            """
            {"type":"viewport","width":1024,"height":768}
            {"type":"pinch","t":0.0,"phase":"begin","x":512,"y":583,"scale":1.0,"angle":0}
            {"type":"pinch","t":0.1,"phase":"update","x":512,"y":583,"scale":3.0,"angle":0}
            {"type":"pinch","t":0.2,"phase":"end"}

            """)
        let only300 = scratch + "/only-300"
        try? FileManager.default.createDirectory(atPath: only300, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: only300 + "/flower.png")
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/Resources/flower.png", toPath: only300 + "/flower.png")
        var steps: [String: Int] = [:]
        for (name, environment) in [("crisp", [String: String]()), ("soft", ["GESTURES_RESOURCES": only300])] {
            let out = scratch + "/pinch3-\(name).png"
            let r = try CLI.run(["replay", trace, "--png", out], environment: environment)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
            // The golden centre and its seeds, around (512, 470) at ×3.
            steps[name] = try Self.steepSteps(out, x: 420, y: 380, w: 180, h: 180)
        }
        let (crisp, soft) = (steps["crisp"] ?? 0, steps["soft"] ?? 0)
        #expect(crisp > soft * 3, "\(crisp) steep steps with the renditions, \(soft) without")
    }

    /// One line naming the file and the formats, status 2, nothing on stdout — for `layout`,
    /// `replay` and `run` (which checks its picture before it opens the display).
    @Test(arguments: [
        ("@text", "@text: expected a PNG or JPEG image; this file is neither"),
        ("@empty", "@empty: expected a PNG or JPEG image; this file is neither"),
        ("@dir", "@dir: is a directory; expected a PNG or JPEG image"),
        ("/nonexistent/x.jpg", "/nonexistent/x.jpg: no such file; expected a PNG or JPEG image"),
        ("@cutpng", "@cutpng: the PNG is cut short; expected a whole PNG or JPEG image"),
        ("@badpng", "@badpng: the PNG is damaged or unsupported; expected a whole PNG or JPEG image"),
        (
            "@cutjpeg",
            "@cutjpeg: the JPEG is cut short (Premature end of JPEG file); expected a whole PNG or JPEG image"
        ),
        (
            "@hugepng",
            "@hugepng: the PNG is 40000×10 pixels; expected at most 32767 a side and 100 megapixels"
        ),
    ])
    func badPictures(argument: String, message: String) throws {
        let flower = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/Resources/flower.png"))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "red-blue.jpg"))
        var huge = flower.prefix(33)
        huge.replaceSubrange(16..<24, with: [0, 0, 0x9C, 0x40, 0, 0, 0, 10])
        let dir = scratch + "/a-folder.png"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let files = [
            "@text": write("notes.png", "just some text\n"),
            "@empty": write("empty.jpg", ""),
            "@dir": dir,
            "@cutpng": save("cut.png", flower.prefix(20000)),
            "@badpng": save("bad.png", flower.prefix(8) + Data("garbage garbage garbage garbage".utf8)),
            "@cutjpeg": save("cut.jpg", jpeg.prefix(jpeg.count - 60)),
            "@hugepng": save("huge.png", huge),
        ]
        let path = files[argument] ?? argument
        let expected =
            "gestures: " + (files[argument].map { message.replacingOccurrences(of: argument, with: $0) } ?? message)
            + "\n"
        let trace = write("image-tap.jsonl", CLITests.tapTrace)
        for arguments in [["layout"], ["replay", trace], ["run"]] {
            let r = try CLI.run(arguments + ["--image", path])
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stdout == "", "\(arguments)")
            #expect(r.stderr == expected, "\(arguments)")
        }
    }

    private func save(_ name: String, _ data: Data) -> String {
        let path = scratch + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: data)
        return path
    }
}
