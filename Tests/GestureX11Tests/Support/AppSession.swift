import CX11
import Foundation
import GestureTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A test X server, a test client connection and `gestures run`, torn down in the safe order:
/// the app, then the connection (Xlib exits on a dead server), then the server.
final class AppSession {
    let display: String
    let connection: XConnection
    let app: GesturesApp
    private var stopServer: (() -> Void)?

    /// The app on a fresh Xvfb.
    convenience init(
        arguments: [String] = [], size: String = "1024x768", serverArguments: [String] = [],
        environment: [String: String] = [:]
    ) throws {
        let server = try TestXServer(extraArguments: serverArguments)
        try self.init(display: server.display, arguments: arguments, size: size, environment: environment) {
            server.stop()
        }
    }

    /// The app on an already running server (stopped with the session).
    init(
        display: String, arguments: [String] = [], size: String = "1024x768",
        environment: [String: String] = [:], stop: @escaping () -> Void
    ) throws {
        self.display = display
        stopServer = stop
        do {
            connection = try XConnection(display)
        } catch {
            stop()
            throw error
        }
        do {
            app = try GesturesApp(
                on: display, connection: connection, arguments: arguments, size: size, environment: environment)
        } catch {
            connection.close()
            stop()
            throw error
        }
    }

    func close() {
        app.process.stop()
        connection.close()
        stopServer?()
        stopServer = nil
    }

    deinit { close() }
}

// MARK: - Log checks shared by the tests

extension GesturesApp {
    /// The gesture lines of `recognizer` from log index `start` on.
    func lines(of recognizer: String, from start: Int = 0) -> [LogLine] {
        log.lines(from: start).filter { $0.isGesture && $0.recognizer == recognizer }
    }

    /// Waits for `recognizer` to reach `state` (after log index `start`).
    @discardableResult
    func waitFor(
        _ recognizer: String, _ state: String, from start: Int = 0, timeout: Double = 5
    ) throws -> LogLine {
        try log.waitFor("\(recognizer) \(state) line", from: start, timeout: timeout) {
            $0.isGesture && $0.recognizer == recognizer && $0.state == state
        }.line
    }
}

/// A one-line summary of some log lines for failure messages.
func summary(_ lines: [LogLine]) -> String {
    lines.map(\.text).joined(separator: "\n")
}

// MARK: - Pixel checks

extension Screenshot {
    /// The pixels of a rectangle (clipped to the image).
    func pixels(in rect: LayoutRect) -> [UInt32] {
        let x0 = max(0, Int(rect.x.rounded(.up)))
        let y0 = max(0, Int(rect.y.rounded(.up)))
        let x1 = min(width, Int((rect.x + rect.width).rounded(.down)))
        let y1 = min(height, Int((rect.y + rect.height).rounded(.down)))
        guard x0 < x1, y0 < y1 else { return [] }
        var result: [UInt32] = []
        result.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 { result += pixels[(y * width + x0)..<(y * width + x1)] }
        return result
    }

    /// The fraction of the pixels of `rect` (window pixels) within `tolerance` of `color`.
    func fraction(of color: UInt32, in rect: LayoutRect, tolerance: Int = 3) -> Double {
        let px = pixels(in: rect)
        guard !px.isEmpty else { return 0 }
        return Double(px.filter { colorDistance($0, color) <= tolerance }.count) / Double(px.count)
    }

    /// How well `after` shows this picture moved by `mapping` (window pixels → window pixels):
    /// over a grid of sample points in `rect` whose colour is not `ignoring` (the background
    /// showing through a transparent image), the fraction whose mapped pixel in `after` has
    /// the same colour (within `tolerance`, for resampling). Sample points that map outside
    /// `after`, and those under `overlays` before or after the move (translucent regions drawn
    /// over the image), are skipped.
    func match(
        _ after: Screenshot, in rect: LayoutRect, ignoring background: UInt32,
        excluding overlays: [LayoutRect] = [], tolerance: Int = 40,
        mapping: (Double, Double) -> (Double, Double)
    ) -> (fraction: Double, samples: Int) {
        var samples = 0
        var matched = 0
        let steps = 40
        for i in 0..<steps {
            for j in 0..<steps {
                let x = rect.x + rect.width * (Double(i) + 0.5) / Double(steps)
                let y = rect.y + rect.height * (Double(j) + 0.5) / Double(steps)
                let xi = Int(x)
                let yi = Int(y)
                guard xi >= 0, yi >= 0, xi < width, yi < height else { continue }
                let before = pixel(xi, yi)
                guard colorDistance(before, background) > 12 else { continue }
                let (mx, my) = mapping(x, y)
                let mxi = Int(mx)
                let myi = Int(my)
                guard mxi >= 0, myi >= 0, mxi < after.width, myi < after.height else { continue }
                let covered = overlays.contains {
                    $0.contains(LayoutPoint(x: x, y: y)) || $0.contains(LayoutPoint(x: mx, y: my))
                }
                if covered { continue }
                samples += 1
                if colorDistance(after.pixel(mxi, myi), before) <= tolerance { matched += 1 }
            }
        }
        return (samples == 0 ? 0 : Double(matched) / Double(samples), samples)
    }
}

extension GesturesApp {
    /// How well `after` shows the picture of `before` (inside the layout's image rect) mapped
    /// by `mapping` (window points relative to the image's centre → the same), leaving out the
    /// translucent regions and the label drawn over it. The background is the colour of the
    /// window's top-left corner.
    func imageMatch(
        before: Screenshot, after: Screenshot, mapping: @escaping (Double, Double) -> (Double, Double)
    ) throws -> (fraction: Double, samples: Int) {
        let image = pixelRect(try region("image"))
        let overlays = try ["tap", "swipe", "pinch", "rotate", "label"].map {
            pixelRect(try region($0))
        }
        let (cx, cy) = (image.midX, image.midY)
        let s = scale
        return before.match(
            after, in: image, ignoring: before.pixel(2, 2), excluding: overlays
        ) { x, y in
            let (mx, my) = mapping((x - cx) / s, (y - cy) / s)
            return (cx + mx * s, cy + my * s)
        }
    }
}

/// Scaling by `s` about the origin.
func scaling(_ s: Double) -> (Double, Double) -> (Double, Double) {
    { x, y in (x * s, y * s) }
}

/// Rotation by `angle` radians about the origin, clockwise positive on screen (y down).
func rotating(_ angle: Double) -> (Double, Double) -> (Double, Double) {
    { x, y in (x * cos(angle) - y * sin(angle), x * sin(angle) + y * cos(angle)) }
}

/// 0xRRGGBB of a colour with components 0…1, as Cairo writes it to a 24-bit visual.
func rgb(_ r: Double, _ g: Double, _ b: Double) -> UInt32 {
    func c(_ v: Double) -> UInt32 { UInt32((v * 255).rounded()) }
    return c(r) << 16 | c(g) << 8 | c(b)
}

// MARK: - Keysyms (X11/keysymdef.h)

enum Keysym {
    static let controlL: Int32 = 0xffe3
    static let shiftL: Int32 = 0xffe1
    static let z: Int32 = 0x7a
}
