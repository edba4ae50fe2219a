import CX11
import Foundation
import GestureTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Keysyms the soak types (X11/keysymdef.h).
enum SoakKey {
    static let equal: Int32 = 0x3d
    static let minus: Int32 = 0x2d
    static let bracketLeft: Int32 = 0x5b
    static let bracketRight: Int32 = 0x5d
    /// Left, Up, Right, Down.
    static let arrows: [Int32] = [0xff51, 0xff52, 0xff53, 0xff54]
}

/// How input reaches the app: XTest on either master pointer, the keyboard, the window's size,
/// and genuine XI2 touch through the inputtest touchscreen. Every helper that ends a burst
/// times the answer to the burst's last input that must change the picture.
extension Monkey {
    /// How long the fingers or buttons rest at their last place before they lift: longer than
    /// the velocity's 40 ms "stopped" age, so no drag ends in a fling (the app would carry the
    /// flower on by momentum where the model does not follow). Swipes do not rest: no flower
    /// moves, and a swipe recognized at the lift would be timed 70 ms late (seed 4242 at 600 s
    /// reported touch swipes answered in 85–90 ms, the rest included).
    static let restBeforeLift = 0.07

    // MARK: Mouse (XTest)

    /// A button-1 drag on `connection`'s pointer through `points` (window points, already
    /// snapped), `modifiers` held from before the press until after the release, `interval`
    /// seconds between motions. Returns the answer to the last motion (with `wholeBurst`, the
    /// first damage since the press counts: for a swipe, recognized midway).
    func mouseDrag(
        _ points: [LayoutPoint], on connection: XConnection, modifiers: [Int32] = [], interval: Double,
        wholeBurst: Bool = false, rest: Bool = true
    ) -> Double? {
        guard let first = points.first, let last = points.last else { return nil }
        if wholeBurst { quiet() }
        app.move(to: first, on: connection)
        for m in modifiers { connection.key(m, pressed: true) }
        connection.sync()
        pause(interval)
        connection.button(1, pressed: true)
        connection.sync()
        for p in points.dropFirst().dropLast() {
            pause(interval)
            app.move(to: p, on: connection)
            connection.sync()
        }
        pause(interval)
        let t = answer(quietFirst: !wholeBurst) {
            app.move(to: last, on: connection)
            connection.sync()
        }
        pause(rest ? max(interval, Self.restBeforeLift) : interval)
        connection.button(1, pressed: false)
        for m in modifiers.reversed() { connection.key(m, pressed: false) }
        connection.sync()
        return t
    }

    /// A click at `p`; the answer is timed from the release (a tap is recognized at the lift).
    func click(at p: LayoutPoint, hold: Double) -> Double? {
        app.move(to: p)
        x.sync()
        pause(0.005)
        x.button(1, pressed: true)
        x.sync()
        pause(hold)
        return answer {
            x.button(1, pressed: false)
            x.sync()
        }
    }

    /// Both master pointers drag at once (two fingers of one gesture): `a` on the core pointer,
    /// `b` on the second master, motions interleaved. Returns the answer to `b`'s last motion.
    func twoPointerDrag(_ a: [LayoutPoint], _ b: [LayoutPoint], interval: Double) -> Double? {
        app.move(to: a[0])
        app.move(to: b[0], on: second)
        x.sync()
        second.sync()
        pause(interval)
        x.button(1, pressed: true)
        x.sync()
        second.button(1, pressed: true)
        second.sync()
        for i in 1..<(a.count - 1) {
            pause(interval)
            app.move(to: a[i])
            x.sync()
            app.move(to: b[i], on: second)
            second.sync()
        }
        pause(interval)
        app.move(to: a[a.count - 1])
        x.sync()
        let t = answer {
            app.move(to: b[b.count - 1], on: second)
            second.sync()
        }
        pause(max(interval, Self.restBeforeLift))
        x.button(1, pressed: false)
        x.sync()
        second.button(1, pressed: false)
        second.sync()
        return t
    }

    // MARK: Keyboard

