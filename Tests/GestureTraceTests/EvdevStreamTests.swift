import Foundation
import GestureKit
import GestureTestSupport
import Testing

@testable import GestureTrace

/// `gestures replay` streams a plain evemu recording or getevent text from
/// disk (every line checked, the touches rebuilt and checked, then read again as it plays); what
/// it hands over, and every error, must be what ``TraceReader/read`` gives for the whole file.
@Suite("Streamed evemu and getevent recordings: the same events and errors as read")
struct EvdevStreamTests {
    /// The recordings of `Tests/Fixtures/touchdata` (not the licences, notes and descriptions).
    static let recordings: [String] = {
        guard let all = FileManager.default.enumerator(atPath: TouchData.root) else { return [] }
        return all.compactMap { $0 as? String }.filter { name in
            [".events", ".event", ".evemu", ".txt", ".gz"].contains { name.hasSuffix($0) }
        }.sorted()
    }()

    /// Writes `bytes` to a scratch file named after `tag`; the caller removes it.
    static func file(_ tag: String, _ bytes: [UInt8]) -> String {
        let path = "/tmp/gestures-evdev-stream-\(getpid())-\(tag)"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    /// Read whole and streamed: the same events and viewport, or the same error. True when
    /// the stream reads the file from disk (not whole).
    @discardableResult
    static func expectSame(_ path: String, size: Size?, device: String? = nil) -> Bool {
        let read = Result { () throws(TraceError) in try TraceReader.read(path: path, size: size, device: device) }
        let stream = Result { () throws(TraceError) in try TraceReader.stream(path: path, size: size, device: device) }
        switch (read, stream) {
        case (.success(let trace), .success(let s)):
            var events: [InputEvent] = []
            #expect(s.forEachEvent { events.append($0) } == nil)
            #expect(events == trace.events, "\(path)")
            #expect(s.viewport == trace.viewport && s.viewportFromTrace == trace.viewportFromTrace)
            #expect(s.actions.isEmpty)
            switch s.storage {
            case .evdevFile: return true
            case .events(let held): return held.isEmpty  // a header alone
            default: return false
            }
        case (.failure(let a), .failure(let b)):
            #expect(a == b)
            return b.file == path
        default:
            Issue.record("\(path): read \(read), stream \(stream)")
            return false
        }
    }

    @Test(
        "Every real recording (tens of thousands of frames in all), two viewports", arguments: recordings)
    func realRecording(file: String) {
        for size in [nil, Size(width: 800, height: 600)] {
            let fromDisk = Self.expectSame(TouchData.path(file), size: size)
            // Every one streams from disk, gzipped or not.
            #expect(fromDisk, "\(file)")
        }
    }

    static let header = "# EVEMU 1.3\nN: t\nA: 35 0 1000 0 0 0\nA: 36 0 500 0 0 0\n"
    static let tapB = "E: 1.0 0003 0039 1\nE: 1.0 0003 0035 100\nE: 1.0 0003 0036 50\nE: 1.0 0000 0000 0\n"
    static let liftB = "E: 1.5 0003 0039 -1\nE: 1.5 0000 0000 0\n"
    static let getevent =
        "[  1.000000] EV_ABS ABS_MT_TRACKING_ID 00000001\r\n[  1.000000] EV_ABS ABS_MT_POSITION_X 00000010\r\n"
        + "[  1.000000] EV_ABS ABS_MT_POSITION_Y 00000020\r\n[  1.000000] EV_SYN SYN_MT_REPORT 00000000\r\n"
        + "[  1.000000] EV_SYN SYN_REPORT 00000000\r\n[  1.100000] EV_SYN SYN_MT_REPORT 00000000\r\r\n"
        + "[  1.100000] EV_SYN SYN_REPORT 00000000\r\r"

    @Test(
        "Line ends, byte-order marks, blank lines, bytes that are not UTF-8, a late SYN_MT_REPORT",
        arguments: [
            Array((header + tapB + liftB).utf8),
            Array((header + tapB + liftB).replacingOccurrences(of: "\n", with: "\r\n").utf8),
            [0xEF, 0xBB, 0xBF] + Array((header + tapB + liftB).utf8),
            Array(("\n  \n\t\n" + header + tapB + "E: 1.2 0003 0035 300\nE: 1.2 0000 0000 0" + "\r\r").utf8),
            Array((header + "# a \u{1}comment ").utf8) + [0xFF, 0xC3, 0x0A] + Array((tapB + liftB).utf8),
            Array((header + tapB + liftB + "E: 2.0 0000 0002 0\nE: 2.0 0000 0000 0\n").utf8),
            Array(getevent.utf8), [0xEF, 0xBB, 0xBF] + Array(getevent.utf8),
            Array(getevent.replacingOccurrences(of: "\r", with: "").utf8),
            Array((header + "N: only a header\n").utf8),
        ])
    func sameAsRead(bytes: [UInt8]) {
        let path = Self.file("edge-\(bytes.count)", bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for size in [nil, Size(width: 300, height: 200)] {
            #expect(Self.expectSame(path, size: size))
        }
    }

    /// A recording of `frames` frames of one finger moving (4 lines each), then `tail`.
    static func long(frames: Int, tail: String) -> [UInt8] {
        var text = header + "E: 1.000000 0003 0039 1\n"
        text.reserveCapacity(frames * 90)
        for i in 0..<frames {
            let t = "\(1 + i / 100).0000\(i % 100 < 10 ? "0" : "")\(i % 100)"
            text += "E: \(t) 0003 0035 \(i % 1000)\nE: \(t) 0003 0036 \(i % 500)\nE: \(t) 0000 0000 0\n# frame\n"
        }
        return Array((text + tail).utf8)
    }

    /// The last lines of ``lateError(kind:)``, and their message.
    static func tail(_ kind: String) -> (String, String) {
        switch kind {
        case "value": ("E: 9999.0 0003 0035 zz\n", "expected a decimal event value, got \"zz\"")
        case "time":
            (
                "E: 99999999999999.0 0003 0035 1\n",
                "expected a time \"<seconds>.<microseconds>\", got \"99999999999999.0\""
            )
        case "axis":
            (
                "A: 35 0 99999999999 0 0\n",
                "expected the axis minimum and maximum to be 32-bit integers, got 0 and 99999999999"
            )
        default:
            (
                (2...300).map { "E: 9999.0 0003 002f \($0)\nE: 9999.0 0003 0039 \($0)\n" }.joined(),
                "expected at most 256 touches down at once"
            )
        }
    }

    @Test(
        "A bad line, an overflowing number or too many touches at the end of a long recording: refused, as read does",
        arguments: ["value", "time", "axis", "touches"])
    func lateError(kind: String) {
        let (tail, message) = Self.tail(kind)
        let bytes = Self.long(frames: 50_000, tail: tail)
        let path = Self.file("late-\(tail.utf8.count)", bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = bytes.count { $0 == 0x0A }
        let badLine = kind == "touches" ? lines - 2 * 299 + 2 * 255 + 2 : lines
        #expect(throws: TraceError(file: path, line: badLine, message: message)) {
            try TraceReader.stream(path: path, size: nil, device: nil)
        }
        #expect(Self.expectSame(path, size: nil))
    }

    @Test("Errors in read's order: a long line after a bad one, then --device, then the recording's syntax")
    func errorOrder() {
        let bad = Array((Self.header + "E: x\n").utf8) + [UInt8](repeating: 0x23, count: (4 << 20) + 1)
        let path = Self.file("order", bad)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TraceError(file: path, line: 6, message: "expected a line of at most 4 MiB")) {
            try TraceReader.stream(path: path, size: nil, device: nil)
        }
        Self.expectSame(path, size: nil)
        let late = Self.file("order2", Array((Self.header + "E: x\n").utf8))
        defer { try? FileManager.default.removeItem(atPath: late) }
        let missing = "/tmp/gestures-evdev-stream-\(getpid())-missing.desc"
        #expect(throws: TraceError(file: missing, line: 0, message: "no such file")) {
            try TraceReader.stream(path: late, size: nil, device: missing)
        }
        Self.expectSame(late, size: nil, device: missing)
        let device = Self.file("order.desc", Array("A: 35 0 10 0 0\nA: 36 0 zz\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: device) }
        let tap = Self.file("order3", Array((Self.tapB + Self.liftB).utf8))
        defer { try? FileManager.default.removeItem(atPath: tap) }
        #expect(
            throws: TraceError(
                file: device, line: 2, message: "expected \"A: <code hex> <min> <max> <fuzz> <flat> [<resolution>]\"")
        ) {
            try TraceReader.stream(path: tap, size: nil, device: device)
        }
        for path in [late, tap] { Self.expectSame(path, size: nil, device: device) }
    }

    @Test("A recording that changes between the check and the replay: the replay stops with its error")
    func changedOnDisk() throws {
        let path = Self.file("changed", Array((Self.header + Self.tapB + Self.liftB).utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try TraceReader.stream(path: path, size: nil, device: nil)
        #expect(FileManager.default.createFile(atPath: path, contents: Data((Self.header + Self.tapB + "E: x\n").utf8)))
        var events: [InputEvent] = []
        let error = stream.forEachEvent { events.append($0) }
        #expect(
            error
                == TraceError(
                    file: path, line: 9,
                    message: "expected \"E: <seconds>.<microseconds> <type hex> <code hex> <value>\""))
        #expect(events.count == 1)
    }

    @Test("Gzip data without the .gz name streams from disk, inflated as it is read, the same events as read")
    func gzipWithoutSuffix() throws {
        let plain = Self.file("gz", Self.long(frames: 2000, tail: ""))
        try gzip(plain)
        let path = plain + ".data"
        try FileManager.default.moveItem(atPath: plain + ".gz", toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(Self.expectSame(path, size: nil))  // from disk, not whole
        #expect(try TraceReader.read(path: path, size: nil, device: nil).frames.count == 2000)
    }

    @Test(
        "Mutated recordings (line ends, marks, combining and invalid bytes, stray fields): read and stream agree",
        arguments: [false, true])
    func mutations(getevent: Bool) {
        let clean =
            getevent ? Self.getevent.replacingOccurrences(of: "\r", with: "") : Self.header + Self.tapB + Self.liftB
        let base = Array(clean.utf8)
        let pieces: [[UInt8]] = [
            [0x0D], [0x0A], [0x0D, 0x0A], [0x20], [0x09], [0xEF, 0xBB, 0xBF], [0xCC, 0x81], [0xFF], [0x23],
            Array("E: ".utf8), Array("A: 35 0 10 0 0\n".utf8), Array("[ 2.0] EV_SYN SYN_MT_REPORT 0\n".utf8), [0x30],
        ]
        var seed: UInt64 = getevent ? 7 : 11
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for round in 0..<600 {
            var bytes = base
            for _ in 0...next(2) {
                let at = next(bytes.count + 1)
                if next(4) == 0 && at < bytes.count {
                    bytes.remove(at: at)
                } else {
                    bytes.insert(contentsOf: pieces[next(pieces.count)], at: at)
                }
            }
            let path = Self.file("mutation-\(getevent)-\(round)", bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            Self.expectSame(path, size: nil)
        }
    }
}
