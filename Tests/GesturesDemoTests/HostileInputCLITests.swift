import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile input and output, end to end: a failing stdout ends `gestures replay` with one line and status 1 on a
/// whole line; messages escape control characters and cut long tokens; extreme input never puts
/// `null`, `inf` or `nan` in the log; spec cycles are refused however long.
@Suite(
    "Hostile input and output: stdout failures, escaped messages, finite logs",
    .enabled(if: CLI.available, "the gestures executable is built beside the tests"), .timeLimit(.minutes(2)))
struct HostileInputCLITests {
    /// A pan on the image of `moves` moves: one log line per move.
    static func longPan(moves: Int) -> String {
        let c = layout1024.image.center
        var s = "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":\(c.x),\"y\":\(c.y)}\n"
        for i in 1...moves {
            s += "{\"type\":\"move\",\"t\":\(Double(i) / 100),\"id\":1,\"x\":\(c.x + Double(i % 50)),\"y\":\(c.y)}\n"
        }
        return s + "{\"type\":\"up\",\"t\":\(Double(moves + 1) / 100),\"id\":1,\"x\":\(c.x),\"y\":\(c.y)}\n"
    }

    /// Runs `gestures` with stdout on `stdout` (a file descriptor the caller opened) and returns
    /// the status and stderr.
    static func run(_ arguments: [String], stdout: FileHandle) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.executable)
        p.arguments = arguments
        let err = Pipe()
        p.standardOutput = stdout
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    @Test("replay > /dev/full: one line on stderr, status 1")
    func devFull() throws {
        let trace = write("hostile-pan-full.jsonl", Self.longPan(moves: 50))
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let r = try Self.run(["replay", trace], stdout: full)
        #expect(r.status == 1)
        #expect(r.stderr == "gestures: stdout: no space left on device; stopping\n")
    }

    @Test("replay into a pipe whose reader closed: one line on stderr, status 1 (not killed by SIGPIPE)")
    func closedPipe() throws {
        let trace = write("hostile-pan-pipe.jsonl", Self.longPan(moves: 50))
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let r = try Self.run(["replay", trace], stdout: pipe.fileHandleForWriting)
        #expect(r.status == 1)
        #expect(r.stderr == "gestures: stdout: the reader is gone; stopping\n")
    }

    @Test("replay into a file that reaches its size limit mid-line: the file ends on a whole line")
    func fileSizeLimit() throws {
        // Each test its own trace: they run in parallel, and this one needs the long one.
        let trace = write("hostile-pan-2000.jsonl", Self.longPan(moves: 2000))
        let out = scratch + "/hostile-limited.log"
        // `ulimit -f 16`: 16 blocks of 512 bytes (dash) or 1024 bytes (bash), far below the log.
        let sh = Process()
        sh.executableURL = URL(fileURLWithPath: "/bin/sh")
        sh.arguments = ["-c", "ulimit -f 16; exec \"$0\" replay \"$1\" > \"$2\"", CLI.executable, trace, out]
        let err = Pipe()
        sh.standardError = err
        try sh.run()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sh.waitUntilExit()
        #expect(sh.terminationStatus == 1)
        #expect(e == "gestures: stdout: file too large; stopping\n")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.utf8.count > 4000)
        #expect(written.hasSuffix("}\n"))
        let lines = written.split(separator: "\n")
        #expect(lines.first?.hasPrefix("{\"type\":\"layout\"") == true)
        #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
    }

    @Test("A spec name with a terminal escape and a 1 MB kind: stderr shows visible escapes, one short line")
    func escapedSpecMessages() throws {
        let trace = write("hostile-tap.jsonl", "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":1}\n")
        let escape = #"\u001b]0;pwned\u0007"#
        let spec1 = write("hostile1.json", "[{\"name\":\"a\",\"kind\":\"tap\",\"requireToFail\":[\"\(escape)\"]}]")
        let r1 = try CLI.run(["replay", trace, "--recognizers", spec1])
        #expect(r1.status == 2)
        #expect(
            r1.stderr.hasPrefix(
                "gestures: \(spec1):1: \"requireToFail\" names \"\\u{1B}]0;pwned\\u{7}\", which is not a recognizer"))
        #expect(!r1.stderr.utf8.contains(0x1B) && !r1.stderr.utf8.contains(0x07))
        let spec2 = write("hostile2.json", "[{\"kind\":\"" + String(repeating: "x", count: 1 << 20) + "\"}]")
        let r2 = try CLI.run(["replay", trace, "--recognizers", spec2])
        #expect(r2.status == 2)
        #expect(
            r2.stderr.hasPrefix("gestures: \(spec2):1: unknown kind \"" + String(repeating: "x", count: 80) + "…\""))
        #expect(r2.stderr.utf8.count < 400)
        let r3 = try CLI.run(["replay", trace, "--size", "\u{1B}[2J"])
        #expect(r3.status == 2)
        #expect(r3.stderr.contains(#"got "\u{1B}[2J""#))
    }

    @Test("A spec over 8 MiB is refused before it is read (its tree of values would be ~25 times its size)")
    func hugeSpec() throws {
        let trace = write("hostile-tap.jsonl", "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":1}\n")
        let spec = write("hostile-huge.json", "")
        #expect(truncate(spec, 9 << 20) == 0)  // sparse
        let r = try CLI.run(["replay", trace, "--recognizers", spec])
        #expect(r.status == 2)
        #expect(r.stderr == "gestures: \(spec): expected a file of at most 8 MiB, got 9 MiB\n")
        #expect(r.stdout.isEmpty)
    }

    /// 30k tap recognizers, each requiring the next to fail; `closed`: the last requires the first.
    static func chain(closed: Bool) -> String {
        var s = "["
        for i in 0..<30_000 {
            if i > 0 { s += ",\n" }
            let next = i + 1 < 30_000 ? "\"r\(i + 1)\"" : (closed ? "\"r0\"" : "")
            s += "{\"name\":\"r\(i)\",\"kind\":\"tap\",\"requireToFail\":[\(next)]}"
        }
        return s + "]"
    }

    @Test("A requireToFail chain of 30k recognizers closed into a cycle: refused, naming it, on one line")
    func longCycle() throws {
        do {
            _ = try PlaygroundSpec.parse(Self.chain(closed: true), file: "s.json")
            Issue.record("the cycle was accepted")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "s.json:30000: \"requireToFail\" names \"r0\", which closes a cycle of failure requirements: r0 → r1 → r2"
                ))
            #expect(error.description.unicodeScalars.count <= MessageText.lineLimit + 1)
        }
        let chain = try PlaygroundSpec.parse(Self.chain(closed: false), file: "s.json")
        #expect(chain.recognizers.count == 30_000)
        #expect(chain.recognizers.last?.requireToFail == [])
    }

    @Test("Pinches between touches a hair apart, spread wide, forty times: the log and the final matrix stay finite")
    @MainActor
    func overflowingPinches() {
        var events: [InputEvent] = []
        let p = layout1024.pinch.center
        let c = layout1024.image.center
        for i in 0..<40 {
            let t = Double(i)
            for (a, id) in [(p, 10 * i + 1), (c, 10 * i + 5)] {
                events.append(frame(t, Finger.down(id, a.x, a.y), Finger.down(id + 1, a.x + 1e-9, a.y)))
                events.append(frame(t + 0.1, Finger.move(id + 1, a.x + 150, a.y + 1e-9)))
                events.append(frame(t + 0.2, Finger.up(id, a.x, a.y), Finger.up(id + 1, a.x + 150, a.y)))
            }
        }
        let (scene, log) = replayLog(events)
        let all = log + [scene.finalLine()]
        #expect(log.contains { $0.contains("\"recognizer\":\"pinch\"") })
        for line in all {
            #expect(!line.contains("null") && !line.contains("inf") && !line.contains("nan"), "\(line)")
        }
        let m = scene.imageMatrix
        #expect([m.a, m.b, m.c, m.d, m.tx, m.ty].allSatisfy { $0.isFinite })
    }

    @Test("One pinch whose pair re-bases forty times on touches a hair apart: its scale stays finite")
    @MainActor
    func overflowingRebasedPinch() {
        let p = layout1024.pinch.center
        var events = [frame(0, Finger.down(1, p.x, p.y), Finger.down(2, p.x + 1e-9, p.y))]
        for i in 0..<40 {
            let t = Double(i) + 0.1
            let id = 2 + i
            events.append(frame(t, Finger.move(id, p.x + 150, p.y)))
            events.append(frame(t + 0.1, Finger.up(id, p.x + 150, p.y)))
            events.append(frame(t + 0.2, Finger.down(id + 1, p.x + 1e-9, p.y)))
        }
        events.append(frame(50, Finger.up(1, p.x, p.y), Finger.up(42, p.x + 1e-9, p.y)))
        let (_, log) = replayLog(events)
        let scales = log.filter { $0.contains("\"recognizer\":\"pinch\"") }.compactMap { number($0, "scale") }
        #expect(scales.count > 20)
        #expect(scales.allSatisfy { $0.isFinite })
        #expect(scales.max()! > 1e200)  // it did grow as far as a Double goes
        for line in log { #expect(!line.contains("null") && !line.contains("inf"), "\(line)") }
    }
}
