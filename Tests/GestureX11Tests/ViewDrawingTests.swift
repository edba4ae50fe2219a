import CCairo
import Foundation
import GestureKit
import GestureTestSupport
import GestureX11
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A PNG read back: RGB of a pixel.
struct PNGPixels {
    let width: Int
    let height: Int
    private let data: [UInt32]
    init(_ path: String) throws {
        guard let s = cairo_image_surface_create_from_png(path), cairo_surface_status(s) == CAIRO_STATUS_SUCCESS
        else { throw XTestError("cannot read \(path)") }
        defer { cairo_surface_destroy(s) }
        width = Int(cairo_image_surface_get_width(s))
        height = Int(cairo_image_surface_get_height(s))
        let stride = Int(cairo_image_surface_get_stride(s)) / 4
        let base = cairo_image_surface_get_data(s)!.withMemoryRebound(to: UInt32.self, capacity: stride * height) {
            $0
        }
        var d: [UInt32] = []
        for y in 0..<height { for x in 0..<width { d.append(base[y * stride + x]) } }
        data = d
    }
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let p = data[y * width + x]
        return (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
    }
    /// Pixels in the box darker than `level` (all three channels).
    func darkCount(x: Int, y: Int, width w: Int, height h: Int, below level: Int = 100) -> Int {
        var n = 0
        for yy in y..<(y + h) {
            for xx in x..<(x + w) {
                let (r, g, b) = rgb(xx, yy)
                if r < level && g < level && b < level { n += 1 }
            }
        }
        return n
    }
}

func near(_ a: (Int, Int, Int), _ b: (Int, Int, Int), _ tolerance: Int = 12) -> Bool {
    abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
}

/// A view that draws with Cairo through the context: a filled ellipse.
final class DotView: View {
    override func draw(_ rect: Rect, in context: GraphicsContext) {
        context.setFillColor(Color(red: 0, green: 0.6, blue: 0))
        context.fillEllipse(in: bounds)
    }
}

extension XServerTests {
    /// Views that draw themselves in a real window: screenshots read back pixel by pixel, and
    /// the damage rectangles of each frame.
    @Suite("GestureWindow views: background, label, image modes, z-order, alpha, damage (Xvfb)")
    @MainActor
    struct ViewDrawing {
        /// Runs `window`, calling `steps` one after another (each after the previous step's
        /// frame, 0.15 s apart) and screenshotting after each; returns the screenshots.
        func run(_ window: GestureWindow, steps: [() -> Void], directory: TemporaryDirectory) throws -> [PNGPixels] {
            var paths: [String] = []
            // Unowned: the shell holds this closure, and a strong window would never be freed.
            window.shell.onReplayAction = { [unowned window] i in
                steps[i]()
                let path = directory.file("step\(i).png")
                paths.append(path)
                window.shell.requestScreenshot(path)
            }
            window.shell.play(
                [], actions: steps.indices.map { (position: 0, timestamp: 0.15 * Double($0 + 1)) }, exitWhenDone: true)
            #expect(window.run() == 0)
            // The steps may hold the window too: let go of them, so that the window (and its X
            // connection) and the scratch folder are freed when the test ends.
            window.shell.onReplayAction = nil
            return try paths.map { try PNGPixels($0) }
        }

        func makeWindow(_ server: TestXServer, width: Double = 400, height: Double = 300) throws -> GestureWindow {
            var options = ShellOptions()
            options.display = server.display
            options.scale = 1
            return try GestureWindow(title: "views", size: Size(width: width, height: height), options: options)
        }

        @Test("Background, label text, image content modes (PNG and JPEG), custom draw")
        func drawsViews() throws {
            let server = try TestXServer(width: 640, height: 480)
            let directory = try TemporaryDirectory(prefix: "gestures-views")
            // A 40×20 PNG: left half green, right half yellow.
            let png = directory.file("halves.png")
            let s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 40, 20)!
            let cr = cairo_create(s)!
            cairo_set_source_rgb(cr, 0, 1, 0)
            cairo_rectangle(cr, 0, 0, 20, 20)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 0)
            cairo_rectangle(cr, 20, 0, 20, 20)
            cairo_fill(cr)
            cairo_destroy(cr)
            #expect(cairo_surface_write_to_png(s, png) == CAIRO_STATUS_SUCCESS)
            cairo_surface_destroy(s)

