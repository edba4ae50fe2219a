import GestureKit
import GestureTestSupport
import GestureX11
import GesturesDemo
import Testing

/// One touch frame per device frame: the fingers of one touchscreen frame that the server hands
/// over in several reads (Xwayland writes each `TouchUpdate` of a `wl_touch` frame on its own;
/// Xorg's input thread can split a frame too) reach the scene as one frame. Modelled on a
/// virtual clock the way `X11Shell` runs them: `InputTranslator` → `TouchFrameBuilder`, a read
/// at a time, a held frame going when its device frame is whole or at its deadline (the poll
/// timeout), then the whole event log of the demo scene.
@Suite @MainActor struct DeviceFrameTests {
    /// One XI2 touch event as the shell gets it: server time `t` (seconds), window points.
    struct TouchEvent {
        var touch: UInt32
        var phase: TouchPhase
        var x: Double
        var y: Double
        var t: Double
        var device: Int32 = 2
    }

    /// A read of the socket at `at` (shell seconds) bringing `events`.
    struct Read {
        var at: Double
        var events: [TouchEvent]
    }

    /// The frames the shell feeds for `reads`, and when each was fed.
    static func frames(_ reads: [Read]) -> (events: [InputEvent], fedAt: [Double]) {
        let translator = InputTranslator { $0 }
        var builder = TouchFrameBuilder()
        var scratch: [TouchChange] = []
        var events: [InputEvent] = []
        var fedAt: [Double] = []
        var lastTime: Double?
        func flush(at now: Double) {
            guard var frame = builder.frame else { return }
            if let previous = lastTime, frame.timestamp <= previous { frame.timestamp = previous + 0.000_001 }
            lastTime = frame.timestamp
            events.append(.touches(frame))
            fedAt.append(now)
            builder.clear()
        }
        for read in reads {
            // The poll's timeout: a held frame goes at its deadline when nothing came before it.
            if let deadline = builder.holdDeadline, deadline <= read.at { flush(at: deadline) }
            for e in read.events {
                let p = Point(x: e.x, y: e.y)
                switch e.phase {
                case .began: translator.touchBegan(device: e.device, touch: e.touch, at: p, into: &scratch)
                case .moved: translator.touchMoved(device: e.device, touch: e.touch, to: p, into: &scratch)
                default: translator.touchEnded(device: e.device, touch: e.touch, at: p, into: &scratch)
                }
                guard !scratch.isEmpty else { continue }
                if builder.mustFlush(before: scratch, at: e.t) { flush(at: read.at) }
                builder.add(scratch, at: e.t, touchDevice: e.device)
                scratch.removeAll()
            }
            var missing = false
            if let device = builder.touchDevice { missing = translator.hasTouch(of: device, missingFrom: builder) }
            if !builder.hold(missingFinger: missing, now: read.at) { flush(at: read.at) }
        }
        if let deadline = builder.holdDeadline { flush(at: deadline) }
        return (events, fedAt)
    }

    /// Two fingers' device frames every 16 ms from `start`: `paths[i](u)` for u in 0…1, `steps`
    /// moves; each device frame's fingers share a server time. `split`: each finger's event is
    /// a read of its own, 0.3 ms apart (as Xwayland hands them over), else one read per frame.
    static func twoFingers(
        _ paths: [(Double) -> Point], steps: Int, start: Double = 1, split: Bool, still: Int? = nil
    ) -> [Read] {
        var reads: [Read] = []
        func add(_ t: Double, _ phase: TouchPhase, _ u: Double) {
            var events: [TouchEvent] = []
            for (i, path) in paths.enumerated() where phase != .moved || i != still {
                let p = path(u)
                events.append(TouchEvent(touch: UInt32(i + 10), phase: phase, x: p.x, y: p.y, t: t))
            }
            if split {
                for (k, e) in events.enumerated() { reads.append(Read(at: t + 0.0003 * Double(k + 1), events: [e])) }
            } else {
                reads.append(Read(at: t + 0.0003, events: events))
            }
        }
        add(start, .began, 0)
        for k in 1...steps { add(start + Double(k) * 0.016, .moved, Double(k) / Double(steps)) }
        add(start + Double(steps) * 0.016 + 0.05, .ended, 1)
        return reads
    }

    static func log(_ events: [InputEvent]) -> [String] { replayLog(events).1 }

