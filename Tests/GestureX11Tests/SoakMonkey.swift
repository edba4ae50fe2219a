import CX11
import Foundation
import GestureTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Where the soak believes the flower is: its centre (window points), its scale relative to its
/// original frame and its angle (radians, clockwise), from the keys' known steps and the values
/// the recognizers log. `certain` is false once an input did something the soak did not plan
/// (then a shake puts the flower back home).
struct FlowerModel: CustomStringConvertible {
    var center: LayoutPoint
    var scale = 1.0
    var angle = 0.0
    var certain = true

    init(home layout: Layout) {
        center = (try? layout.region("image"))?.center ?? LayoutPoint(x: 0, y: 0)
    }

    /// The radius of the disc inside the picture: half its shorter side, scaled.
    func innerRadius(_ layout: Layout) -> Double {
        guard let home = try? layout.region("image") else { return 0 }
        return min(home.width, home.height) / 2 * scale
    }

    /// Whether it sits in its original frame.
    func isHome(_ layout: Layout) -> Bool {
        let home = FlowerModel(home: layout).center
        return abs(center.x - home.x) < 0.01 && abs(center.y - home.y) < 0.01 && abs(scale - 1) < 1e-9
            && abs(angle) < 1e-9
    }

    /// After a resize: the centre keeps its place in proportion to the window (docs/DESIGN.md §5 via
    /// `DemoScene.resize`); scale and angle are relative to the original frame, which follows.
    mutating func resize(from old: Layout, to new: Layout) {
        guard old.width > 0, old.height > 0 else { return }
        center = LayoutPoint(x: center.x * new.width / old.width, y: center.y * new.height / old.height)
    }

    /// The app's scale limits (`DemoScene.minimumImageScale`…`maximumImageScale`): keys stop
    /// there, and a pinch past them springs back to them (about the fingers, which the soak
    /// keeps at the flower's centre).
    static let scaleLimits = 0.1...10.0

    /// `scale` held in ``scaleLimits``.
    static func limited(_ scale: Double) -> Double {
        min(max(scale, scaleLimits.lowerBound), scaleLimits.upperBound)
    }

    /// Scales by `f` as the app ends up doing: within the limits.
    mutating func scale(by f: Double) {
        scale = Self.limited(scale * f)
    }

    /// Scaling by `f` and turning by `a` about `pivot`, as the image's own gestures do (the
    /// scale held in the limits, as after the spring back).
    mutating func transform(scale raw: Double, rotation a: Double, about pivot: LayoutPoint) {
        let f = Self.limited(scale * raw) / scale
        let dx = center.x - pivot.x
        let dy = center.y - pivot.y
        center = LayoutPoint(
            x: pivot.x + f * (dx * cos(a) - dy * sin(a)), y: pivot.y + f * (dx * sin(a) + dy * cos(a)))
        scale *= f
        angle += a
    }

    var description: String {
        "flower at (\(fixed(center.x, 1)), \(fixed(center.y, 1))) scale \(fixed(scale, 3)) angle "
            + "\(fixed(angle * 180 / .pi, 1))°" + (certain ? "" : " (lost track)")
    }
}