            let window = try makeWindow(server, width: 600, height: 400)
            window.root.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.8)
            let label = Label(frame: Rect(x: 20, y: 20, width: 260, height: 80))
            label.backgroundColor = .white
            label.text = "Hello, gestures: a label that wraps onto a second line"
            label.numberOfLines = 0
            label.font = .boldSystemFont(ofSize: 20)
            window.root.addSubview(label)
            let jpeg = try Image(path: fixturesDirectory + "/red-blue.jpg")
            #expect(jpeg.size == Size(width: 64, height: 48))
            var imageViews: [ImageView] = []
            for (i, mode) in [ContentMode.scaleAspectFit, .scaleAspectFill, .center].enumerated() {
                let v = ImageView(frame: Rect(x: 20 + Double(i) * 140, y: 140, width: 128, height: 128))
                v.image = jpeg
                v.contentMode = mode
                v.backgroundColor = .white
                window.root.addSubview(v)
                imageViews.append(v)
            }
            let pngView = ImageView(image: Image(contentsOfFile: png))
            pngView.center = Point(x: 500, y: 60)
            window.root.addSubview(pngView)
            #expect(Image(contentsOfFile: directory.file("missing.png")) == nil)
            let dot = DotView(frame: Rect(x: 460, y: 140, width: 100, height: 100))
            window.root.addSubview(dot)

            let shots = try run(window, steps: [{}], directory: directory)
            let p = try #require(shots.first)
            #expect(near(p.rgb(5, 390), (51, 102, 204)), "root background")
            // The label: white box with dark text pixels, on two lines.
            let top = p.darkCount(x: 20, y: 20, width: 260, height: 40)
            let bottom = p.darkCount(x: 20, y: 60, width: 260, height: 40)
            #expect(top > 150 && bottom > 150, "label text pixels: \(top) top, \(bottom) bottom")
            #expect(near(p.rgb(22, 22), (255, 255, 255)))
            // Fit: letterboxed (white corners), red left, blue right.
            #expect(near(p.rgb(22, 142), (255, 255, 255)))
            #expect(near(p.rgb(24, 204), (254, 0, 0), 30))
            #expect(near(p.rgb(144, 204), (0, 0, 254), 30))
            // Fill: the picture reaches every corner.
            #expect(near(p.rgb(162, 142), (254, 0, 0), 30))
            #expect(near(p.rgb(285, 265), (0, 0, 254), 30))
            // Centre: own size in the middle, white corners.
            #expect(near(p.rgb(302, 142), (255, 255, 255)))
            #expect(near(p.rgb(300 + 34, 140 + 42), (254, 0, 0), 30))
            #expect(near(p.rgb(300 + 94, 140 + 86), (0, 0, 254), 30))
            // The PNG at its own size around (500, 60).
            #expect(near(p.rgb(485, 60), (0, 255, 0)))
            #expect(near(p.rgb(515, 60), (255, 255, 0)))
            // The custom draw: an ellipse, not the corners of its box.
            #expect(near(p.rgb(510, 190), (0, 153, 0)))
            #expect(near(p.rgb(462, 142), (51, 102, 204)))
        }

        @Test("z-order (bringSubviewToFront, sendSubviewToBack), isHidden and alpha")
        func orderHiddenAlpha() throws {
            let server = try TestXServer(width: 640, height: 480)
            let directory = try TemporaryDirectory(prefix: "gestures-views")
            let window = try makeWindow(server)
            let a = View(frame: Rect(x: 50, y: 50, width: 100, height: 100))
            a.backgroundColor = .red
            let b = View(frame: Rect(x: 100, y: 100, width: 100, height: 100))
            b.backgroundColor = .green
            let c = View(frame: Rect(x: 250, y: 50, width: 100, height: 100))
            c.backgroundColor = .black
            let inner = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
            inner.backgroundColor = .blue
            c.addSubview(inner)
            for v in [a, b, c] { window.root.addSubview(v) }
            let shots = try run(
                window,
                steps: [
                    {},
                    { window.root.bringSubviewToFront(a) },
                    { window.root.sendSubviewToBack(a) },
                    {
                        c.alpha = 0.5
                        b.isHidden = true
                    },
                ], directory: directory)
            try #require(shots.count == 4)
            let overlap = (125, 125)
            #expect(near(shots[0].rgb(overlap.0, overlap.1), (0, 255, 0)), "b (added last) in front")
            #expect(near(shots[1].rgb(overlap.0, overlap.1), (255, 0, 0)), "a brought to the front")
            #expect(near(shots[2].rgb(overlap.0, overlap.1), (0, 255, 0)), "a sent to the back")
            #expect(near(shots[3].rgb(overlap.0, overlap.1), (255, 0, 0)), "b hidden: a shows")
            #expect(near(shots[3].rgb(180, 180), (255, 255, 255)), "b hidden: the window shows")
            #expect(near(shots[2].rgb(300, 100), (0, 0, 0)))
            #expect(near(shots[3].rgb(300, 100), (128, 128, 128), 3), "c at alpha 0.5 over white")
            #expect(near(shots[3].rgb(270, 70), (128, 128, 255), 3), "c's subview at c's alpha")
        }

        @Test("A frame that changes one view draws only inside that view's transformed box")
        func damageStaysInView() throws {
            let server = try TestXServer(width: 640, height: 480)
            let directory = try TemporaryDirectory(prefix: "gestures-views")
            let window = try makeWindow(server)
            let other = View(frame: Rect(x: 20, y: 20, width: 60, height: 60))
            other.backgroundColor = .blue
            window.root.addSubview(other)
            let card = View(frame: Rect(x: 200, y: 120, width: 100, height: 60))
            card.backgroundColor = .red
            card.transform = AffineTransform(rotationAngle: 0.3)
            window.root.addSubview(card)
            var frames: [[PixelRect]] = []
            window.shell.onFramePresented = { frames.append($0) }
            var marks: [Int] = []
            _ = try run(
                window,
                steps: [
                    {
                        marks.append(frames.count)
                        card.backgroundColor = .green
                    },
                    {
                        marks.append(frames.count)
                        card.center.x += 50
                    },
                ], directory: directory)
            try #require(marks.count == 2 && frames.count > marks[1])
            // The box of the rotated card, in window pixels, outset by the 2 px antialiasing margin.
            func box(_ r: Rect) -> PixelRect {
                PixelRect(
                    x: Int(r.minX.rounded(.down)) - 2, y: Int(r.minY.rounded(.down)) - 2,
                    width: Int(r.maxX.rounded(.up)) - Int(r.minX.rounded(.down)) + 4,
                    height: Int(r.maxY.rounded(.up)) - Int(r.minY.rounded(.down)) + 4)
            }
            let rotated = card.bounds.applying(
                AffineTransform(translationX: -50, y: -30).concatenating(AffineTransform(rotationAngle: 0.3))
                    .concatenating(AffineTransform(translationX: 250, y: 150)))
            let old = box(rotated)
            let colourFrame = frames[marks[0]]
            let colourArea = colourFrame.reduce(0) { $0 + $1.area }
            print("colour change: \(colourFrame) (\(colourArea) px of 120000); box \(old)")
            #expect(!colourFrame.isEmpty)
            for r in colourFrame { #expect(r.intersection(old) == r, "\(r) outside the card's box \(old)") }
            #expect(colourArea <= old.area)
            // A move: the old and the new box, nothing else.
            var moved = old
            moved.x += 50
            let moveFrame = frames[marks[1]]
            print("move: \(moveFrame)")
            let both = old.union(moved)
            for r in moveFrame { #expect(r.intersection(both) == r, "\(r) outside \(both)") }
            #expect(moveFrame.reduce(0) { $0 + $1.area } <= both.area)
        }
    }
}
