import CX11
import Foundation
import GestureTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The built `gestures` executable: `$GESTURES_BINARY`, else the one next to the test bundle
/// (`<scratch>/debug/gestures`, which `swift build` / `swift test` build with the tests).
func gesturesBinary() throws -> String {
    if let path = ProcessInfo.processInfo.environment["GESTURES_BINARY"], !path.isEmpty {
        guard access(path, X_OK) == 0 else {
            throw XTestError("GESTURES_BINARY=\(path) is not executable")
        }
        return path
    }
    let bundle =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    var dir = URL(fileURLWithPath: bundle).deletingLastPathComponent()
    for _ in 0..<3 {
        let candidate = dir.appendingPathComponent("gestures").path
        if access(candidate, X_OK) == 0 { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    throw XTestError(
        "the gestures executable is not next to the test bundle (\(bundle)); build it first "
            + "(swift build) or set GESTURES_BINARY")
}

/// `gestures run` on a test X server: its event log, its window, and input helpers that
/// translate window points to screen pixels using the layout the app itself reports.
final class GesturesApp {
    let process: ChildProcess
    let log: EventLog
    let directory: TemporaryDirectory
    let connection: XConnection
    private(set) var window: Window = 0
    /// Screen pixel of window point (0, 0).
    private(set) var origin: (x: Double, y: Double) = (0, 0)
    /// Pixels per point (window pixel width / layout width).
    private(set) var scale = 1.0
    private(set) var layout = Layout(width: 0, height: 0, regions: [:])

    var stderrPath: String { directory.file("stderr.txt") }
    var stderr: String { readText(stderrPath) }

    init(
        on display: String, connection: XConnection, arguments: [String] = [],
        size: String = "1024x768", timeout: Double = 20, environment extra: [String: String] = [:]
    ) throws {
        self.connection = connection
        directory = try TemporaryDirectory(prefix: "gestures-app")
        let logPath = directory.file("events.jsonl")
        log = EventLog(path: logPath)
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment.merge(extra) { $1 }
        process = try ChildProcess(
            try gesturesBinary(),
            ["run", "--size", size, "--log-events", logPath] + arguments,
            environment: environment, stdout: .file(directory.file("stdout.txt")),
            stderr: .file(directory.file("stderr.txt")))
        do {
            try waitUntilReady(timeout: timeout)
        } catch {
            process.stop()
            throw XTestError("\(error)\napp stderr: \(tail(stderrPath, lines: 10))")
        }
    }

    deinit { process.stop() }

    /// Ready = the layout line, then the `ready` line the app logs once its first frame is on
    /// screen (input reaches the window from then on), with the window id and pixels per point.
    private func waitUntilReady(timeout: Double) throws {
        let (_, first) = try log.waitFor("layout line", timeout: timeout) { line in
            !process.isRunning || line.type == "layout"
        }
        let (_, ready) = try log.waitFor("ready line", timeout: timeout) { line in
            !process.isRunning || line.type == "ready"
        }
        guard process.isRunning else {
            throw XTestError("gestures run exited with status \(process.wait(timeout: 1) ?? -1)")
        }
        guard let layout = first.layout, let id = ready.number("window") else {
            throw XTestError("malformed layout or ready line: \(first) \(ready)")
        }
        self.layout = layout
        window = Window(id)
        guard let g = connection.geometry(of: window), g.viewable else {
            throw XTestError("the ready line names window \(window), which is not mapped")
        }
        updateGeometry()
        if let s = ready.number("scale"), s > 0 { scale = s }
    }

    /// Re-reads the window position and the pixel/point ratio.
    func updateGeometry() {
        guard let g = connection.geometry(of: window) else { return }
        origin = (Double(g.x), Double(g.y))
        if layout.width > 0 { scale = Double(g.width) / layout.width }
    }

    /// Waits for the next layout line after log index `start` (after a resize).
    @discardableResult
    func waitForLayout(after start: Int, timeout: Double = 5) throws -> Layout {
        let (_, line) = try log.waitFor("new layout line", from: start, timeout: timeout) {
            $0.type == "layout"
        }
        layout = line.layout!
        updateGeometry()
        return layout
    }

    func region(_ name: String) throws -> LayoutRect { try layout.region(name) }

    /// Screen pixel of a window point.
    func screen(_ p: LayoutPoint) -> (Double, Double) {
        (origin.x + p.x * scale, origin.y + p.y * scale)
    }

    /// Window point of a screen pixel.
    func point(screenX: Double, screenY: Double) -> LayoutPoint {
        LayoutPoint(x: (screenX - origin.x) / scale, y: (screenY - origin.y) / scale)
    }

    func screenshot() throws -> Screenshot { try connection.screenshot(window) }

    /// Screenshot pixels are window pixels: converts a layout rect (points) to pixels.
    func pixelRect(_ r: LayoutRect) -> LayoutRect {
        LayoutRect(x: r.x * scale, y: r.y * scale, width: r.width * scale, height: r.height * scale)
    }

    // MARK: - Mouse input through XTest (Xvfb or Xorg)

    /// Re-read the window's position before every pointer event (``move(to:on:)``), as a hand
    /// follows a window that moves: for a window manager that moves the window after it is
    /// mapped, at a moment of its own (Weston: see `XServerTests.Xwayland`). Default false: one
    /// round trip fewer per event where the window stays where it mapped.
    var followsWindow = false

    /// Moves the core pointer to a window point.
    func move(to p: LayoutPoint, on connection: XConnection? = nil) {
        if followsWindow { updateGeometry() }
        let (x, y) = screen(p)
        (connection ?? self.connection).move(to: x, y)
    }

    /// Button 1 click at a window point.
    func click(at p: LayoutPoint) {
        move(to: p)
        connection.button(1, pressed: true)
        pause(0.03)
        connection.button(1, pressed: false)
        connection.sync()
    }

    /// A button-1 drag through `points` (window points), `interval` seconds between motions,
    /// with `modifiers` (keysyms) held from before the press until after the release. `midway`
    /// runs after `midwayAfter` motions with the button still down. `rest` is the pause at the
    /// last point before the release (≥ 0.05 s: the finger has stopped, so the app's momentum
    /// does not carry the picture on).
    func drag(
        _ points: [LayoutPoint], interval: Double = 0.01, modifiers: [Int32] = [],
        midwayAfter: Int? = nil, rest: Double = 0, midway: (() throws -> Void)? = nil
    ) throws {
        guard let first = points.first else { return }
        move(to: first)
        for m in modifiers { connection.key(m, pressed: true) }
        connection.sync()
        pause(interval)
        connection.button(1, pressed: true)
        for (i, p) in points.dropFirst().enumerated() {
            pause(interval)
            if i == midwayAfter, let midway { try midway() }
            move(to: p)
            connection.sync()
        }
        pause(max(interval, rest))
        connection.button(1, pressed: false)
        for m in modifiers.reversed() { connection.key(m, pressed: false) }
        connection.sync()
    }

    /// Sends a key chord to the app's window (focus it first: there is no window manager).
    func keyChord(_ modifiers: [Int32], _ key: Int32) {
        move(to: LayoutPoint(x: layout.width / 2, y: layout.height / 2))
        connection.focus(window)
        connection.chord(modifiers, key)
    }

    /// Waits for the app to exit; its status.
    func waitForExit(timeout: Double) -> Int32? { process.wait(timeout: timeout) }
}

/// `count + 1` points evenly spaced from `a` to `b`.
func straightPath(from a: LayoutPoint, to b: LayoutPoint, steps count: Int) -> [LayoutPoint] {
    (0...count).map { i in
        let t = Double(i) / Double(count)
        return LayoutPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
}

/// `count + 1` points on a circle around `center`, angles (radians, clockwise in y-down
/// coordinates) from `start` to `end`.
func arc(
    around center: LayoutPoint, radius: Double, from start: Double, to end: Double, steps count: Int
) -> [LayoutPoint] {
    (0...count).map { i in
        let a = start + (end - start) * Double(i) / Double(count)
        return LayoutPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
    }
}
