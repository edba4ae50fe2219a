import GestureKit
import GestureShellCore
import GestureTestSupport
import GestureTrace
import Testing

@testable import GesturesDemo

/// The kiosk's tour streamed from its file (``replayEvents(_:from:to:onError:)``): every play
/// opens the file again, and the director logs exactly what the same tour held in memory gives.
@MainActor
@Suite("Streamed tour: loops over the file, as the tour in memory")
struct StreamedTourTests {
    /// The director's log lines (gesture and kiosk events, times kept) over two plays of the
    /// bundled tour on a 1280x800 window (scaled from its 1024x768): 1 s idle, 8 s of events and
    /// 1 s of tail, 0.5 s gap, the same again (ending at 19.5).
    static func log(tour: @escaping (Size) -> ReplayEvents) -> [String] {
        let size = Size(width: 1280, height: 800)
        let scene = DemoScene(size: size)
        let d = KioskDirector(scene: scene)
        d.resetDelay = 60
        d.tourDelay = 1
        d.tourGap = 0.5
        d.tour = tour
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        d.onEvent = { e, t in log.append("\(e)@\(t)") }
        d.resize(to: size, at: 0)
        KioskDirectorTests.run(d, to: 19.9)
        return log
    }

    @Test("The bundled tour, streamed, plays twice (the file opened again) with the log of the tour in memory")
    func loopsAsInMemory() throws {
        let path = repositoryRoot + "/Resources/tour.jsonl"
        let stream = try TraceReader.stream(path: path, size: nil, device: nil)
        let whole = try TraceReader.read(path: path, size: nil, device: nil)
        #expect(stream.viewportFromTrace && stream.viewport == whole.viewport)
        var opens = 0
        var errors: [TraceError] = []
        let streamed = Self.log { size in
            let events = replayEvents(stream, from: stream.viewport, to: size) { errors.append($0) }
            return ReplayEvents {
                opens += 1
                return events.open()
            }
        }
        let inMemory = Self.log { size in ReplayEvents(Trace.scaled(whole.events, from: whole.viewport, to: size)) }
        #expect(opens == 2, "the file is opened for each play")
        #expect(errors.isEmpty)
        let kiosk = streamed.filter { !$0.hasPrefix("{") }.map { $0.prefix { $0 != "@" } }
        #expect(kiosk == ["tourStart", "tourEnd", "tourStart", "tourEnd"], "\(streamed.filter { !$0.hasPrefix("{") })")
        #expect(streamed.filter { $0.contains("\"type\":\"gesture\"") }.count > 10)
        #expect(streamed == inMemory)
    }
}
