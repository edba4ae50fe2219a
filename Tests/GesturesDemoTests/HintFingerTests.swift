import GestureKit
import GestureTestSupport
import GesturesDemo
import Testing

/// Failure hints that name the right cause when several fingers are down, and no hints in
/// `--classic` (the book's app shows only recognized gestures). Whole logs at 1024×768.
@Suite @MainActor struct HintFingerTests {
    static func labels(_ log: [String]) -> [String] {
        log.compactMap { line in
            guard let r = line.range(of: #""label":""#) else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// Two fingers tapping "Tap Me!" together.
    static let twoFingerTap = [
        frame(0, Finger.down(1, 260, 160), Finger.down(2, 290, 160)),
        frame(0.08, Finger.up(1, 260, 160), Finger.up(2, 290, 160)),
    ]
    /// A palm: five touches landing over "Tap Me!" within 30 ms, lifted together.
    static let palm = [
        frame(0, Finger.down(1, 200, 150)), frame(0.01, Finger.down(2, 230, 160)),
        frame(0.02, Finger.down(3, 260, 170)),
        frame(0.03, Finger.down(4, 290, 160), Finger.down(5, 320, 150)),
        frame(
            0.2, Finger.up(1, 200, 150), Finger.up(2, 230, 160), Finger.up(3, 260, 170), Finger.up(4, 290, 160),
            Finger.up(5, 320, 150)),
    ]
    /// Two fingers swiping "Swipe Me!" 200 pt right in 0.1 s (2000 pt/s).
    static let twoFingerSwipe: [InputEvent] =
        [frame(0, Finger.down(1, 600, 150), Finger.down(2, 600, 180))]
        + (1...5).map { k in
            let x = 600 + 40 * Double(k)
            return frame(0.02 * Double(k), Finger.move(1, x, 150), Finger.move(2, x, 180))
        } + [frame(0.11, Finger.up(1, 800, 150), Finger.up(2, 800, 180))]

    @Test("A two-finger tap in Tap Me! says \"Tap with one finger\"")
    func twoFingerTapHint() {
        let log = replayLog(Self.twoFingerTap).1
        #expect(Self.labels(log).last == "Tap with one finger")
        #expect(!log.contains { $0.contains("Tap quickly without moving") })
    }

    @Test("A palm on Tap Me! says \"Tap with one finger\"")
    func palmHint() {
        let log = replayLog(Self.palm).1
        #expect(Self.labels(log).last == "Tap with one finger")
        #expect(!log.contains { $0.contains("Tap quickly without moving") })
    }

    @Test("A fast two-finger swipe in Swipe Me! says \"Swipe with one finger\"")
    func twoFingerSwipeHint() {
        let log = replayLog(Self.twoFingerSwipe).1
        #expect(Self.labels(log).last == "Swipe with one finger")
        #expect(!log.contains { $0.contains("Swipe further") || $0.contains("Swipe faster") })
    }

    /// `--classic`: the same failures, and a slow swipe and a held tap, leave the label alone.
    @Test("--classic shows no failure hints")
    func classicShowsNoHints() {
        var slow = [frame(0, Finger.down(1, 650, 165))]
        for k in 1...20 { slow.append(frame(0.05 * Double(k), Finger.move(1, 650 + 10 * Double(k), 165))) }
        slow.append(frame(1.05, Finger.up(1, 850, 165)))
        let held = [frame(0, Finger.down(1, 270, 160)), frame(0.7, Finger.up(1, 270, 160))]
        for (name, events) in [
            ("two-finger tap", Self.twoFingerTap), ("palm", Self.palm), ("two-finger swipe", Self.twoFingerSwipe),
            ("slow swipe", slow), ("held tap", held),
        ] {
            let classic = replayLog(events, classic: true).1
            #expect(Set(Self.labels(classic)) == ["Do something!"], "\(name): \(classic)")
            // The default mode does give a hint for each.
            let hinted = replayLog(events).1
            #expect(Self.labels(hinted).last != "Do something!", "\(name)")
        }
    }
}
