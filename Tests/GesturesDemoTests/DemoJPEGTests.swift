import Foundation
import GestureTestSupport
import GesturesDemo
import Testing

/// The demo's picture draws JPEGs through GestureImage's decoder: upright, refused with one line
/// when hostile, and decoded once for the window, larger only once it is enlarged past that.
@Suite(.enabled(if: CLI.available, "the gestures executable is built beside the tests"))
struct DemoJPEGTests {
    static let fixtures = fixturesDirectory + "/"

    /// A phone photo's EXIF orientation 6 is applied to the demo's picture as to the library's.
    @Test func exifOrientationIsApplied() throws {
        let image = try DemoImage(path: Self.fixtures + "quadrants-orientation6.jpg")
        #expect(image.size.width == 24 && image.size.height == 32)
        // Orientation 6: stored row 0 (red | green) on the right, column 0 at the top.
        #expect(ImageTests.close(ImageTests.pixel(image, 20, 3), 0xFFFF_0000, within: 40))
        #expect(ImageTests.close(ImageTests.pixel(image, 20, 28), 0xFF00_FF00, within: 40))
        #expect(ImageTests.close(ImageTests.pixel(image, 3, 16), 0xFF00_00FF, within: 40))
    }

    /// A progressive JPEG whose last scan is repeated 800 times (`Tests/Fixtures/many-scans.jpg`,
    /// 64×48, 810 scans): refused with one line naming the file and the scans, status 2.
    @Test func tooManyScansAreRefused() throws {
        #expect(throws: DemoImageError.self) { try DemoImage(path: Self.fixtures + "many-scans.jpg") }
        let trace = write("many-scans-tap.jsonl", CLITests.tapTrace)
        for arguments in [["replay", trace], ["run"]] {
            let r = try CLI.run(arguments + ["--image", Self.fixtures + "many-scans.jpg"])
            #expect(r.status == 2)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains("many-scans.jpg: the JPEG has 810 scans, more than 100"), "\(r.stderr)")
        }
    }

    /// A JPEG whose header walk passes but whose decode libjpeg refuses (here a progressive scan
    /// of red-blue-progressive.jpg with Ss > Se) is bad input for the live window too, which maps
    /// before its decode ends: one line naming the file, status 2 — not a grey picture.
    @Test func damagedScanIsRefusedByTheLiveWindow() throws {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "red-blue-progressive.jpg")))
        var scans: [Int] = []
        for i in 0..<(bytes.count - 1) where bytes[i] == 0xFF && bytes[i + 1] == 0xDA { scans.append(i) }
        try #require(scans.count == 10)
        // The fourth scan's spectral selection (after its length, component count and selectors).
        let sos = scans[3]
        let selection = sos + 5 + 2 * Int(bytes[sos + 4])
        (bytes[selection], bytes[selection + 1]) = (50, 10)
        let path = write("bad-scan.jpg", "")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let server = try TestXServer(width: 1024, height: 768)
        let directory = try TemporaryDirectory(prefix: "gestures-bad-scan")
        let app = try ChildProcess(
            CLI.executable, ["run", "--image", path], environment: ["DISPLAY": server.display],
            stderr: .file(directory.file("err")))
        let status = app.wait(timeout: 10)
        if status == nil { app.stop() }
        #expect(status == 2, "the live window went on with a picture it could not decode")
        let err = readText(directory.file("err"))
        #expect(err.split(separator: "\n").count == 1, "\(err)")
        #expect(err.contains("bad-scan.jpg: the JPEG is damaged (Invalid progressive parameters"), "\(err)")
    }

    /// Without a window's decode: decoded at the first drawn size; enlarged, decoded again at the
    /// smallest of 1/4, 1/2, 1 that has the drawn size's pixels, only when loading is allowed;
    /// shown small again, the first decode is drawn.
    @Test @MainActor func decodedAtTheDrawnSize() throws {
        let image = try DemoImage(path: Self.fixtures + "red-blue.jpg")  // 64×48
        func size(_ scale: Double, load: Bool = true) -> [Int] {
            let p = image.pixels(forScale: scale, load: load)
            return [p.width, p.height]
        }
        #expect(size(0.1, load: false) == [8, 6], "the first decode, whatever load says")
        #expect(size(0.125) == [8, 6])
        #expect(size(0.2) == [16, 12])
        #expect(size(0.5, load: false) == [16, 12], "not decoded again until loading is allowed")
        #expect(size(0.5) == [32, 24])
        #expect(size(0.51) == [64, 48])
        #expect(size(3) == [64, 48])
        #expect(size(0.1) == [8, 6], "smaller again: the first decode")
        #expect(image.size.width == 64 && image.size.height == 48, "the size is the full size")
    }

    /// `prepare(toFit:height:)` decodes once for the window: a 32×30 window takes the 1/2 decode
    /// (the picture fitted whole into its place, 90 % × 44 % of the window, is 17.6×13.2), which every smaller drawn size then uses — never a
    /// second, smaller decode; past it, a larger decode once loading is allowed, let go again
    /// when it is drawn at the window's size.
    @Test @MainActor func decodedOnceForTheWindow() throws {
        let image = try DemoImage(path: Self.fixtures + "red-blue.jpg")  // 64×48
        try image.prepare(toFit: 32, height: 30)
        let first = image.pixels(forScale: 0.1, load: true)
        #expect(first.width == 32 && first.height == 24)
        for scale in [0.125, 0.3, 0.5] {
            let p = image.pixels(forScale: scale, load: true)
            #expect(p.surface == first.surface, "scale \(scale): the window's decode, not decoded again")
        }
        let held = image.pixels(forScale: 1, load: false)
        #expect(held.surface == first.surface, "a pinch in progress draws the window's decode")
        let larger = image.pixels(forScale: 1, load: true)
        #expect(larger.width == 64 && larger.height == 48)
        let back = image.pixels(forScale: 0.4, load: true)
        #expect(back.surface == first.surface && back.width == 32)
        try image.prepare(toFit: 32, height: 30)
        #expect(image.pixels(forScale: 0.4, load: true).surface == first.surface, "prepared twice: one decode")
    }
}

extension DemoJPEGTests {
    /// A decode started on another thread is taken by `prepare` when the window needs the same
    /// scale, and replaced when it needs another.
    @Test @MainActor func decodeStartedBeforeTheWindow() throws {
        let same = try DemoImage(path: Self.fixtures + "red-blue.jpg")  // 64×48
        // Fitted into the layout's image place (90 % × 44 % of the window): 23.5×17.6 → 1/2.
        same.startDecoding(toFit: 40, height: 40)
        try same.prepare(toFit: 30, height: 40)  // 23.5×17.6 as well
        let p = same.pixels(forScale: 0.1, load: true)
        #expect(p.width == 32 && p.height == 24)
        let other = try DemoImage(path: Self.fixtures + "red-blue.jpg")
        other.startDecoding(toFit: 8, height: 6)  // 1/8
        try other.prepare(toFit: 160, height: 240)  // the place is 140.8×105.6: the full size
        let q = other.pixels(forScale: 0.1, load: true)
        #expect(q.width == 64 && q.height == 48)
    }
}
