import Foundation
import GestureKit
import GestureShellCore
import GestureTestSupport
import GestureTrace
import Testing

@testable import GesturesDemo

#if canImport(Glibc)
    import Glibc
#endif

/// A streamed trace (`run --replay`, the kiosk's tour) whose file changes while it plays:
/// truncated, renamed over, appended to, deleted (see ``replayEvents(_:from:to:onError:)``).
/// The traces are over 64 KiB so that a pass is still reading the file when it changes.
@Suite("Streamed trace changed while it plays")
struct TraceChangedWhilePlayingTests {
    /// Two-finger drags from `t0` on, one every second: each a down frame, 30 move frames and
    /// an up frame, every frame two lines with one time.
    static func trace(drags: Int, from t0: Double = 0, viewport: Bool = true) -> String {
        var lines: [String] = viewport ? [#"{"type":"viewport","width":1000,"height":800}"#] : []
        for g in 0..<drags {
            let base = t0 + Double(g)
            func frame(_ type: String, _ k: Int) {
                let t = ((base + Double(k) * 0.016) * 1000).rounded() / 1000
                for id in 1...2 {
                    let x = 100 + Double(k) * 10 + Double(id) * 200
                    lines.append(#"{"type":"\#(type)","t":\#(t),"id":\#(id),"x":\#(x),"y":\#(300 + g % 7)}"#)
                }
            }
            frame("down", 0)
            for k in 1...30 { frame("move", k) }
            frame("up", 31)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    final class Folder {
        let path = NSTemporaryDirectory() + "gestures-changed-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        init() { mkdir(path, 0o755) }
        func file(_ name: String) -> String { path + "/" + name }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Pulls every event left in a pass.
    static func rest(_ pull: () -> InputEvent?) -> [InputEvent] {
        var out: [InputEvent] = []
        while let e = pull() { out.append(e) }
        return out
    }

    @Test(
        "Truncated mid-pass between the two lines of a frame: the pass ends before that frame with one error, then cancels the two fingers it held"
    )
    func truncatedMidFrame() throws {
        let folder = Folder()
        let path = folder.file("tour.jsonl")
        let text = Self.trace(drags: 40)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(text.utf8.count > 120_000)
        let whole = try TraceReader.read(path: path, size: nil, device: nil).events
        let stream = try TraceReader.stream(path: path, size: nil, device: nil)
        var errors: [TraceError] = []
        let pull = replayEvents(stream) { errors.append($0) }.open()
        var played = (0..<5).compactMap { _ in pull() }
        // Cut after the first line of a move frame past 100 000 bytes (the reader has its first
        // 64 KiB): a line boundary in the middle of a frame.
        var offset = 0
        var cut = 0
        for line in text.split(separator: "\n") {
            offset += line.utf8.count + 1
            if offset > 100_000 && line.contains(#""id":1,"#) && line.contains("move") {
                cut = offset
                break
            }
        }
        #expect(truncate(path, off_t(cut)) == 0)
        played += Self.rest(pull)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.description.contains("cut short") == true, "\(errors)")
        // Whole frames only, as in the file, then one frame cancelling both fingers.
        let cancel = try #require(played.last)
        guard case .touches(let frame) = cancel else {
            Issue.record("the pass ended on \(cancel), not on the fingers' cancel")
            return
        }
        #expect(frame.changes.map(\.id) == [1, 2] && frame.changes.allSatisfy { $0.phase == .cancelled }, "\(frame)")
        let before = played.dropLast()
        #expect(before.count > 5 && Array(before) == Array(whole.prefix(before.count)), "a frame was played in part")
        if case .touches(let last) = before.last { #expect(last.changes.count == 2, "\(last)") }
        #expect(pull() == nil, "the pass is over")
        // The next pass reads the file as it is now, from the top.
        let again = Self.rest(replayEvents(stream).open())
        #expect(again.first == whole.first)
    }

    @Test("Renamed over mid-pass: the pass plays the file it opened to its end; the next pass plays the new one")
    func renamedOver() throws {
        let folder = Folder()
        let path = folder.file("tour.jsonl")
        try Self.trace(drags: 40).write(toFile: path, atomically: false, encoding: .utf8)
        let old = try TraceReader.read(path: path, size: nil, device: nil).events
        let stream = try TraceReader.stream(path: path, size: nil, device: nil)
        var errors: [TraceError] = []
        let events = replayEvents(stream) { errors.append($0) }
        let pull = events.open()
        let head = (0..<5).compactMap { _ in pull() }
        let replacement = folder.file("new.jsonl")
        try Self.trace(drags: 3).write(toFile: replacement, atomically: false, encoding: .utf8)
        let new = try TraceReader.read(path: replacement, size: nil, device: nil).events
        #expect(rename(replacement, path) == 0)
        #expect(head + Self.rest(pull) == old)
        #expect(Self.rest(events.open()) == new)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test("Appended to mid-pass: the lines appended before the pass reads that far play in it")
    func appended() throws {
        let folder = Folder()
        let path = folder.file("tour.jsonl")
        try Self.trace(drags: 40).write(toFile: path, atomically: false, encoding: .utf8)
        let stream = try TraceReader.stream(path: path, size: nil, device: nil)
        var errors: [TraceError] = []
        let pull = replayEvents(stream) { errors.append($0) }.open()
        let head = (0..<5).compactMap { _ in pull() }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(Self.trace(drags: 2, from: 40, viewport: false).utf8))
        handle.closeFile()
        let grown = try TraceReader.read(path: path, size: nil, device: nil).events
        #expect(head + Self.rest(pull) == grown)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test(
        "Deleted between passes: no events and one error, not repeated at every pass; said again after a pass that played"
    )
    func deletedBetweenPasses() throws {
        let folder = Folder()
        let path = folder.file("tour.jsonl")
        let text = Self.trace(drags: 2)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let stream = try TraceReader.stream(path: path, size: nil, device: nil)
        var errors: [TraceError] = []
        let events = replayEvents(stream) { errors.append($0) }
        #expect(Self.rest(events.open()).count == 64)
        unlink(path)
        for _ in 0..<3 { #expect(Self.rest(events.open()).isEmpty) }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.description.contains("no such file") == true, "\(errors)")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(Self.rest(events.open()).count == 64)
        unlink(path)
        #expect(Self.rest(events.open()).isEmpty)
        #expect(errors.count == 2, "\(errors)")
    }

    @Test(
        "The kiosk's tour over a file truncated while it plays: the tour ends that pass, and plays again from the top")
    @MainActor
    func tourGoesOn() throws {
        let folder = Folder()
        let path = folder.file("tour.jsonl")
        let text = Self.trace(drags: 40)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let stream = try TraceReader.stream(path: path, size: nil, device: nil)
        var errors: [TraceError] = []
        let size = Size(width: 1000, height: 800)
        let scene = DemoScene(size: size)
        let d = KioskDirector(scene: scene)
        d.resetDelay = 600
        d.tourDelay = 1
        d.tourGap = 0.5
        d.tour = { size in replayEvents(stream, from: stream.viewport, to: size) { errors.append($0) } }
        var events: [String] = []
        d.onEvent = { e, _ in events.append(e) }
        d.resize(to: size, at: 0)
        KioskDirectorTests.run(d, to: 5)
        #expect(events == ["tourStart"], "\(events)")
        // Cut to its first 70 000 bytes, on a line boundary, while the tour plays its fifth drag.
        var cut = 0
        for line in text.split(separator: "\n") where cut + line.utf8.count + 1 <= 70_000 { cut += line.utf8.count + 1 }
        #expect(truncate(path, off_t(cut)) == 0)
        KioskDirectorTests.run(d, to: 60)
        #expect(errors.count == 1, "\(errors)")
        #expect(Array(events.prefix(3)) == ["tourStart", "tourEnd", "tourStart"], "\(events)")
    }
}