    /// Presses and releases `key` with `modifiers` (then syncs).
    func type(_ key: Int32, modifiers: [Int32] = []) {
        x.chord(modifiers, key)
    }

    // MARK: Touch (Xorg inputtest)

    /// Fingers following `paths` (window points; all the same length) on the touchscreen, one
    /// frame every `interval`. The answer is timed from the last frame that moves them or, when
    /// `answerAtLift`, from the lift (with `wholeBurst`, the first damage since the touch-down
    /// counts).
    func touch(
        _ paths: [[LayoutPoint]], interval: Double, answerAtLift: Bool = false, wholeBurst: Bool = false,
        rest: Bool = true
    ) throws -> Double? {
        let ids = paths.map { _ -> UInt32 in
            defer { nextTouchID += 1 }
            return nextTouchID
        }
        let device = server.touchscreen
        func frame(_ phase: InputTestDevice.TouchPhase, _ index: Int) throws {
            for (id, path) in zip(ids, paths) {
                let (sx, sy) = app.screen(path[index])
                try device.touch(phase, id: id, x: sx, y: sy)
            }
            try device.sync()
        }
        let count = paths[0].count
        if wholeBurst { quiet() }
        try frame(.begin, 0)
        for i in 1..<max(1, count - 1) {
            pause(interval)
            try frame(.update, i)
        }
        var t: Double?
        if count > 1 {
            pause(interval)
            if answerAtLift {
                try frame(.update, count - 1)
            } else {
                t = try answer(quietFirst: !wholeBurst) { try frame(.update, count - 1) }
            }
        }
        pause(count > 1 && rest ? max(interval, Self.restBeforeLift) : interval)
        if answerAtLift {
            t = try answer(quietFirst: !wholeBurst) { try frame(.end, count - 1) }
        } else {
            try frame(.end, count - 1)
        }
        return t
    }

    // MARK: Window

    /// Resizes the window; the answer is timed from the resize, then the new layout is read and
    /// the flower's centre follows the window in proportion.
    func resize(width: Int, height: Int) throws {
        begin("resize")
        let old = layout
        let t = answer { x.resize(app.window, width: width, height: height) }
        let changed = Double(width) != old.width || Double(height) != old.height
        if changed {
            let new = try app.waitForLayout(after: burstStart)
            flower.resize(from: old, to: new)
            lastLinearChange = monotonicNow()
        }
        record(t, required: changed, "\(Int(old.width))x\(Int(old.height)) to \(width)x\(height)")
        try end()
    }

    /// Ctrl+Z: the flower goes home.
    func shake() throws {
        begin("shake (Ctrl+Z)")
        let required = !(flower.isHome(layout) && label == "Shaking things up!")
        let t = answer { type(0x7a, modifiers: [Keysym.controlL]) }
        let seen =
            (try? app.log.waitFor("shake line", from: burstStart, timeout: 3) {
                $0.recognizer == "shake" || $0.type == "shake"
            }) != nil
        if !flower.isHome(layout) { lastLinearChange = monotonicNow() }
        flower = FlowerModel(home: layout)
        if !seen { flower.certain = false }
        record(t, required: required, recognized: seen)
        try end()
    }

    /// A checkpoint (the same state every time, so that memory can be compared): the window
    /// at its first size, the flower home, the picture settled; then the RSS of the app and of
    /// the X server.
    func checkpoint() throws {
        try shake()
        if Int(layout.width) != homeSize.width || Int(layout.height) != homeSize.height {
            try resize(width: homeSize.width, height: homeSize.height)
        }
        pause(max(0, lastLinearChange + 0.3 - monotonicNow()))
        // The idle app: no frame for longer than the presenter's shrink delay (0.5 s), after
        // which a segment grown for an enlarged picture is back to 1 MiB.
        watch.waitQuiet(0.6, limit: 3)
        stats.rss.append(
            (
                elapsed, ProcessProbe.rssKiB(app.process.pid) ?? -1,
                ProcessProbe.rssKiB(server.process.pid, excludingShared: true) ?? -1
            ))
    }
}
