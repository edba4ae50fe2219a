import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import Testing

/// Every real recording in Tests/Fixtures/touchdata parses, and contains what its name says.
@Suite("real recordings parse")
struct RecordingParseTests {
    static let recordings: [String] = {
        guard let all = FileManager.default.enumerator(atPath: TouchData.root)?.allObjects as? [String] else {
            return []
        }
        return all.filter {
            ($0.hasSuffix(".events") || $0.hasSuffix(".event") || $0.hasSuffix(".evemu") || $0.hasSuffix(".gz"))
        }.sorted()
    }()

    /// Recordings that stop with fingers still down.
    static let endWithFingersDown: Set<String> = [
        "evemu/3m.event.gz",
        "xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-down.events",
    ]

    @Test func thereAreEnoughRecordings() {
        #expect(Self.recordings.count >= 50)
    }

    @Test(arguments: recordings)
    func parsesConsistentlyInsideTheViewport(file: String) throws {
        let size = Size(width: 1280, height: 800)
        let trace = try TouchData.read(file, size: size)
        let stats = TraceStats(trace)
        #expect(trace.viewport == size)
        #expect(stats.downs >= 1)
        #expect(stats.consistent, "every move/end belongs to a touch that is down, no id begins twice")
        #expect(stats.allInside)
        #expect(trace.frames.allSatisfy { !$0.changes.isEmpty })
        #expect(zip(trace.frames, trace.frames.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        #expect(trace.frames.first?.timestamp ?? 0 >= 0)
        if !Self.endWithFingersDown.contains(file) {
            #expect(stats.stillDown == 0)
        }
        // Fresh increasing ids from 1.
        let ids = stats.fingers.map(\.id)
        #expect(Set(ids) == Set(1...stats.downs))
    }

    @Test(arguments: 1...4)
    func ntrigTapsHaveNFingers(n: Int) throws {
        // Protocol A without tracking ids; header in the sibling ntrig-xt2.device.
        let stats = TraceStats(try TouchData.read("evemu/ntrig-xt2/ntrig-xt2-\(n)-tap.event"))
        #expect(stats.downs == n)
        #expect(stats.maxSimultaneous == n)
        #expect(stats.duration < 0.15)
        // A tap: no finger moves more than 20 points (of 1000; lifting fingers jitter).
        #expect(stats.fingers.allSatisfy { $0.travel.length < 20 })
    }

    @Test func explicitDeviceEqualsSiblingDevice() throws {
        let path = TouchData.path("evemu/ntrig-xt2/ntrig-xt2-3-tap.event")
        let sibling = try TraceReader.read(path: path, size: nil, device: nil)
        let explicit = try TraceReader.read(
            path: path, size: nil, device: TouchData.path("evemu/ntrig-xt2/ntrig-xt2.device"))
        #expect(sibling == explicit)
        #expect(sibling.viewport == Size(width: 1024, height: 768))
    }

    @Test func wetabHasElevenOneFingerTaps() throws {
        let stats = TraceStats(try TouchData.read("evemu/wetab.event"))
        #expect(stats.downs == 11)
        #expect(stats.maxSimultaneous == 1)
        #expect(stats.strokes.count == 11)
        for f in stats.fingers {
            #expect((f.endTime ?? 99) - f.startTime < 0.25)
            #expect(f.travel.length < 5)
        }
    }

