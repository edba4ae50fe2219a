import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import Testing

/// Real finger data (Tests/Fixtures/touchdata) replayed through a `TouchDispatcher` with recognizers
/// on a root view, asserting what a person watching the fingers would agree with.
///
/// Each recording is replayed at the size of the screen it was recorded on, in points (device
/// units scaled per axis), so that the recognizers' point thresholds mean what they mean on that
/// screen. Tolerances are stated at each assertion.
@Suite("recognizers on real recordings")
@MainActor
struct RealRecordingTests {
    /// Screens in points. Touchpads and indirect tablets have no screen: 1024×768.
    enum Screen {
        /// Dell Latitude XT2 (N-Trig), 12.1" 1280×800.
        static let ntrig = Size(width: 1280, height: 800)
        /// WeTab (eGalax), 11.6" 1366×768.
        static let wetab = Size(width: 1366, height: 768)
        /// 3M M2256PW, 22" 1680×1050 (square device range on a 16:10 panel).
        static let threeM = Size(width: 1680, height: 1050)
        /// Wacom ISDv4 E6 (ThinkPad X220 Tablet), 1366×768.
        static let isdv4 = Size(width: 1366, height: 768)
        /// Atmel maXTouch, 800×480 (its own device range).
        static let atmel = Size(width: 800, height: 480)
        /// EP0430M09, 1280×768 (its own device range).
        static let ep0430 = Size(width: 1280, height: 768)
        /// xorg-integration-tests n4: a 1536×2560 portrait panel at half scale.
        static let n4 = Size(width: 768, height: 1280)
        /// Dell Canvas 27", 2560×1440.
        static let dellCanvas = Size(width: 2560, height: 1440)
        /// Wacom Intuos5 touch M: 224×140 mm active area, 16:10.
        static let intuos = Size(width: 1280, height: 800)
        static let other = Size(width: 1024, height: 768)
    }

    struct Record {
        var name: String
        var state: GestureState
        var time: Double
        var touches: Int
        var location: Point
        var values: GestureValues

        var scale: Double? {
            if case .pinch(let s, _) = values { return s }
            return nil
        }
        var rotation: Double? {
            if case .rotation(let r, _) = values { return r }
            return nil
        }
        var translation: Vector? {
            if case .pan(let t, _) = values { return t }
            return nil
        }
        var tapTouches: Int? {
            if case .tap(_, let n) = values { return n }
            return nil
        }
    }

    final class Simultaneous: GestureRecognizerDelegate {
        func gestureRecognizer(
            _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
        ) -> Bool { true }
    }

    /// Replays a recording through the recognizers (on one full-screen root view) and returns
    /// every transition. With `simultaneous` every pair may recognize together (like the demo's
    /// image: pan, pinch and rotation at once); without, UIKit's default exclusivity applies.
    func replay(
        _ file: String, size: Size, simultaneous: Bool = false, _ recognizers: [GestureRecognizer]
    ) throws -> (records: [Record], stats: TraceStats) {
        let trace = try TouchData.read(file, size: size)
        let root = View(frame: Rect(origin: .zero, size: size), name: "root")
        let delegate = Simultaneous()
        for r in recognizers {
            if simultaneous { r.delegate = delegate }
            root.addGestureRecognizer(r)
        }
        let dispatcher = TouchDispatcher(root: root)
        var records: [Record] = []
        dispatcher.onTransition = { t in
            records.append(
                Record(
                    name: t.recognizer.name, state: t.state, time: t.time, touches: t.numberOfTouches,
                    location: t.location, values: t.values))
        }
        for event in trace.events { dispatcher.handle(event) }
        dispatcher.advance(to: (trace.events.last?.timestamp ?? 0) + 1)
        return (records, TraceStats(trace))
    }

    func taps(_ maxTouches: Int) -> [TapGestureRecognizer] {
        (1...maxTouches).map { n in
            let t = TapGestureRecognizer(name: "tap\(n)")
            t.numberOfTouchesRequired = n
            return t
        }
    }

