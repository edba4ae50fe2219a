import CX11
import Foundation
import GestureTestSupport
import GesturesDemo
import Testing

@testable import GestureX11

/// The application icon on the window: `_NET_WM_ICON` as EWMH wants it.
@Suite("Window icon (no server)")
struct WindowIconUnitTests {
    @Test(
        "Premultiplied Cairo pixels become straight ARGB",
        arguments: [
            (UInt32(0x0000_0000), UInt32(0x0000_0000)), (0xFF12_3456, 0xFF12_3456), (0x8040_4040, 0x8080_8080),
            (0x4010_2040, 0x4040_80FF), (0x0101_0000, 0x01FF_0000),
        ])
    func unpremultiply(premultiplied: UInt32, straight: UInt32) {
        #expect(WindowIcon.unpremultiply(premultiplied) == straight)
    }

    @Test("The property value is width, height, pixels for each size, in order")
    func cardinals() {
        let icon = WindowIcon(images: [
            .init(width: 1, height: 1, pixels: [0xFF00_00FF]), .init(width: 2, height: 1, pixels: [1, 2]),
        ])
        #expect(icon.cardinals == [1, 1, 0xFF00_00FF, 2, 1, 1, 2])
    }

    @Test("The bundled icon loads at every size the window carries; unreadable files are skipped")
    func bundledIcon() throws {
        let exe = try gesturesBinary()
        let paths = ResourceLocator.windowIconSizes.compactMap {
            ResourceLocator.iconPath(size: $0, override: nil, executable: exe)
        }
        #expect(paths.count == ResourceLocator.windowIconSizes.count, "\(paths)")
        let icon = try #require(WindowIcon(pngs: paths + ["/nonexistent/icon.png"]))
        #expect(icon.images.map(\.width) == [16, 32, 48, 64, 128])
        #expect(icon.images.map(\.height) == [16, 32, 48, 64, 128])
        #expect(WindowIcon(pngs: ["/nonexistent/icon.png", exe]) == nil)
    }
}

extension XServerTests {
    @Suite("gestures run: window icon")
    struct WindowIconOnTheWindow {
        @Test("_NET_WM_ICON holds the bundled icon at 16…128 px: transparent corners, the flower's golden centre")
        func netWMIcon() throws {
            let session = try AppSession(size: "400x300")
            defer { session.close() }
            let app = session.app
            let values = session.connection.property(app.window, "_NET_WM_ICON", longs: 1 << 16)
                .map { UInt32(truncatingIfNeeded: $0) }
            // Walk the sizes: width, height, then width × height pixels each.
            var sizes: [[Int]] = []
            var centres: [UInt32] = []
            var corners: [UInt32] = []
            var i = 0
            while i + 2 <= values.count {
                let (w, h) = (Int(values[i]), Int(values[i + 1]))
                guard w > 0, h > 0, i + 2 + w * h <= values.count else { break }
                sizes.append([w, h])
                corners.append(values[i + 2])
                centres.append(values[i + 2 + (h / 2) * w + w / 2])
                i += 2 + w * h
            }
            #expect(i == values.count, "\(values.count) values, walked \(i)")
            #expect(sizes == [[16, 16], [32, 32], [48, 48], [64, 64], [128, 128]])
            #expect(corners.allSatisfy { $0 >> 24 == 0 }, "corners \(corners.map { String($0, radix: 16) })")
            for c in centres {
                let (a, r, g, b) = (c >> 24, (c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF)
                // The flower's centre, (0.98, 0.78, 0.20) in make-icon.py, opaque.
                #expect(a == 255 && r > 220 && (170...215).contains(g) && b < 90, "centre \(String(c, radix: 16))")
            }
            // Exactly the PNGs the app found (the repository's Resources/icons in a dev build).
            let exe = try gesturesBinary()
            let expected = WindowIcon(
                pngs: ResourceLocator.windowIconSizes.compactMap {
                    ResourceLocator.iconPath(size: $0, override: nil, executable: exe)
                })
            #expect(values == expected?.cardinals)
        }
    }
}
