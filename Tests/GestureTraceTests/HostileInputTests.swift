import Foundation
import GestureKit
import GestureTestSupport
import Testing

@testable import GestureTrace

/// Messages show input tokens escaped and cut; extreme values are refused with their
/// line; the readers stay linear on inputs of hostile size (these check the results only: the
/// times are the benchmarks' business, Benchmarks/GestureBenchmarks/ParseBenchmarks.swift).
@Suite("Hostile input: escaped messages, bounded values, linear readers")
struct HostileInputTests {
    static let escape = "\u{1B}]0;pwned\u{07}"
    static let quotedCases: [(String, String)] = [
        ("tapp", #""tapp""#),
        ("a\"b\\c", #""a\"b\\c""#),
        (escape, #""\u{1B}]0;pwned\u{7}""#),
        ("x\n\t\r\u{7F}\u{9B}\u{202E}y", #""x\n\t\r\u{7F}\u{9B}\u{202E}y""#),
        (String(repeating: "é", count: 81), "\"" + String(repeating: "é", count: 80) + "…\""),
        (String(repeating: "a", count: 80), "\"" + String(repeating: "a", count: 80) + "\""),
    ]
    /// The same in a JSON string (a raw control character is not valid JSON).
    static let jsonEscape = #"\u001b]0;pwned\u0007"#

    @Test(
        "MessageText: controls, C1, bidi overrides and quotes escaped; long tokens cut at 80",
        arguments: quotedCases)
    func quoted(token: String, shown: String) {
        #expect(MessageText.quoted(token) == shown)
    }

    @Test("MessageText.line escapes controls but leaves escapes already made alone; lists are cut")
    func lineAndList() {
        #expect(MessageText.line("f:1: got \"\\u{1B}\" \u{1B}[2J") == "f:1: got \"\\u{1B}\" \\u{1B}[2J")
        #expect(MessageText.line(String(repeating: "x", count: 5000)).unicodeScalars.count == 2001)
        #expect(MessageText.list((0..<25).map { "r\($0)" }).hasSuffix("r19, … (5 more)"))
    }

    @Test(
        "A terminal escape in a token prints as visible escapes, in every reader",
        arguments: [
            ("E: \(escape) 0003 0035 1\n", #"expected a time "<seconds>.<microseconds>", got "\u{1B}]0;pwned\u{7}""#),
            ("E: 0.0 \(escape) 0035 1\n", #"expected a hexadecimal event type, got "\u{1B}]0;pwned\u{7}""#),
            ("[ 1.0] EV_\(escape) ABS_X 1\n", #"unknown event type "EV_\u{1B}]0;pwned\u{7}""#),
            ("{\"type\":\"\(jsonEscape)\",\"t\":0}\n", #"unknown type "\u{1B}]0;pwned\u{7}" (expected"#),
            (
                "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":1,\"\(jsonEscape)\":1}\n",
                #"unexpected key "\u{1B}]0;pwned\u{7}""#
            ),
        ])
    func escapedTokens(text: String, message: String) {
        #expect(throws: TraceError.self) { try TraceReader.parse(text: text, file: "t", size: nil, deviceText: nil) }
        do {
            _ = try TraceReader.parse(text: text, file: "t", size: nil, deviceText: nil)
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
            #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
    }

    @Test("A 10 MB token makes a short message (cut at 80 characters with …)")
    func hugeToken() throws {
        let token = String(repeating: "9", count: 10_000_000)
        do {
            _ = try TraceReader.parse(text: "E: 1.0 0003 0035 \(token)\n", file: "t", size: nil, deviceText: nil)
            Issue.record("a 10 MB value was accepted")
        } catch {
            let expected = "t:1: expected a decimal event value, got \"" + String(repeating: "9", count: 80) + "…\""
            #expect(error.description == expected)
        }
    }

    @Test(
        "Values beyond the documented bound are refused with their line",
        arguments: [
            (
                #"{"type":"down","t":0,"id":1,"x":1e308,"y":1}"#,
                #"expected "x" to be a number within ±1000000, got 1e+308"#
            ),
            (#"{"type":"down","t":0,"id":1,"x":1,"y":-1000000.5}"#, #"expected "y" to be a number within ±1000000"#),
            (#"{"type":"wait","t":1e10}"#, #"expected "t" to be a number within ±1000000000, got 10000000000"#),
            (
                #"{"type":"pinch","t":0,"phase":"begin","x":1,"y":1,"scale":1e300}"#,
                #"expected "scale" to be at most 1000000, got 1e+300"#
            ),
            (
                #"{"type":"pinch","t":0,"phase":"begin","x":1,"y":1,"angle":-1e300}"#,
                #"expected "angle" to be a number within"#
            ),
            (#"{"type":"set","t":0,"recognizer":"p","rotation":1e7}"#, #"expected "rotation" to be a number within"#),
            (#"{"type":"viewport","width":1e9,"height":768}"#, #"expected "width" to be at most 1000000"#),
        ])
    func extremeValues(line: String, message: String) {
        do {
            _ = try TraceReader.parse(text: line + "\n", file: "t.jsonl", size: nil, deviceText: nil)
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.description.hasPrefix("t.jsonl:1: " + message), "\(error.description)")
        }
    }

    @Test("The bound itself is accepted")
    func boundAccepted() throws {
        let line = #"{"type":"down","t":1e9,"id":1,"x":-1000000,"y":1000000}"#
        let trace = try TraceReader.parse(text: line + "\n", file: "t", size: nil, deviceText: nil)
        #expect(trace.frames.first?.changes.first?.location == Point(x: -1_000_000, y: 1_000_000))
    }

    @Test("A 2 MB object of 200k keys: the duplicate at the very end is found, at its column")
    func bigObjectDuplicate() {
        var line = "{\"type\":\"down\""
        for i in 0..<200_000 { line += ",\"k\(i)\":0" }
        let column = line.utf8.count + 2
        line += ",\"k123456\":1}"
        do {
            _ = try TraceReader.parse(text: line, file: "t", size: nil, deviceText: nil)
            Issue.record("the duplicate was not found")
        } catch {
            #expect(error.description == "t:1: invalid JSON at column \(column): duplicate key \"k123456\"")
        }
    }

    @Test("50k distinct evemu slots, each lifted a frame later: each finger began and ended once, in order")
    func fiftyThousandSlots() throws {
        var s = "A: 2f 0 60000 0 0\nA: 35 0 1000 0 0\nA: 36 0 1000 0 0\n"
        for i in 0..<50_000 {
            s += "E: \(i).0 0003 002f \(i)\nE: \(i).0 0003 0039 \(i)\nE: \(i).0 0003 0035 10\n"
            s += "E: \(i).0 0003 0036 20\nE: \(i).0 0000 0000 0\nE: \(i).5 0003 0039 -1\nE: \(i).5 0000 0000 0\n"
        }
        let trace = try TraceReader.parse(text: s, file: "t", size: Size(width: 1000, height: 1000), deviceText: nil)
        let frames = trace.frames
        #expect(frames.count == 100_000)
        #expect(frames.allSatisfy { $0.changes.count == 1 })
        #expect(frames.map { $0.changes[0].phase } == Array(repeating: [.began, .ended], count: 50_000).flatMap { $0 })
        #expect(frames.map { $0.changes[0].id } == (1...50_000).flatMap { [$0, $0] })
        #expect(frames.last?.changes[0].location == Point(x: 10, y: 20))
    }

    @Test("30k touches, 200 down at a time: every one began and ended, in order")
    func thirtyThousandTouches() throws {
        var s = ""
        for i in 0..<30_000 {
            s += "{\"type\":\"down\",\"t\":\(i),\"id\":\(i),\"x\":1,\"y\":2}\n"
            if i >= 199 { s += "{\"type\":\"up\",\"t\":\(i),\"id\":\(i - 199),\"x\":1,\"y\":2}\n" }
        }
        for i in 29_801..<30_000 { s += "{\"type\":\"up\",\"t\":30000,\"id\":\(i),\"x\":1,\"y\":2}\n" }
        let frames = try TraceReader.parse(text: s, file: "t", size: nil, deviceText: nil).frames
        #expect(frames.count == 30_001)
        let changes = frames.flatMap(\.changes)
        #expect(changes.filter { $0.phase == .began }.map(\.id) == Array(0..<30_000))
        #expect(changes.filter { $0.phase == .ended }.map(\.id) == Array(0..<30_000))
    }

    @Test(
        "A 257th touch down at once is refused at its line, in every format",
        arguments: [
            (
                (0..<257).map { "{\"type\":\"down\",\"t\":0,\"id\":\($0),\"x\":1,\"y\":2}\n" }.joined(),
                "t:257: expected at most 256 touches down at once"
            ),
            (
                "A: 35 0 100 0 0\nA: 36 0 100 0 0\n"
                    + (0..<257).map { "E: 0.0 0003 0035 \($0 % 100)\nE: 0.0 0003 0036 1\nE: 0.0 0000 0002 0\n" }
                    .joined(),
                "t:773: expected at most 256 touches down at once"
            ),
            (
                "A: 2f 0 9999 0 0\nA: 35 0 100 0 0\nA: 36 0 100 0 0\n"
                    + (0..<257).map { "E: 0.0 0003 002f \($0)\nE: 0.0 0003 0039 \($0)\n" }.joined(),
                "t:517: expected at most 256 touches down at once"
            ),
        ])
    func tooManyTouches(text: String, message: String) {
        #expect(throws: TraceError.self) { try TraceReader.parse(text: text, file: "t", size: nil, deviceText: nil) }
        do {
            _ = try TraceReader.parse(text: text, file: "t", size: nil, deviceText: nil)
        } catch {
            #expect(error.description == message)
        }
    }
}

/// `gestures replay` streams a JSON Lines trace (checked whole, then read
/// again as it plays); what it hands over must be what ``TraceReader/read`` returns.
@Suite("Streamed traces hand over the same events, viewport and actions as read")
struct TraceStreamTests {
    /// A tap of touch 1; `upID` lifts another touch instead (an error on line 2).
    static func tap(upID: Int = 1) -> String {
        "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":2}\n{\"type\":\"up\",\"t\":1,\"id\":\(upID),\"x\":1,\"y\":2}\n"
    }

    /// Writes `text` to a scratch file named after `tag`; the caller removes it.
    static func file(_ tag: String, _ text: String) -> String {
        let path = "/tmp/gestures-stream-\(tag)-\(getpid())"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    static func events(_ s: TraceStream) -> [InputEvent] {
        var out: [InputEvent] = []
        s.forEachEvent { out.append($0) }
        return out
    }

    @Test(
        "JSON Lines (a byte-order mark, CRLF, blank lines, set lines, pinch, shake, wait) and evemu",
        arguments: [
            "\u{FEFF}{\"type\":\"viewport\",\"width\":800,\"height\":600}\r\n\n"
                + "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":2}\r\n{\"type\":\"down\",\"t\":0,\"id\":2,\"x\":3,\"y\":4}\n"
                + "{\"type\":\"set\",\"t\":0,\"recognizer\":\"p\",\"isEnabled\":false}\n   \n"
                + "{\"type\":\"move\",\"t\":0.1,\"id\":1,\"x\":5,\"y\":2}\n{\"type\":\"shake\",\"t\":0.2}\n"
                + "{\"type\":\"pinch\",\"t\":0.3,\"phase\":\"begin\",\"x\":1,\"y\":1}\n{\"type\":\"wait\",\"t\":0.4}\n"
                + "{\"type\":\"up\",\"t\":0.5,\"id\":1,\"x\":5,\"y\":2}",
            "A: 35 0 100 0 0\nA: 36 0 100 0 0\nE: 1.0 0003 0039 1\nE: 1.0 0003 0035 10\nE: 1.0 0003 0036 20\n"
                + "E: 1.0 0000 0000 0\nE: 1.1 0003 0039 -1\nE: 1.1 0000 0000 0\n",
        ])
    func sameAsRead(text: String) throws {
        let path = Self.file("\(text.utf8.count).trace", text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for size in [nil, Size(width: 300, height: 200)] {
            let read = try TraceReader.read(path: path, size: size, device: nil)
            let stream = try TraceReader.stream(path: path, size: size, device: nil)
            #expect(!read.events.isEmpty)
            #expect(Self.events(stream) == read.events)
            #expect(stream.viewport == read.viewport && stream.viewportFromTrace == read.viewportFromTrace)
            #expect(stream.actions == read.actions)
        }
    }

    @Test("A bad line anywhere: the stream is refused before any event is handed over")
    func refusedWhole() throws {
        let path = Self.file("bad.jsonl", Self.tap(upID: 2))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TraceError(file: path, line: 2, message: "touch 2 is not down")) {
            try TraceReader.stream(path: path, size: nil, device: nil)
        }
    }

    @Test("A gzipped JSON Lines trace streams from its decompressed bytes, the same events as read")
    func gzipped() throws {
        let plain = Self.file("gz.jsonl", Self.tap())
        try gzip(plain)
        let path = plain + ".gz"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = try TraceReader.read(path: path, size: nil, device: nil)
        let stream = try TraceReader.stream(path: path, size: nil, device: nil)
        #expect(read.frames.count == 2)
        #expect(Self.events(stream) == read.events)
    }

    @Test("A plain file that changes between the check and the replay: the replay stops with its error")
    func changedOnDisk() throws {
        let path = Self.file("changed.jsonl", Self.tap())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try TraceReader.stream(path: path, size: nil, device: nil)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.tap(upID: 7).utf8)))
        var events: [InputEvent] = []
        let error = stream.forEachEvent { events.append($0) }
        #expect(error == TraceError(file: path, line: 2, message: "touch 7 is not down"))
    }

    @Test("A streamed file's line over 4 MiB is refused with its number, as read does")
    func longLine() throws {
        let path = Self.file(
            "long.jsonl", "{\"type\":\"wait\",\"t\":0}\n\n" + String(repeating: " ", count: (4 << 20) + 1) + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = TraceError(file: path, line: 3, message: "expected a line of at most 4 MiB")
        #expect(throws: expected) { try TraceReader.read(path: path, size: nil, device: nil) }
        #expect(throws: expected) { try TraceReader.stream(path: path, size: nil, device: nil) }
    }
}