    // MARK: Taps

    /// N-Trig (protocol A, no tracking ids): N fingers tapping together are an N-finger tap.
    /// With an 18 pt movement tolerance (Flutter's touch slop) every file is recognized.
    @Test(arguments: 1...4)
    func ntrigNFingerTap(n: Int) throws {
        let recognizers = taps(4)
        for r in recognizers { r.allowableMovement = 18 }
        let (records, _) = try replay(
            "evemu/ntrig-xt2/ntrig-xt2-\(n)-tap.event", size: Screen.ntrig, simultaneous: true, recognizers)
        let recognized = records.filter { $0.state == .ended }
        #expect(recognized.map(\.name) == ["tap\(n)"])
        #expect(recognized.first?.tapTouches == n)
    }

    /// The same with the default 10 pt tolerance of docs/DESIGN.md §3: the N-Trig's contacts drift
    /// 10.5–17 pt (about 3 mm) while the fingers lift, so the 1-, 2- and 3-finger taps fail.
    @Test(arguments: 1...4)
    func ntrigNFingerTapAtDefaultTolerance(n: Int) throws {
        let (records, stats) = try replay(
            "evemu/ntrig-xt2/ntrig-xt2-\(n)-tap.event", size: Screen.ntrig, simultaneous: true, taps(4))
        let drift = stats.fingers.map { f in f.points.map { $0.distance(to: f.start) }.max() ?? 0 }.max() ?? 0
        withKnownIssue("N-Trig fingers drift \(drift) pt during a tap; the tap tolerance is 10 pt") {
            #expect(records.filter { $0.state == .ended }.map(\.name) == ["tap\(n)"])
        } when: {
            drift > 10
        }
    }

    /// WeTab (eGalax, protocol B, one slot): eleven one-finger taps, each recognized at its lift.
    @Test func wetabElevenTaps() throws {
        let (records, stats) = try replay("evemu/wetab.event", size: Screen.wetab, [TapGestureRecognizer()])
        let recognized = records.filter { $0.state == .ended }
        #expect(recognized.count == 11)
        #expect(recognized.allSatisfy { $0.tapTouches == 1 })
        for (tap, finger) in zip(recognized, stats.fingers) {
            #expect(tap.time == finger.endTime)
            #expect(tap.location.distance(to: finger.end) < 0.5)  // where the finger lifted
        }
    }

    /// Atmel maXTouch (protocol B): nine fast one-finger taps; as double taps, four pairs.
    @Test func atmelFastTaps() throws {
        let double = TapGestureRecognizer(name: "double")
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer(name: "single")
        let (records, _) = try replay(
            "evemu-devices/touchscreens/Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", size: Screen.atmel,
            simultaneous: true, [single, double])
        #expect(records.filter { $0.name == "single" && $0.state == .ended }.count == 9)
        // Taps 1+2, 3+4, 5+6, 7+8 pair up (≤ 0.3 s apart, ≤ 40 pt); the ninth is alone.
        #expect(records.filter { $0.name == "double" && $0.state == .ended }.count == 4)
    }

    /// Wacom ISDv4 E6 touchscreen (protocol B, header in the sibling .desc).
    @Test func wacomISDv4Taps() throws {
        let base = "evemu-devices/tablets/Wacom_ISDv4_E6_Finger."
        let one = try replay(base + "single-tap-center.events", size: Screen.isdv4, simultaneous: true, taps(2))
        #expect(one.records.filter { $0.state == .ended }.map(\.name) == ["tap1"])
        let two = try replay(base + "2fg-tap.events", size: Screen.isdv4, simultaneous: true, taps(2))
        #expect(two.records.filter { $0.state == .ended }.map(\.name) == ["tap2"])
        #expect(two.records.first { $0.state == .ended }?.tapTouches == 2)
        let double = TapGestureRecognizer(name: "double")
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer(name: "single")
        single.require(toFail: double)
        let dt = try replay(base + "double-tap-center.events", size: Screen.isdv4, [single, double])
        #expect(dt.records.filter { $0.state == .ended }.map(\.name) == ["double"])
        #expect(dt.records.contains { $0.name == "single" && $0.state == .failed })
    }