/// `value` with `decimals` digits after the point.
func fixed(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

/// What the soak saw.
struct SoakStats {
    var bursts = 0
    var pauses = 0
    var kinds: [String: Int] = [:]
    /// Answer times (seconds) of the bursts that had to change the picture.
    var answers: [Double] = []
    /// The five slowest answers, with their context.
    var slowest: [(time: Double, context: String)] = []
    var misses: [String] = []
    /// Bursts meant to change the picture whose gesture the app did not recognize (so the
    /// picture need not change): not misses, but reported.
    var unrecognized: [String] = []
    /// Bursts that need not change the picture, and how many of them got damage anyway.
    var unmeasured = 0
    var answeredAnyway = 0
    /// Times the window did not go quiet (2 s) before a measured input.
    var neverQuiet: [String] = []
    var maxSegments = 0
    var segmentViolations: [String] = []
    /// The flower not under its model's centre on screen.
    var lost: [String] = []
    var resets = 0
    var minScale = 1.0
    var maxScale = 1.0
    var angleBins = Set<Int>()
    /// (seconds into the soak, app RSS KiB, X server RSS KiB) at each checkpoint.
    var rss: [(t: Double, app: Int, server: Int)] = []

    mutating func note(_ flower: FlowerModel) {
        guard flower.certain else { return }
        minScale = min(minScale, flower.scale)
        maxScale = max(maxScale, flower.scale)
        let turn = 2 * Double.pi
        let a = flower.angle - turn * (flower.angle / turn).rounded(.down)
        angleBins.insert(min(11, Int(a / (turn / 12))))
    }
}

/// The monkey: one Xorg + dummy + inputtest server, `gestures run`, a second MPX master pointer
/// driven through XTest on a connection of its own, and DAMAGE on the app's window.
final class Monkey {
    let config: SoakConfig
    var rng: SplitMix64
    let server: XorgInputTest
    let session: AppSession
    /// XTest on this connection drives the second master pointer.
    let second: XConnection
    let watch: DamageWatch
    let homeSize: (width: Int, height: Int)
    var flower: FlowerModel
    /// The label as the last gesture line showed it ("(key)" after a key command).
    var label = "Do something!"
    var background: UInt32 = 0
    /// When the flower's scale or angle last changed (its settle redraw follows 0.1 s later).
    var lastLinearChange = -10.0
    var stats = SoakStats()
    var nextTouchID: UInt32 = 1
    /// The scale tide: towards 10 (true) or towards 0.1.
    var growing = true
    var burstStart = 0
    var burstName = ""
    let started = monotonicNow()

    var app: GesturesApp { session.app }
    var x: XConnection { session.connection }
    var layout: Layout { app.layout }
    var elapsed: Double { monotonicNow() - started }

    /// glibc's malloc with fixed thresholds: blocks of 128 KiB and more are mapped on their own
    /// and returned when freed, and the heap's free top is trimmed past 128 KiB. By default the
    /// thresholds grow with the largest block freed (up to 32 MiB mapped, twice that kept at the
    /// top), so after one large picture copy the RSS keeps a high-water mark of freed memory:
    /// a step, not growth. Fixed, the RSS follows what the app holds.
    static let appEnvironment = ["MALLOC_MMAP_THRESHOLD_": "131072", "MALLOC_TRIM_THRESHOLD_": "131072"]

    init(config: SoakConfig) throws {
        self.config = config
        rng = SplitMix64(seed: config.seed)
        let server = try XorgInputTest()
        self.server = server
        session = try AppSession(display: server.display, environment: Self.appEnvironment) { server.stop() }
        do {
            let master = try session.connection.createMasterPointer("soak")
            second = try XConnection(server.display)
            second.setClientPointer(master)
            watch = try DamageWatch(display: server.display, window: session.app.window)
        } catch {
            session.close()
            throw error
        }
        flower = FlowerModel(home: session.app.layout)
        homeSize = (Int(session.app.layout.width), Int(session.app.layout.height))
        session.connection.focus(session.app.window)
        background = session.connection.patch(of: session.app.window, x: 2, y: 2, width: 1, height: 1)?.first ?? 0
    }

    func close() {
        watch.close()
        second.close()
        session.close()
    }

    // MARK: Randomness (SplitMix64 only, so a seed replays)

    func uniform(_ a: Double, _ b: Double) -> Double {
        a + (b - a) * Double(rng.next() >> 11) / Double(UInt64(1) << 53)
    }
    func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(rng.next() % UInt64(range.count))
    }
    func chance(_ p: Double) -> Bool { uniform(0, 1) < p }
    func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    // MARK: Geometry

    func rect(_ name: String) -> LayoutRect {
        (try? layout.region(name)) ?? LayoutRect(x: 0, y: 0, width: 0, height: 0)
    }
    var regions: [LayoutRect] { ["tap", "swipe", "pinch", "rotate"].map(rect) }

    /// Where the flower's centre is kept: below the regions, away from the window's edges.
    var safeBox: LayoutRect {
        let top = regions.map { $0.y + $0.height }.max() ?? 0
        let y0 = top + 0.3 * (layout.height - top)
        return LayoutRect(x: layout.width * 0.15, y: y0, width: layout.width * 0.7, height: layout.height * 0.9 - y0)
    }

    /// Inside the window by `margin`.
    func inWindow(_ p: LayoutPoint, margin: Double = 2) -> Bool {
        p.x >= margin && p.y >= margin && p.x <= layout.width - margin && p.y <= layout.height - margin
    }

    /// Both fingers of a two-finger gesture about `c`, `r` · `f` from it in any direction, stay
    /// inside the window (once down, a finger keeps its view wherever it goes).
    func fits(_ c: LayoutPoint, _ radius: Double) -> Bool {
        [(1.0, 0.0), (-1, 0), (0, 1), (0, -1)].allSatisfy { inWindow(c + (radius * $0.0, radius * $0.1)) }
    }

    /// Inside the window by `margin` and on no region (a press there reaches the image or the root).
    func isFree(_ p: LayoutPoint, margin: Double = 4) -> Bool {
        inWindow(p, margin: margin) && !regions.contains { $0.insetBy(-margin).contains(p) }
    }

    /// The window point of the pixel XTest puts the pointer on for `p`.
    func snap(_ p: LayoutPoint) -> LayoutPoint {
        let (sx, sy) = app.screen(p)
        return app.point(screenX: sx.rounded(), screenY: sy.rounded())
    }

    func randomPoint(in r: LayoutRect) -> LayoutPoint {
        LayoutPoint(x: uniform(r.x, r.x + r.width), y: uniform(r.y, r.y + r.height))
    }

    /// A pinch factor for the scale tide (mostly towards 10 or 0.1, turning at either end),
    /// kept within the app's limits, 0.1…10, overall (the app springs back from past them).
    ///
    /// The walk goes up to ~10, then down to ~0.1, and back. It first heads for an extreme not yet
    /// visited (so a shake that puts the flower home halfway does not undo the coverage a short
    /// run must reach: without it, seed 841941072852 reached 10.98 and then only 0.559 in 60 s).
    func pinchFactor(_ low: Double = 1.3, _ high: Double = 2.2) -> Double {
        if stats.maxScale < 8 && stats.minScale <= 0.12 { growing = true }
        if stats.minScale > 0.12 && stats.maxScale >= 8 { growing = false }
        if flower.scale >= 9.5 { growing = false }
        if flower.scale <= 0.105 { growing = true }
        let f = uniform(low, high)
        let grow = chance(0.8) ? growing : !growing
        let limits = FlowerModel.scaleLimits
        return min(max(grow ? f : 1 / f, limits.lowerBound / flower.scale), limits.upperBound / flower.scale)
    }

    /// A turn, radians: mostly clockwise, so the flower goes round.
    func turn(_ low: Double = 0.3, _ high: Double = 1.6) -> Double {
        (chance(0.75) ? 1 : -1) * uniform(low, high)
    }

    // MARK: Bursts

    func begin(_ name: String) {
        stats.bursts += 1
        stats.kinds[name, default: 0] += 1
        burstName = name
        burstStart = app.log.count
    }

    /// A failure's context: the seed, the burst and the flower.
    func context(_ detail: String = "") -> String {
        "seed \(config.seed), burst \(stats.bursts) at \(fixed(elapsed, 1)) s: \(burstName)"
            + (detail.isEmpty ? "" : " (\(detail))") + "; \(flower); label \"\(label)\""
    }

    /// Waits until the window is quiet (and no settle redraw of the picture can be pending), so
    /// that the next damage answers what comes next.
    func quiet() {
        if watch.waitQuiet(0.03, limit: 2) == nil { stats.neverQuiet.append(context()) }
        let since = monotonicNow() - lastLinearChange
        if since >= 0.04 && since < 0.25 {
            pause(0.25 - since)
            watch.waitQuiet(0.03, limit: 2)
        }
    }

    /// Times the answer to the last input of a burst: `quiet()` first (unless the caller did so
    /// before the burst began, when the picture may change at any input of it, e.g. a swipe
    /// recognized midway), runs `send` (which syncs), then waits for the first DamageNotify.
    /// Seconds from just after the sync (0 if it came earlier); nil if none came in `timeout`.
    func answer(quietFirst: Bool = true, timeout: Double = 1, _ send: () throws -> Void) rethrows -> Double? {
        if quietFirst { quiet() }
        try send()
        let t0 = monotonicNow()
        return watch.next(timeout: timeout).map { max(0, $0 - t0) }
    }

    /// Files a burst's answer: `required` when the burst had to change the picture;
    /// `recognized` false when the gesture meant to change it was not recognized.
    func record(_ answer: Double?, required: Bool, recognized: Bool = true, _ detail: String = "") {
        guard required else {
            stats.unmeasured += 1
            if let a = answer, a <= config.budget { stats.answeredAnyway += 1 }
            return
        }
        guard recognized else {
            let lines = burstLines().filter(\.isGesture).map { "\($0.recognizer ?? "?") \($0.state ?? "?")" }
            let log = "log: " + (lines.isEmpty ? "nothing" : lines.joined(separator: ", "))
            stats.unrecognized.append(context(detail.isEmpty ? log : "\(detail); \(log)"))
            return
        }
        if let a = answer {
            stats.answers.append(a)
            stats.slowest = Array((stats.slowest + [(a, context(detail))]).sorted { $0.time > $1.time }.prefix(5))
        }
        if answer.map({ $0 > config.budget }) ?? true {
            let time = answer.map { "answered after \(fixed($0 * 1000, 1)) ms" } ?? "no frame within 1 s"
            stats.misses.append(context(detail.isEmpty ? time : "\(detail); \(time)"))
        }
    }

    /// The log lines of this burst.
    func burstLines() -> [LogLine] { Array(app.log.lines(from: burstStart)) }

    func began(_ recognizer: String) -> Bool {
        burstLines().contains { $0.recognizer == recognizer && $0.state == "began" }
    }

    /// Waits until each of `recognizers` has logged an end of its own this burst (ended,
    /// cancelled or failed: every recognizer that received the touches logs one at the lift).
    @discardableResult
    func settle(_ recognizers: [String], timeout: Double = 3) -> Bool {
        let done = poll(timeout: timeout, interval: 0.002) { () -> Bool? in
            let lines = burstLines()
            let finished = recognizers.allSatisfy { r in
                lines.contains { $0.recognizer == r && ["ended", "cancelled", "failed"].contains($0.state ?? "") }
            }
            return finished ? true : nil
        }
        return done ?? false
    }

    static let imageRecognizers = ["imagePan", "imagePinch", "imageRotation", "imageLongPress"]
    static let flowerMovers: Set<String> = ["imagePan", "imagePinch", "imageRotation", "pinch", "rotation"]

    /// Updates the flower from this burst's lines: the image pan moves it by its translation;
    /// the image pinch and rotation scale and turn it about `pivot` (the fingers' touch-down
    /// centroid); the region pinch and rotation about its centre. A mover outside `allowed`, or
    /// a cancelled one, loses track of the flower.
    func applyLines(allowed: Set<String>, pivot: LayoutPoint) {
        let lines = burstLines().filter { Self.flowerMovers.contains($0.recognizer ?? "") }
        let active = Set(lines.filter { $0.state == "began" }.compactMap(\.recognizer))
        if !active.isSubset(of: allowed) || lines.contains(where: { $0.state == "cancelled" }) {
            flower.certain = false
            return
        }
        func last(_ r: String, _ key: String) -> Double? {
            lines.last { $0.recognizer == r && $0.number(key) != nil }?.number(key)
        }
        if active.contains("imagePan"),
            let t = lines.last(where: { $0.recognizer == "imagePan" })?.object["translation"] as? [NSNumber],
            t.count == 2
        {
            flower.center = flower.center + (t[0].doubleValue, t[1].doubleValue)
        }
        let f = active.contains("imagePinch") ? last("imagePinch", "scale") ?? 1 : 1
        let a = active.contains("imageRotation") ? last("imageRotation", "rotation") ?? 0 : 0
        if f != 1 || a != 0 { flower.transform(scale: f, rotation: a, about: pivot) }
        if active.contains("pinch") { flower.scale(by: last("pinch", "scale") ?? 1) }
        if active.contains("rotation") { flower.angle += last("rotation", "rotation") ?? 0 }
        if !active.intersection(["imagePinch", "imageRotation", "pinch", "rotation"]).isEmpty {
            lastLinearChange = monotonicNow()
        }
    }

    /// After every burst: the app is alive, it holds at most one shared-memory segment, the
    /// label and the coverage are noted, and the flower is where the model says.
    func end() throws {
        guard app.process.isRunning else {
            throw XTestError(
                "\(context()): the app exited with status \(app.process.wait(timeout: 1) ?? -1); "
                    + "stderr: \(tail(app.stderrPath, lines: 10))")
        }
        let segments = sharedMemorySegments(creator: app.process.pid)
        stats.maxSegments = max(stats.maxSegments, segments)
        if segments > 1 { stats.segmentViolations.append(context("\(segments) segments")) }
        if let l = burstLines().last(where: \.isGesture)?.label { label = l }
        checkFlowerOnScreen()
        stats.note(flower)
    }

    /// The pixels around the model's centre must not be the window's background (once the
    /// frame being drawn is complete).
    func checkFlowerOnScreen() {
        let c = flower.center
        guard flower.certain, isFree(c, margin: 8), !rect("label").contains(c) else { return }
        watch.waitQuiet(0.03, limit: 2)
        let s = app.scale
        guard
            let pixels = x.patch(
                of: app.window, x: Int((c.x * s).rounded()) - 3, y: Int((c.y * s).rounded()) - 3, width: 6,
                height: 6), !pixels.isEmpty
        else { return }
        let plain = pixels.filter { colorDistance($0, background) <= 12 }.count
        if plain * 2 > pixels.count {
            stats.lost.append(context("\(plain) of \(pixels.count) pixels at the centre are background"))
            flower.certain = false
        }
    }
}
