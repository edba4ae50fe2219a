import GestureKit
import GestureTestSupport
import PropertyBased
import Testing

/// Property-based fuzzing of the dispatcher: random and adversarial input streams (NaN,
/// infinities, ±1e308, duplicate ids, ends without begins, 64 touches at once, time going
/// backwards, touchpad and shake events mixed in) never crash, produce only legal state
/// transitions, and leave every recognizer back in `possible` once all touches are gone and
/// the clock has run on.
@MainActor
@Suite struct FuzzTests {
    static let coordinates: [Double] = [
        .nan, .infinity, -.infinity, 1e308, -1e308, 0, -5, 3, 15, 100, 512, 1023.9, 1024, 5000,
        .leastNonzeroMagnitude, .greatestFiniteMagnitude,
    ]
    static let timeSteps: [Double] = [0, 0.001, 0.016, 0.05, 0.2, 0.31, 0.6, 2, -1, -1e9, .nan, .infinity, 1e308]

    /// Decodes one generated integer into an input event.
    static func event(_ v: UInt64, clock: inout Double) -> InputEvent {
        var r = v
        func take(_ n: UInt64) -> Int {
            let x = Int(r % n)
            r /= n
            return x
        }
        let kind = take(16)
        let id = take(4) == 0 ? take(70) : take(4)  // mostly a few ids, sometimes many
        let smooth = take(3) != 0
        let x = smooth ? Double(take(1024)) : coordinates[take(UInt64(coordinates.count))]
        let y = smooth ? Double(take(768)) : coordinates[take(UInt64(coordinates.count))]
        let step = take(3) != 0 ? 0.016 * Double(take(8)) : timeSteps[take(UInt64(timeSteps.count))]
        let t = clock + step
        if t.isFinite && t > clock { clock = t }
        let p = Point(x: x, y: y)
        switch kind {
        case 0...3:
            return .touches(TouchFrame(timestamp: t, changes: [TouchChange(id: id, phase: .began, location: p)]))
        case 4...8:
            return .touches(TouchFrame(timestamp: t, changes: [TouchChange(id: id, phase: .moved, location: p)]))
        case 9, 10:
            return .touches(TouchFrame(timestamp: t, changes: [TouchChange(id: id, phase: .ended, location: p)]))
        case 11:
            return .touches(TouchFrame(timestamp: t, changes: [TouchChange(id: id, phase: .cancelled, location: p)]))
        case 12:
            // 64 touches landing (or moving) in one frame.
            let changes = (0..<64).map { TouchChange(id: $0, phase: .began, location: Point(x: x + Double($0), y: y)) }
            return .touches(TouchFrame(timestamp: t, changes: changes))
        case 13:
            let phase = TouchpadPhase.allCases[id % 4]
            return .touchpadPinch(
                TouchpadPinch(timestamp: t, phase: phase, location: p, scale: y / 100, angleDelta: x / 10))
        case 14: return .shake(timestamp: t)
        default: return .wait(timestamp: t)
        }
    }

    /// A scene with every kind of recognizer, some simultaneous, some with failure requirements.
    static func makeScene() -> (TouchDispatcher, [GestureRecognizer], SimultaneousDelegate) {
        let root = View(frame: Rect(x: 0, y: 0, width: 1024, height: 768))
        let sub = View(frame: Rect(x: 300, y: 200, width: 300, height: 200))
        sub.transform = AffineTransform(rotationAngle: 0.7).scaledBy(x: 1.5, y: 0.5)
        root.addSubview(sub)
        let d = SimultaneousDelegate([("pinch", "rotation"), ("pan", "pinch"), ("subPan", "subPinch")])
        let double = TapGestureRecognizer(name: "double")
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer(name: "single")
        single.require(toFail: double)
        let twoFinger = TapGestureRecognizer(name: "twoFinger")
        twoFinger.numberOfTouchesRequired = 2
        let swipe = SwipeGestureRecognizer(name: "swipe")
        swipe.direction = [.left, .right, .up, .down]
        let pan = PanGestureRecognizer(name: "pan")
        pan.require(toFail: swipe)
        let edge = ScreenEdgePanGestureRecognizer(name: "edge")
        edge.edges = .all
        let long = LongPressGestureRecognizer(name: "long")
        let all: [GestureRecognizer] = [
            single, double, twoFinger, swipe, pan, edge, long, PinchGestureRecognizer(name: "pinch"),
            RotationGestureRecognizer(name: "rotation"), ShakeGestureRecognizer(name: "shake"),
        ]
        for r in all {
            r.delegate = d
            root.addGestureRecognizer(r)
        }
        let subRecognizers: [GestureRecognizer] = [
            PanGestureRecognizer(name: "subPan"), PinchGestureRecognizer(name: "subPinch"),
            TapGestureRecognizer(name: "subTap"),
        ]
        for r in subRecognizers {
            r.delegate = d
            sub.addGestureRecognizer(r)
        }
        return (TouchDispatcher(root: root), all + subRecognizers, d)
    }

