import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs that could stall the reader or exhaust memory are refused with one line and status 2
/// (docs/DESIGN.md §4.6): a FIFO (never opened blocking), a file over 256 MiB, a
/// gzip that decompresses to more than 256 MiB.
@Suite("Bounded input: FIFOs, huge files and gzip bombs are refused", .timeLimit(.minutes(1)))
struct BoundedInputTests {
    static func directory() throws -> String {
        let d = NSTemporaryDirectory() + "gestures-bounded-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    @Test("A FIFO as the trace or the spec: refused at once, nothing written to stdout")
    func fifo() throws {
        let d = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: d) }
        let fifo = d + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["replay", fifo], ["replay", "@tap", "--recognizers", fifo]] {
            let start = Date()
            var args = arguments
            if args.contains("@tap") {
                let trace = d + "/t.jsonl"
                try "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":1}\n".write(
                    toFile: trace, atomically: true, encoding: .utf8)
                args[1] = trace
            }
            let r = try CLI.run(args)
            #expect(r.status == 2)
            #expect(r.stderr == "gestures: \(fifo): expected a regular file (not a FIFO, device or socket)\n")
            #expect(r.stdout.isEmpty)
            #expect(Date().timeIntervalSince(start) < 10)
        }
    }

    @Test("A trace over 256 MiB: refused before it is read")
    func hugeFile() throws {
        let d = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: d) }
        let path = d + "/huge.jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 300 << 20) == 0)  // sparse: no disk used
        let r = try CLI.run(["replay", path])
        #expect(r.status == 2)
        #expect(r.stderr == "gestures: \(path): expected a file of at most 256 MiB, got 300 MiB\n")
    }

    @Test("A gzip bomb (300 MiB of zeros in ~300 KiB): refused at 256 MiB decompressed")
    func gzipBomb() throws {
        let d = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: d) }
        let path = d + "/bomb.jsonl.gz"
        let sh = Process()
        sh.executableURL = URL(fileURLWithPath: "/bin/sh")
        sh.arguments = ["-c", "head -c 300M /dev/zero | gzip -1 > '\(path)'"]
        try sh.run()
        sh.waitUntilExit()
        #expect(sh.terminationStatus == 0)
        let r = try CLI.run(["replay", path])
        #expect(r.status == 2)
        #expect(r.stderr == "gestures: \(path): expected gzip data of at most 256 MiB decompressed\n")
        #expect(r.stdout.isEmpty)
    }

    @Test("A 200 MB line: refused with the line's number, before it is parsed")
    func hugeLine() throws {
        let d = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: d) }
        let path = d + "/line.jsonl"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        let first = Array("{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":1}\n".utf8)
        _ = first.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<200 { _ = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        close(fd)
        let r = try CLI.run(["replay", path])
        #expect(r.status == 2)
        #expect(r.stderr == "gestures: \(path):2: expected a line of at most 4 MiB\n")
        #expect(r.stdout.isEmpty)
    }
}

/// A plain evemu recording or getevent text streams from disk, checked whole
/// first: a bad line at the very end of a long one replays nothing.
@Suite("Streamed evemu and getevent replays: a late bad line is refused before any output", .timeLimit(.minutes(2)))
struct EvdevStreamCLITests {
    /// 200 000 lines of one finger moving, then `bad`, with its message.
    static func recording(getevent: Bool) -> (text: String, bad: String, message: String) {
        var text =
            getevent
            ? "[  1.000000] EV_ABS ABS_MT_TRACKING_ID 00000001\n"
            : "# EVEMU 1.3\nA: 35 0 1000 0 0 0\nA: 36 0 500 0 0 0\nE: 1.0 0003 0039 1\n"
        for i in 0..<100_000 {
            let t = "1.\(100_000 + i)"
            text +=
                getevent
                ? "[  \(t)] EV_ABS ABS_MT_POSITION_X 000000\(10 + i % 90)\n[  \(t)] EV_SYN SYN_REPORT 00000000\n"
                : "E: \(t) 0003 0035 \(i % 1000)\nE: \(t) 0000 0000 0\n"
        }
        if getevent {
            return (text, "[  9.000000] EV_ABS ABS_MT_BOGUS 00000001\n", "unknown event code \"ABS_MT_BOGUS\"")
        }
        return (text, "E: 9.0 0003 0035 12x\n", "expected a decimal event value, got \"12x\"")
    }

    @Test(
        "200 000 lines, then a bad one: one line on stderr naming it, status 2, nothing on stdout",
        arguments: [false, true])
    func lateBadLine(getevent: Bool) throws {
        let d = try BoundedInputTests.directory()
        defer { try? FileManager.default.removeItem(atPath: d) }
        let path = d + (getevent ? "/long.txt" : "/long.events")
        let (good, bad, message) = Self.recording(getevent: getevent)
        try (good + bad).write(toFile: path, atomically: true, encoding: .utf8)
        let number = (good + bad).utf8.count { $0 == 0x0A }
        let r = try CLI.run(["replay", path])
        #expect(r.status == 2)
        #expect(r.stderr == "gestures: \(path):\(number): \(message)\n")
        #expect(r.stdout.isEmpty)
        // The same recording without its bad line replays.
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        let replayed = try CLI.run(["replay", path])
        #expect(replayed.status == 0 && replayed.stderr.isEmpty)
        #expect(replayed.lines.count >= 2)
    }
}
