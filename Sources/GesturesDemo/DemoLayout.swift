import GestureKit
import GestureTrace

/// The demo screen's layout: where the feedback label, the four gesture regions and the image
/// go in a window of a given size. UIKit counterpart: the tutorial's Auto Layout constraints,
/// here as plain proportions of the window, recomputed on every resize.
///
/// Proportions (W × H is the window):
///
/// ```
///  ┌──────────────────────────────────────────────┐  y
///  │             feedback label                   │  0.02 H … 0.10 H   (x 0.05 W … 0.95 W)
///  │  ┌───────────────────┐  ┌───────────────────┐│  0.12 H
///  │  │     Tap Me!       │  │    Swipe Me!      ││  row height 0.19 H
///  │  └───────────────────┘  └───────────────────┘│  0.31 H
///  │  ┌───────────────────┐  ┌───────────────────┐│  0.33 H
///  │  │     Pinch Me!     │  │    Rotate Me!     ││
///  │  └───────────────────┘  └───────────────────┘│  0.52 H
///  │               ┌────────┐                     │  0.54 H
///  │               │ flower │                     │  image area 0.54 H … 0.98 H
///  │               └────────┘                     │
///  └──────────────────────────────────────────────┘
///     0.05 W     0.49 W  0.51 W               0.95 W
/// ```
///
/// Columns are 0.44 W wide with a 0.02 W gutter; rows are 0.19 H tall with a 0.02 H gutter. The
/// image keeps its aspect ratio: it is the largest rectangle of that ratio that fits the image
/// area (0.05 W … 0.95 W × 0.54 H … 0.98 H), centred in it.
public struct DemoLayout: Hashable, Sendable {
    /// The window size the layout was made for, points.
    public let size: Size
    public let label: Rect
    public let tap: Rect
    public let swipe: Rect
    public let pinch: Rect
    public let rotate: Rect
    /// The image's untransformed frame (its "original rect"): where shake puts it back.
    public let image: Rect

    /// The image size the layout assumes when no image is loaded (that of `flower.png`).
    public static let defaultImageSize = Size(width: 300, height: 300)

    /// Lays the screen out for a window of `size` and an image of `imageSize` (only its aspect
    /// ratio matters). Degenerate sizes (zero, negative, not finite) lay out as zero.
    public init(size: Size, imageSize: Size = DemoLayout.defaultImageSize) {
        let w = size.width.isFinite ? max(0, size.width) : 0
        let h = size.height.isFinite ? max(0, size.height) : 0
        self.size = Size(width: w, height: h)
        label = Rect(x: 0.05 * w, y: 0.02 * h, width: 0.90 * w, height: 0.08 * h)
        let colW = 0.44 * w
        let rowH = 0.19 * h
        let left = 0.05 * w
        let right = 0.51 * w
        let top = 0.12 * h
        let bottom = 0.33 * h
        tap = Rect(x: left, y: top, width: colW, height: rowH)
        swipe = Rect(x: right, y: top, width: colW, height: rowH)
        pinch = Rect(x: left, y: bottom, width: colW, height: rowH)
        rotate = Rect(x: right, y: bottom, width: colW, height: rowH)
        let area = Rect(x: 0.05 * w, y: 0.54 * h, width: 0.90 * w, height: 0.44 * h)
        let iw = imageSize.width > 0 && imageSize.width.isFinite ? imageSize.width : 1
        let ih = imageSize.height > 0 && imageSize.height.isFinite ? imageSize.height : 1
        let k = min(area.width / iw, area.height / ih)
        let fw = iw * k
        let fh = ih * k
        image = Rect(x: area.midX - fw / 2, y: area.midY - fh / 2, width: fw, height: fh)
    }

    /// The regions in the order of the layout line, with their log names.
    public var namedRegions: [(name: String, rect: Rect)] {
        [
            ("tap", tap), ("swipe", swipe), ("pinch", pinch), ("rotate", rotate),
            ("label", label), ("image", image),
        ]
    }

    /// The layout line of the event log (docs/DESIGN.md §4.2):
    /// `{"type":"layout","width":W,"height":H,"regions":{"tap":[x,y,w,h],…}}`.
    public var line: String {
        var regions = JSONLine()
        for (name, r) in namedRegions {
            regions.add(name, [r.minX, r.minY, r.width, r.height])
        }
        var l = JSONLine()
        l.add("type", "layout")
        addDimension(&l, "width", size.width)
        addDimension(&l, "height", size.height)
        l.add("regions", regions)
        return l.text
    }
}

/// Writes a window dimension as an integer when it is one (`1024`), else as a number (`1024.5`).
func addDimension(_ line: inout JSONLine, _ key: String, _ value: Double) {
    if value == value.rounded(), value.magnitude < 1e9 {
        line.add(key, Int(value))
    } else {
        line.add(key, value)
    }
}
