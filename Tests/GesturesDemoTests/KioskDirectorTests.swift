import GestureKit
import GestureShellCore
import GestureTestSupport
import Testing

@testable import GesturesDemo

/// The kiosk's policy on a virtual clock: idle reset, the tour, a visitor stopping it.
@MainActor
@Suite("KioskDirector: idle reset and attract tour")
struct KioskDirectorTests {
    /// Runs the director's timers up to `t`, as the shell does.
    static func run(_ d: KioskDirector, to t: Double) {
        while let deadline = d.nextDeadline, deadline <= t { d.advance(to: deadline) }
    }

    @Test("Idle reset after the delay; the tour after its delay; a visitor stops it and puts the scene back")
    func policy() throws {
        let scene = DemoScene(size: Size(width: 1024, height: 768))
        let d = KioskDirector(scene: scene)
        d.resetDelay = 1
        d.tourDelay = 2
        d.tourGap = 0.5
        let c = scene.layout.image.center
        // The tour: a slow pan on the picture, 1.5 s long.
        d.tour = { _ in
            ReplayEvents(stroke(start: 0, steps: 50, dt: 0.03, [lerp(c, Point(x: c.x + 100, y: c.y))]))
        }
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        d.resize(to: Size(width: 1024, height: 768), at: 0)
        let home = scene.imageMatrix
        // A visitor pans the picture at 0.1–0.4.
        for e in stroke(start: 0.1, steps: 10, dt: 0.03, [lerp(c, Point(x: c.x - 80, y: c.y + 40))]) {
            Self.run(d, to: e.timestamp)
            d.noteActivity(at: e.timestamp)
            d.handle(e)
        }
        #expect(scene.imageMatrix != home)
        Self.run(d, to: 1.3)
        #expect(scene.imageMatrix != home, "reset before the delay")
        Self.run(d, to: 1.5)
        #expect(scene.imageMatrix == home, "no reset 1 s after the last activity")
        #expect(!d.isTouring)
        Self.run(d, to: 2.4)
        #expect(!d.isTouring, "the tour before 2 s without activity (the last at 0.45)")
        Self.run(d, to: 2.8)
        #expect(d.isTouring, "no tour 2 s after the last activity")
        #expect(log.contains { $0.contains("\"imagePan\"") && $0.contains("\"began\"") && $0.contains("\"t\":2.") })
        // A visitor: the tour stops at once, its touch cancelled, the picture back home.
        let before = log.count
        d.noteActivity(at: 2.9)
        #expect(!d.isTouring)
        #expect(log[before...].contains { $0.contains("\"imagePan\"") && $0.contains("\"cancelled\"") })
        #expect(scene.imageMatrix == home)
        // Nobody again: reset, then the tour once more 2 s after the visitor.
        Self.run(d, to: 4.8)
        #expect(!d.isTouring)
        Self.run(d, to: 5.0)
        #expect(d.isTouring)
        // It ends by itself (1.5 s of events + 1 s tail, at 7.4), then plays again after the gap.
        Self.run(d, to: 7.5)
        #expect(!d.isTouring)
        Self.run(d, to: 8.0)
        #expect(d.isTouring)
    }

    @Test(
        "Operator events: reset, tourStart, tourStop by a visitor, tourEnd; tour input is marked; a new scene stops the tour"
    )
    func events() throws {
        let size = Size(width: 1024, height: 768)
        let scene = DemoScene(size: size)
        let d = KioskDirector(scene: scene)
        d.resetDelay = 1
        d.tourDelay = 2
        d.tourGap = 0.5
        let c = scene.layout.image.center
        d.tour = { _ in ReplayEvents(stroke(start: 0, steps: 20, dt: 0.03, [lerp(c, Point(x: c.x + 60, y: c.y))])) }
        var events: [String] = []
        d.onEvent = { e, t in events.append("\(e)@\(t)") }
        var sources: [Bool] = []
        scene.onLogLine = { line in if line.contains("\"gesture\"") { sources.append(d.tourDrivesInput) } }
        d.resize(to: size, at: 0)
        Self.run(d, to: 2.3)
        #expect(events == ["tourStart@2.0"], "no reset without activity: \(events)")
        #expect(!sources.isEmpty && sources.allSatisfy { $0 }, "tour lines not marked: \(sources)")
        d.noteActivity(at: 2.35)
        #expect(events.last == "tourStop@2.35", "\(events)")
        #expect(sources.last == true, "the stop's cancel lines are the tour's")
        // Nobody: the tour again at 4.35, to its end (0.6 s of events + 1 s tail).
        Self.run(d, to: 6.0)
        #expect(events.suffix(3).map { $0.prefix { $0 != "@" } } == ["reset", "tourStart", "tourEnd"], "\(events)")
        // A reload's new scene while the tour plays: it stops, and the timers start again.
        Self.run(d, to: 6.6)
        #expect(d.isTouring)
        let fresh = DemoScene(size: size)
        d.replace(scene: fresh, at: 6.7)
        #expect(!d.isTouring && d.scene === fresh && events.last == "tourStop@6.7", "\(events)")
        Self.run(d, to: 8.6)
        #expect(!d.isTouring, "the tour before 2 s after the reload")
        Self.run(d, to: 8.8)
        #expect(d.isTouring)
    }
}