    /// Apple bcm5974 touchpad (protocol A without tracking ids, lifting contacts reported with
    /// touch major 0): a one-, a two- and a three-finger touch, in that order.
    @Test func bcm5974OneTwoThreeFingerTaps() throws {
        let (records, _) = try replay(
            "evemu-devices/touchpads/bcm5974.three-finger-click.events", size: Screen.other, simultaneous: true,
            taps(4))
        let recognized = records.filter { $0.state == .ended }
        #expect(recognized.map(\.name) == ["tap1", "tap2", "tap3"])
        #expect(recognized.map(\.tapTouches) == [1, 2, 3])
    }

    // MARK: Pans

    nonisolated static let twoFingerScrolls: [(String, Size)] = [
        ("evemu-devices/tablets/Wacom_ISDv4_E6_Finger.double-center-scroll.events", Screen.isdv4),
        ("evemu-devices/tablets/Wacom_Bamboo_16FG_4x5_Finger_double-center-scroll.events", Screen.other),
        ("evemu-devices/tablets/Wacom_Intuos5_touch_M_Finger_double-center-scroll.events", Screen.intuos),
        ("evemu-devices/touchscreens/EP0430M09.2-finger-scroll-down.events", Screen.ep0430),
        (
            "xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events",
            Screen.other
        ),
        (
            "xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-up.events",
            Screen.other
        ),
    ]

    /// A two-finger scroll is a pan, not a pinch: with UIKit's default exclusivity the pan wins
    /// and pinch and rotation never begin; the pan's translation follows the fingers (within
    /// 10 % + 5 pt of their mean travel) and is vertical.
    @Test(arguments: twoFingerScrolls)
    func twoFingerScrollIsAPan(file: String, size: Size) throws {
        let pan = PanGestureRecognizer(name: "pan")
        let (records, stats) = try replay(
            file, size: size, [pan, PinchGestureRecognizer(name: "pinch"), RotationGestureRecognizer(name: "rotation")])
        #expect(stats.maxSimultaneous == 2)
        #expect(records.filter { $0.name == "pan" }.first?.state == .began)
        #expect(records.filter { $0.name == "pan" }.last?.state == .ended)
        #expect(!records.contains { $0.name != "pan" && $0.state == .began })
        let final = try #require(records.last { $0.name == "pan" }?.translation)
        let meanDy = stats.fingers.map(\.travel.dy).reduce(0, +) / Double(stats.fingers.count)
        #expect(abs(final.dy - meanDy) <= abs(meanDy) * 0.1 + 5)
        #expect(abs(final.dy) > 150)
        #expect(abs(final.dy) > 5 * abs(final.dx))
    }

    /// The same scrolls watched by a pinch allowed to run simultaneously: its scale stays within
    /// 0.8…1.25 (the fingers keep their spacing).
    @Test(arguments: twoFingerScrolls)
    func twoFingerScrollBarelyScales(file: String, size: Size) throws {
        let (records, _) = try replay(
            file, size: size, simultaneous: true,
            [PanGestureRecognizer(name: "pan"), PinchGestureRecognizer(name: "pinch")])
        let scales = records.compactMap(\.scale)
        #expect(!scales.isEmpty)
        #expect(scales.allSatisfy { (0.8...1.25).contains($0) }, "\(scales.min() ?? 0)…\(scales.max() ?? 0)")
    }

    nonisolated static let oneFingerDrags: [(String, Size)] = [
        ("evemu-devices/touchscreens/N-Trig_MultiTouch.1-finger-drag-NW-SE.events", Screen.ntrig),
        ("evemu-devices/touchscreens/Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events", Screen.atmel),
        ("evemu-devices/touchscreens/EP0430M09.1-finger-drag-up-down.events", Screen.ep0430),
        ("evemu-devices/tablets/Wacom_ISDv4_E6_Finger.single-top-swipe.events", Screen.isdv4),
        ("evemu-devices/tablets/Wacom_Intuos5_touch_M_Finger_single-center-scroll.events", Screen.intuos),
    ]

