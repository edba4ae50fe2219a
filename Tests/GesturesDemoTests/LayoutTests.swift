import GestureKit
import GestureTestSupport
import GesturesDemo
import Testing

@Suite struct LayoutTests {
    static let sizes: [Size] = [
        Size(width: 1024, height: 768), Size(width: 800, height: 600), Size(width: 1920, height: 1080),
        Size(width: 320, height: 480), Size(width: 3000, height: 500), Size(width: 500, height: 3000),
        Size(width: 1281.5, height: 799.25),
    ]

    @Test(arguments: sizes)
    func regionsInsideTheWindowWithoutOverlap(size: Size) {
        let l = DemoLayout(size: size)
        let window = Rect(origin: .zero, size: size)
        let rects = l.namedRegions
        for (name, r) in rects {
            #expect(r.width > 0 && r.height > 0, "\(name) is empty")
            #expect(r.minX >= window.minX && r.minY >= window.minY, "\(name) outside")
            #expect(r.maxX <= window.maxX + 1e-9 && r.maxY <= window.maxY + 1e-9, "\(name) outside")
        }
        for i in rects.indices {
            for j in rects.indices where j > i {
                let a = rects[i].rect
                let b = rects[j].rect
                let overlapX = min(a.maxX, b.maxX) - max(a.minX, b.minX)
                let overlapY = min(a.maxY, b.maxY) - max(a.minY, b.minY)
                #expect(overlapX <= 1e-9 || overlapY <= 1e-9, "\(rects[i].name) overlaps \(rects[j].name)")
            }
        }
    }

    @Test(arguments: sizes)
    func proportionalToTheWindow(size: Size) {
        let l = DemoLayout(size: size)
        let ref = layout1024
        let fx = size.width / 1024
        let fy = size.height / 768
        for ((name, r), (_, r0)) in zip(l.namedRegions, ref.namedRegions) where name != "image" {
            #expect(abs(r.minX - r0.minX * fx) < 1e-9 && abs(r.width - r0.width * fx) < 1e-9, "\(name)")
            #expect(abs(r.minY - r0.minY * fy) < 1e-9 && abs(r.height - r0.height * fy) < 1e-9, "\(name)")
        }
        // The image keeps the picture's aspect ratio and is centred in its area.
        #expect(abs(l.image.width - l.image.height) < 1e-9)
        #expect(abs(l.image.midX - size.width / 2) < 1e-9)
        #expect(abs(l.image.midY - 0.76 * size.height) < 1e-9)
        #expect(l.image.width <= 0.90 * size.width + 1e-9 && l.image.height <= 0.44 * size.height + 1e-9)
        #expect(
            abs(l.image.width - 0.90 * size.width) < 1e-9 || abs(l.image.height - 0.44 * size.height) < 1e-9)
    }

    @Test func imageKeepsAWideAspectRatio() {
        let l = DemoLayout(size: Size(width: 1024, height: 768), imageSize: Size(width: 400, height: 100))
        #expect(abs(l.image.width / l.image.height - 4) < 1e-9)
        #expect(abs(l.image.width - 921.6) < 1e-9)
    }

    @Test func layoutLine() {
        #expect(
            layout1024.line
                == """
                {"type":"layout","width":1024,"height":768,"regions":{"tap":[51.2,92.16,450.56,145.92],\
                "swipe":[522.24,92.16,450.56,145.92],"pinch":[51.2,253.44,450.56,145.92],\
                "rotate":[522.24,253.44,450.56,145.92],"label":[51.2,15.36,921.6,61.44],\
                "image":[343.04,414.72,337.92,337.92]}}
                """)
        #expect(
            DemoLayout(size: Size(width: 1000.5, height: 700)).line.hasPrefix(
                #"{"type":"layout","width":1000.5,"height":700,"#))
    }

    @Test func degenerateSizesLayOutAsZero() {
        let l = DemoLayout(size: Size(width: -5, height: .nan))
        #expect(l.size == .zero)
        #expect(l.namedRegions.allSatisfy { $0.rect.width == 0 && $0.rect.height == 0 })
    }
}

@Suite struct FeedbackTests {
    @Test(arguments: [
        (0.0, "0.00"), (1.734, "1.73"), (1.735, "1.74"), (-0.001, "-0.00"), (-2.5, "-2.50"), (0.125, "0.12"),
        (0.375, "0.38"), (1.999, "2.00"), (123456.789, "123456.79"), (Double.nan, "nan"), (Double.infinity, "inf"),
        (-Double.infinity, "-inf"), (1e20, "100000000000000000000.00"), (0.995, "0.99"), (9.995, "9.99"),
    ])
    func twoDecimalsLikePrintf(value: Double, text: String) {
        #expect(format2(value) == text)
    }

    @Test func texts() {
        #expect(Feedback.initial.text == "Do something!")
        #expect(Feedback.tapped.text == "Tapped")
        #expect(Feedback.swiped(.up).text == "Swiped up")
        #expect(Feedback.pinched(scale: 1.734, velocity: 0.95).text == "Pinched, Scale: 1.73, Velocity: 0.95")
        #expect(Feedback.rotated(radians: 1.5708, velocity: 0).text == "Rotated, Radians: 1.57, Velocity: 0.00")
        #expect(Feedback.shaking.text == "Shaking things up!")
        #expect(Feedback.panned(dx: 12, dy: -3.456).text == "Panned, X: 12.00, Y: -3.46")
        #expect(Feedback.longPressed.text == "Long pressed")
        #expect(Feedback.edgePanned(dx: 80, dy: 0).text == "Edge panned, X: 80.00, Y: 0.00")
        #expect(Feedback.keyScaled(scale: 1.1).text == "Scaled, Scale: 1.10")
        #expect(Feedback.keyRotated(radians: -0.2618).text == "Rotated, Radians: -0.26")
        #expect(Feedback.keyMoved(dx: 10, dy: 0).text == "Moved, X: 10.00, Y: 0.00")
    }
}