    @Test func wacomISDv4E6Files() throws {
        let base = "evemu-devices/tablets/Wacom_ISDv4_E6_Finger."
        let single = TraceStats(try TouchData.read(base + "single-tap-center.events"))
        #expect(single.downs == 1)
        let twoFinger = TraceStats(try TouchData.read(base + "2fg-tap.events"))
        #expect(twoFinger.downs == 2)
        #expect(twoFinger.maxSimultaneous == 2)
        let doubleTap = TraceStats(try TouchData.read(base + "double-tap-center.events"))
        #expect(doubleTap.downs == 2)
        #expect(doubleTap.maxSimultaneous == 1)
        #expect(doubleTap.strokes.count == 2)
        #expect(doubleTap.fingers[0].start.distance(to: doubleTap.fingers[1].start) < 20)
        // Two fingers scrolling down most of the tablet, side by side.
        let scroll = TraceStats(try TouchData.read(base + "double-center-scroll.events"))
        #expect(scroll.downs == 2)
        #expect(scroll.maxSimultaneous == 2)
        for f in scroll.fingers {
            #expect(f.travel.dy > 600)
            #expect(abs(f.travel.dx) < 20)
        }
        // One finger swiping right across the top.
        let swipe = TraceStats(try TouchData.read(base + "single-top-swipe.events"))
        #expect(swipe.downs == 1)
        #expect(swipe.fingers[0].travel.dx > 800)
        #expect(abs(swipe.fingers[0].travel.dy) < 30)
        #expect(swipe.fingers[0].start.y < 100)
    }

    @Test func threeMGzipHasManyFingers() throws {
        let trace = try TouchData.read("evemu/3m.event.gz")
        let stats = TraceStats(trace)
        #expect(stats.maxSimultaneous == 10)
        #expect(stats.downs == 34)
        #expect(stats.duration > 28 && stats.duration < 30)
        #expect(stats.strokes.contains { $0.count >= 5 })
    }

    @Test func otherDevicesFingerCounts() throws {
        let cases: [(String, downs: Int, max: Int)] = [
            ("evemu-devices/tablets/Wacom_DTH2242_Finger.events", 66, 10),
            ("evemu-devices/tablets/dell_canvas_touch.evemu", 12, 5),
            ("xorg-integration-tests/tablets/n4.events", 12, 4),
            ("evemu-devices/touchpads/bcm5974.three-finger-click.events", 6, 3),
            ("evemu/bcm5974.event", 14, 4),
            ("evemu-devices/touchscreens/Atmel_maXTouch_Touchscreen.1-finger-fast-taps.events", 9, 1),
            ("evemu-devices/touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", 4, 4),
            ("evemu-devices/touchscreens/EP0430M09.4-finger-drag-down.events", 4, 4),
            ("evemu-devices/touchscreens/N-Trig_MultiTouch.2-fingers-touch-release.events", 2, 2),
            ("evemu-devices/tablets/Wacom_Bamboo_16FG_4x5_Finger_double-tap.events", 2, 2),
            ("xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events", 2, 2),
        ]
        for c in cases {
            let stats = TraceStats(try TouchData.read(c.0))
            #expect(stats.downs == c.downs, "\(c.0)")
            #expect(stats.maxSimultaneous == c.max, "\(c.0)")
        }
    }

    @Test func fourFingerDragsMoveTogetherVertically() throws {
        // Atmel's fingers go down the screen; EP0430M09's go up (its "drag down" and "scroll down"
        // move the content, the fingers travel towards the top, as the data shows).
        for (file, sign) in [
            ("evemu-devices/touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", 1.0),
            ("evemu-devices/touchscreens/EP0430M09.4-finger-drag-down.events", -1.0),
        ] {
            let stats = TraceStats(try TouchData.read(file))
            #expect(stats.fingers.count == 4)
            for f in stats.fingers {
                #expect(f.travel.dy * sign > 200, "\(file) finger \(f.id)")
                #expect(abs(f.travel.dx) < 30, "\(file) finger \(f.id)")
            }
        }
    }

    @Test func bcm5974LiftsFingersWithZeroTouchMajor() throws {
        // Protocol A without tracking ids; the driver never sends an empty frame, it reports
        // lifting contacts with ABS_MT_TOUCH_MAJOR 0. Three strokes: 1, 2, then 3 fingers.
        let stats = TraceStats(try TouchData.read("evemu-devices/touchpads/bcm5974.three-finger-click.events"))
        #expect(stats.strokes.map(\.count) == [1, 2, 3])
        #expect(stats.stillDown == 0)
    }
}