    /// A one-finger drag is a pan whose translation is the finger's travel from where it went
    /// down, at every transition (within 0.001 pt).
    @Test(arguments: oneFingerDrags)
    func oneFingerDragIsAPanFollowingTheFinger(file: String, size: Size) throws {
        let (records, stats) = try replay(file, size: size, [PanGestureRecognizer(name: "pan")])
        #expect(stats.downs == 1)
        let finger = try #require(stats.fingers.first)
        let pan = records.filter { $0.name == "pan" }
        #expect(pan.first?.state == .began)
        #expect(pan.last?.state == .ended)
        for r in pan {
            let t = try #require(r.translation)
            #expect((r.location - t).distance(to: finger.start) < 0.001)
        }
        let final = try #require(pan.last?.translation)
        #expect((final - finger.travel).length < 0.001)
    }

    /// Four fingers dragging together (landing at different times): one pan of four touches
    /// whose translation is the fingers' mean travel within 12 %.
    @Test(arguments: [
        ("evemu-devices/touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", Screen.atmel),
        ("evemu-devices/touchscreens/EP0430M09.4-finger-drag-down.events", Screen.ep0430),
    ])
    func fourFingerDragIsOnePan(file: String, size: Size) throws {
        let (records, stats) = try replay(file, size: size, [PanGestureRecognizer(name: "pan")])
        let pan = records.filter { $0.name == "pan" }
        #expect(pan.filter { $0.state == .began }.count == 1)
        #expect(pan.map(\.touches).max() == 4)
        let final = try #require(pan.last?.translation)
        let meanDy = stats.fingers.map(\.travel.dy).reduce(0, +) / 4
        #expect(abs(final.dy - meanDy) <= abs(meanDy) * 0.12)
    }

    // MARK: Swipes

    /// Swipe recognizers for every direction and one to three fingers, allowed to recognize
    /// together so that none hides another.
    func swipes() -> [GestureRecognizer] {
        var all: [GestureRecognizer] = []
        for n in 1...3 {
            for (name, direction) in SwipeDirection.named {
                let s = SwipeGestureRecognizer(name: "\(n)-finger \(name)")
                s.numberOfTouchesRequired = n
                s.direction = direction
                all.append(s)
            }
        }
        return all
    }

    /// Wacom ISDv4 E6: one and two fingers sweeping right across the top are swipes right of
    /// one and two fingers, and nothing else.
    @Test func wacomISDv4TopSwipes() throws {
        let base = "evemu-devices/tablets/Wacom_ISDv4_E6_Finger."
        let one = try replay(base + "single-top-swipe.events", size: Screen.isdv4, simultaneous: true, swipes())
        #expect(one.records.filter { $0.state == .ended }.map(\.name) == ["1-finger right"])
        let two = try replay(base + "double-top-swipe.events", size: Screen.isdv4, simultaneous: true, swipes())
        #expect(two.records.filter { $0.state == .ended }.map(\.name) == ["2-finger right"])
        #expect(two.records.first { $0.state == .ended }?.touches == 2)
    }

    /// 3M: the quick three-finger sweep to the left (22 s in) is a three-finger swipe left.
    @Test func threeMThreeFingerSwipeLeft() throws {
        let (records, stats) = try replay(
            "evemu/3m.event.gz", size: Screen.threeM, simultaneous: true, swipes())
        let s = stroke(8, of: stats, in: records)
        #expect(s.fingers.count == 3)
        #expect(s.fingers.allSatisfy { $0.travel.dx < -250 })
        #expect(s.records.filter { $0.state == .ended }.map(\.name) == ["3-finger left"])
    }

    // MARK: Pinch and rotation

