import Foundation
import GestureImage
import GestureKit
import GestureTestSupport
import GestureX11
import Testing

extension XServerTests.ViewDrawing {
    /// The library's `Image` and `ImageView` show JPEGs as people have them, through the decoder
    /// the demo's picture uses: a phone photo's EXIF orientation applied (stored 32×24, shown
    /// 24×32), a CMYK JPEG in colour, and a JPEG of 100 000 scans refused when it is read, with
    /// one line.
    @Test("ImageView: an EXIF-rotated JPEG upright, a CMYK JPEG in colour, 100 000 scans refused")
    func jpegsAsPeopleHaveThem() throws {
        let rotated = try Image(path: fixturesDirectory + "/quadrants-orientation6.jpg")
        #expect(rotated.size == Size(width: 24, height: 32), "shown size after orientation 6")
        let cmyk = try Image(path: fixturesDirectory + "/red-blue-cmyk.jpg")
        #expect(cmyk.size == Size(width: 32, height: 24))

        let directory = try TemporaryDirectory(prefix: "gestures-jpeg-views")
        let scans = try Data(contentsOf: URL(fileURLWithPath: fixturesDirectory + "/many-scans.jpg"))
        let hostile = directory.file("scans.jpg")
        // many-scans.jpg (810 scans) with its last scan repeated up to 100 000 scans.
        let b = [UInt8](scans)
        let sos = (0..<(b.count - 1)).filter { b[$0] == 0xFF && b[$0 + 1] == 0xDA }
        let last = b[sos.last!..<(b.count - 2)]
        var out = Array(b[..<(b.count - 2)])
        for _ in sos.count..<100_000 { out += last }
        try Data(out + [0xFF, 0xD9]).write(to: URL(fileURLWithPath: hostile))
        do {
            _ = try Image(path: hostile)
            Issue.record("a JPEG of 100 000 scans was accepted")
        } catch {
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix(hostile + ": the JPEG has 100000 scans, more than 100 "))
        }
        #expect(Image(contentsOfFile: hostile) == nil)

        let server = try TestXServer(width: 640, height: 480)
        let window = try makeWindow(server, width: 400, height: 300)
        window.root.backgroundColor = .white
        let portrait = ImageView(frame: Rect(x: 20, y: 20, width: 120, height: 160))
        portrait.image = rotated
        let colour = ImageView(frame: Rect(x: 200, y: 20, width: 160, height: 120))
        colour.image = cmyk
        window.root.addSubview(portrait)
        window.root.addSubview(colour)
        let shots = try run(window, steps: [{}], directory: directory)
        let p = try #require(shots.first)
        // Orientation 6: the stored top row (red | green) runs down the right side, red at the top;
        // the stored bottom half (blue) is the left half.
        #expect(near(p.rgb(120, 40), (254, 0, 0), 40), "top right red: \(p.rgb(120, 40))")
        #expect(near(p.rgb(120, 160), (0, 255, 0), 40), "bottom right green: \(p.rgb(120, 160))")
        #expect(near(p.rgb(40, 40), (0, 0, 254), 40), "top left blue: \(p.rgb(40, 40))")
        #expect(near(p.rgb(40, 160), (0, 0, 254), 40), "bottom left blue: \(p.rgb(40, 160))")
        // CMYK: left half red, right half blue.
        #expect(near(p.rgb(230, 80), (254, 0, 0), 30), "CMYK left red: \(p.rgb(230, 80))")
        #expect(near(p.rgb(330, 80), (0, 0, 254), 30), "CMYK right blue: \(p.rgb(330, 80))")
    }
}