    /// docs/DESIGN.md §3's classification, kept apart from the recognizers' own `isContinuous`.
    static let continuousKinds: Set<GestureKind> = [.longPress, .pan, .screenEdgePan, .pinch, .rotation]

    /// docs/DESIGN.md §3's state machine, written out here rather than taken from
    /// `GestureState.canTransition`, so that a wrong table in the library cannot pass:
    /// discrete `possible → ended | failed`; continuous
    /// `possible → began → changed* → ended | cancelled`, or `possible → failed`.
    static func legal(_ from: GestureState, _ to: GestureState, continuous: Bool) -> Bool {
        switch (from, to) {
        case (.possible, .failed): true
        case (.possible, .ended): !continuous
        case (.possible, .began), (.began, .changed), (.changed, .changed): continuous
        case (.began, .ended), (.began, .cancelled), (.changed, .ended), (.changed, .cancelled): continuous
        default: false
        }
    }

    /// Replays `stream` and checks every transition against the state machine.
    static func check(_ stream: [UInt64]) {
        let (dispatcher, recognizers, delegate) = makeScene()
        _ = delegate
        var last: [String: GestureState] = [:]
        var violations: [String] = []
        dispatcher.onTransition = { t in
            let name = t.recognizer.name
            let previous = last[name] ?? .possible
            let from: GestureState = previous.isFinished ? .possible : previous
            let continuous = continuousKinds.contains(t.recognizer.kind)
            if !legal(from, t.state, continuous: continuous) {
                violations.append("\(name): \(previous.rawValue) → \(t.state.rawValue) at \(t.time)")
            }
            if t.recognizer.isContinuous != continuous { violations.append("\(name): isContinuous wrong") }
            last[name] = t.state
        }
        var clock = 0.0
        for v in stream {
            dispatcher.handle(event(v, clock: &clock))
        }
        // Everything lifts, the touchpad gesture ends, the clock runs on.
        dispatcher.cancelAllTouches(at: clock + 1)
        dispatcher.handle(TouchpadPinch(timestamp: clock + 1, phase: .end, location: .zero))
        dispatcher.advance(to: clock + 10)
        #expect(violations.isEmpty, "illegal transitions: \(violations.prefix(5))")
        #expect(dispatcher.activeTouches.isEmpty)
        for r in recognizers {
            #expect(r.state == .possible, "\(r.name) stuck in \(r.state)")
        }
    }

    @Test func randomStreams() async {
        await propertyCheck(count: 300, input: Gen.uint64.array(of: 1...120)) { stream in
            await MainActor.run { Self.check(stream) }
        }
    }

    @Test(arguments: [
        // Hand-made adversarial cases.
        [UInt64](repeating: 12, count: 5),  // 64 touches landing again and again (duplicate ids)
        (0..<200).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 },
        [9, 10, 11, 9, 10, 11],  // ends and cancels without begins
    ])
    func adversarial(stream: [UInt64]) {
        Self.check(stream)
    }

    @Test func timeGoingBackwardsIsTakenAsNow() {
        let h = Harness()
        h.add(TapGestureRecognizer(name: "tap"))
        h.frame(5, Finger.down(1, 100, 100))
        h.frame(1, Finger.up(1, 100, 100))  // earlier than 5: treated as 5
        #expect(h.log.lines == ["5 tap ended (100,100) n=1 taps=1 touches=1"])
    }

    @Test func nonFiniteLocationsAreIgnored() {
        let h = Harness()
        h.add(PanGestureRecognizer(name: "pan"))
        h.frame(0, Finger.down(1, .nan, 100))  // ignored: no touch
        h.frame(0.1, Finger.down(2, 100, 100))
        h.frame(0.2, Finger.move(2, .infinity, 100))  // ignored
        h.frame(0.3, Finger.move(2, 130, 100))
        h.frame(0.4, Finger.up(2, .nan, 0))  // lifts where it was
        #expect(
            h.log.lines == [
                "0.3 pan began (130,100) n=1 tr=[30,0] v=[0,0]",  // one sample in the 100 ms horizon
                "0.4 pan ended (130,100) n=1 tr=[30,0] v=[0,0]",
            ])
    }
}

extension Gen where Value == UInt64 {
    static var uint64: Generator<UInt64, Shrink.Integer<UInt64>> { Gen.value(in: 0...UInt64.max) }
}