    /// The records of one stroke (fingers overlapping in time) of a recording.
    func stroke(_ index: Int, of stats: TraceStats, in records: [Record]) -> (fingers: [FingerTrack], records: [Record])
    {
        let fingers = stats.strokes[index]
        let start = fingers.map(\.startTime).min()!
        let end = fingers.compactMap(\.endTime).max() ?? .infinity
        return (fingers, records.filter { $0.time >= start && $0.time <= end })
    }

    func imageRecognizers() -> [GestureRecognizer] {
        [
            PanGestureRecognizer(name: "pan"), PinchGestureRecognizer(name: "pinch"),
            RotationGestureRecognizer(name: "rotation"),
        ]
    }

    /// n4 (a portrait touchscreen): a three-finger pinch-in reads as a pinch below 0.75; the
    /// four-finger spread as a pinch above 1.5.
    @Test func n4PinchInAndSpread() throws {
        let (records, stats) = try replay(
            "xorg-integration-tests/tablets/n4.events", size: Screen.n4, simultaneous: true, imageRecognizers())
        #expect(stats.strokes.map(\.count) == [1, 2, 3, 6])
        let pinchIn = stroke(2, of: stats, in: records).records
        #expect(pinchIn.contains { $0.name == "pinch" && $0.state == .began })
        let inScale = try #require(pinchIn.last { $0.name == "pinch" }?.scale)
        #expect(inScale < 0.75)
        let spread = stroke(3, of: stats, in: records).records
        let outScale = try #require(spread.last { $0.name == "pinch" }?.scale)
        #expect(outScale > 1.5)
    }

    /// Dell Canvas: the five-finger pinch-in is a pinch below 0.8.
    @Test func dellCanvasFiveFingerPinchIn() throws {
        let (records, stats) = try replay(
            "evemu-devices/tablets/dell_canvas_touch.evemu", size: Screen.dellCanvas, simultaneous: true,
            imageRecognizers())
        let s = stroke(2, of: stats, in: records)
        #expect(s.fingers.count == 5)
        let scale = try #require(s.records.last { $0.name == "pinch" }?.scale)
        #expect(scale < 0.8)
    }

    /// 3M (gzipped, protocol B, ten slots): the two-finger pinch-in at the end (the recording
    /// stops with both fingers down) is a pinch whose scale is the fingers' distance ratio
    /// (within 0.01), below 0.9.
    @Test func threeMTwoFingerPinchIn() throws {
        let (records, stats) = try replay(
            "evemu/3m.event.gz", size: Screen.threeM, simultaneous: true, imageRecognizers())
        let last = stroke(stats.strokes.count - 1, of: stats, in: records)
        #expect(last.fingers.count == 2)
        let a = last.fingers[0]
        let b = last.fingers[1]
        let ratio = a.end.distance(to: b.end) / a.start.distance(to: b.start)
        let scale = try #require(last.records.last { $0.name == "pinch" }?.scale)
        #expect(scale < 0.9)
        #expect(abs(scale - ratio) < 0.01)
    }

    /// 3M: the curved two-finger drag turns the line between the fingers by about a quarter
    /// turn clockwise; the rotation recognizer reports the line's angle change (within
    /// 0.02 rad), while a pan follows the drag.
    @Test func threeMTwoFingerTurn() throws {
        let (records, stats) = try replay(
            "evemu/3m.event.gz", size: Screen.threeM, simultaneous: true, imageRecognizers())
        let s = stroke(2, of: stats, in: records)
        #expect(s.fingers.count == 2)
        let (a, b) = (s.fingers[0], s.fingers[1])
        func angle(_ v: Vector) -> Double { atan2(v.dy, v.dx) }
        var turn = angle(b.end - a.end) - angle(b.start - a.start)
        if turn > .pi { turn -= 2 * .pi }
        if turn < -.pi { turn += 2 * .pi }
        let rotation = try #require(s.records.last { $0.name == "rotation" }?.rotation)
        #expect(rotation > 1.2)
        #expect(abs(rotation - turn) < 0.02)
        let pan = try #require(s.records.last { $0.name == "pan" }?.translation)
        #expect(pan.length > 300)
    }
}