    @Test("A spread whose fingers arrive in separate reads: the same whole log as whole frames, a steady centre")
    func splitSpread() throws {
        // The pinch region's centre (276.48, 326.4); fingers 20 → 120 pt either side.
        let c = Point(x: 276.48, y: 326.4)
        let paths = [
            lerp(c + Vector(dx: -20, dy: 0), c + Vector(dx: -120, dy: 0)),
            lerp(c + Vector(dx: 20, dy: 0), c + Vector(dx: 120, dy: 0)),
        ]
        let whole = Self.frames(Self.twoFingers(paths, steps: 8, split: false))
        let split = Self.frames(Self.twoFingers(paths, steps: 8, split: true))
        #expect(
            split.events.count == whole.events.count, "\(split.events.count) frames, expected \(whole.events.count)")
        let log = Self.log(split.events)
        #expect(log == Self.log(whole.events))
        let pinch = log.filter { field($0, "recognizer") == "pinch" }
        #expect(pinch.count >= 8, "\(pinch.joined(separator: "\n"))")
        let xs = Set(pinch.compactMap { number($0, "x") })
        let ys = Set(pinch.compactMap { number($0, "y") })
        #expect(xs.count == 1 && ys.count == 1, "pinch centre moved: x \(xs.sorted()), y \(ys.sorted())")
        // Whole device frames of moves go at once, at the read of their last finger; the fingers
        // going down wait the 4 ms (another could come down in the same frame).
        let moves = Array(zip(split.fedAt, split.events).dropFirst().dropLast())
        #expect(moves.allSatisfy { $0 - $1.timestamp < 0.001 }, "\(split.fedAt)")
        #expect(abs(split.fedAt[0] - (1.0003 + TouchFrameBuilder.deviceFrameWait)) < 1e-9, "\(split.fedAt)")
    }

    @Test("A fast half turn of the flower about its centre, fingers in separate reads: no pan, no fling")
    func splitTwist() throws {
        // The image's centre (512, 583.68), radius 100 pt, half a turn in 10 frames.
        let c = Point(x: 512, y: 583.68)
        let paths = [arc(c, 100, .pi, 2 * .pi), arc(c, 100, 0, .pi)]
        let whole = Self.frames(Self.twoFingers(paths, steps: 10, split: false))
        let split = Self.frames(Self.twoFingers(paths, steps: 10, split: true))
        let log = Self.log(split.events)
        #expect(log == Self.log(whole.events))
        let pans = log.filter { field($0, "recognizer") == "imagePan" && field($0, "state") != "failed" }
        #expect(pans.isEmpty, "\(pans.joined(separator: "\n"))")
        #expect(!log.contains { $0.contains(#""animation":"momentum""#) }, "\(log.joined(separator: "\n"))")
        #expect(log.contains { field($0, "recognizer") == "imageRotation" && field($0, "state") == "ended" })
    }

    @Test("A finger held still: the other's first frame waits 4 ms for it, the rest go at once; the whole frames' log")
    func stillFinger() throws {
        let c = Point(x: 276.48, y: 326.4)
        let paths = [
            { (_: Double) in c + Vector(dx: -20, dy: 0) }, lerp(c + Vector(dx: 20, dy: 0), c + Vector(dx: 120, dy: 0)),
        ]
        let whole = Self.frames(Self.twoFingers(paths, steps: 6, split: false, still: 0))
        let split = Self.frames(Self.twoFingers(paths, steps: 6, split: true, still: 0))
        #expect(Self.log(split.events) == Self.log(whole.events))
        // The moves (frames 1…6) lack the still finger. The first waits 4 ms for it (it went down
        // in the frame before: it might move); after that it is still and nothing waits for it.
        let waits = (1...6).map { split.fedAt[$0] - (split.events[$0].timestamp + 0.0003) }
        #expect(abs(waits[0] - TouchFrameBuilder.deviceFrameWait) < 1e-9, "\(waits)")
        #expect(waits.dropFirst().allSatisfy { abs($0) < 1e-9 }, "\(waits)")
        #expect(TouchFrameBuilder.deviceFrameWait <= 0.004)
    }

    @Test("A still finger that moves again: one device frame goes as two, then whole frames wait for it again")
    func stillFingerMovesAgain() throws {
        // Finger 11 moves every 16 ms; finger 10 stays still for frames 1…3, then moves in 4…8.
        // Each finger's event is a read of its own, finger 11's first.
        var reads: [Read] = []
        func frame(_ k: Int, _ phase: TouchPhase, moveStill: Bool) {
            let t = 1 + Double(k) * 0.016
            var events = [TouchEvent(touch: 11, phase: phase, x: 300 + Double(k) * 5, y: 300, t: t)]
            if phase != .moved || moveStill {
                events.append(TouchEvent(touch: 10, phase: phase, x: 200 - Double(max(0, k - 3)) * 5, y: 300, t: t))
            }
            for (i, e) in events.enumerated() { reads.append(Read(at: t + 0.0003 * Double(i + 1), events: [e])) }
        }
        frame(0, .began, moveStill: true)
        for k in 1...8 { frame(k, .moved, moveStill: k >= 4) }
        let split = Self.frames(reads)
        // Frames: the begins, 1…3, 4 as two (finger 11 alone at once, then finger 10), 5…8 whole.
        let sizes = split.events.map { event -> Int in
            if case .touches(let f) = event { return f.changes.count }
            return 0
        }
        #expect(sizes == [2, 1, 1, 1, 1, 1, 2, 2, 2, 2], "\(sizes)")
        let waits = zip(split.fedAt, split.events).map { fed, event -> Double in
            if case .touches(let f) = event { return ((fed - f.timestamp) * 1e4).rounded() / 1e4 }
            return -1
        }
        // The begins and frame 1 wait for the other finger; frames 2, 3 and 4's first half do
        // not (finger 10 is still); frame 4's second half does not wait for finger 11, delivered
        // at that time already; 5…8 wait for finger 10 again and are whole at their second read.
        let w = TouchFrameBuilder.deviceFrameWait
        let expected = [0.0003 + w, 0.0003 + w, 0.0003, 0.0003, 0.0003, 0.0006, 0.0006, 0.0006, 0.0006, 0.0006]
        #expect(waits == expected.map { ($0 * 1e4).rounded() / 1e4 }, "\(waits)")
    }

    @Test("A pointer's changes never wait; a frame mixing sources is not held")
    func pointerNotHeld() {
        var builder = TouchFrameBuilder()
        builder.add([Finger.move(1, 1, 1)], at: 1)
        let pointerHeld = builder.hold(missingFinger: true, now: 1)
        #expect(!pointerHeld)
        builder.clear()
        builder.add([Finger.move(1, 1, 1)], at: 1, touchDevice: 2)
        let touchHeld = builder.hold(missingFinger: true, now: 1)
        #expect(touchHeld)
        #expect(builder.holdDeadline == 1 + TouchFrameBuilder.deviceFrameWait)
        builder.add([Finger.move(2, 1, 1)], at: 1)
        let mixedHeld = builder.hold(missingFinger: true, now: 1.001)
        #expect(!mixedHeld)
        #expect(builder.holdDeadline == nil)
    }
}
