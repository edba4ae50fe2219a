import Foundation
import GestureKit
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `gestures replay` as a subprocess, whole logs: a frame that carries a touch's last move and
/// its lift (or cancel), scroll lines in a streamed plain and a gzipped trace, and a large
/// gzipped trace replayed in bounded memory.
@Suite(.enabled(if: CLI.available, "the gestures executable is built beside the tests"))
struct ReplayStreamTests {
    static let panSpec = #"[{"name":"pan","kind":"pan","allowedScrollTypesMask":["discrete","continuous"]}]"#

    /// The trace of a lift at the time of the last move (as Android and evemu record it): the
    /// pan ends with the whole translation, (100, 0); a move and a cancel at one time cancel.
    @Test func liftInTheFrameOfTheLastMove() throws {
        let spec = write("lift-spec.json", Self.panSpec)
        let trace = write(
            "lift.jsonl",
            """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"move","t":0.1,"id":1,"x":150,"y":100}
            {"type":"move","t":0.2,"id":1,"x":200,"y":100}
            {"type":"up","t":0.2,"id":1,"x":200,"y":100}
            {"type":"down","t":1,"id":2,"x":100,"y":100}
            {"type":"move","t":1.1,"id":2,"x":150,"y":100}
            {"type":"move","t":1.2,"id":2,"x":200,"y":100}
            {"type":"move","t":1.3,"id":2,"x":250,"y":100}
            {"type":"cancel","t":1.3,"id":2}

            """)
        let r = try CLI.run(["replay", trace, "--recognizers", spec])
        #expect(r.status == 0 && r.stderr == "")
        #expect(
            r.lines == [
                #"{"type":"gesture","t":0.1,"recognizer":"pan","kind":"pan","state":"began","x":150.0,"y":100.0,"touches":1,"translation":[50.0,0.0],"velocity":[500.0,0.0]}"#,
                #"{"type":"gesture","t":0.2,"recognizer":"pan","kind":"pan","state":"changed","x":200.0,"y":100.0,"touches":1,"translation":[100.0,0.0],"velocity":[500.0,0.0]}"#,
                #"{"type":"gesture","t":0.2,"recognizer":"pan","kind":"pan","state":"ended","x":200.0,"y":100.0,"touches":1,"translation":[100.0,0.0],"velocity":[500.0,0.0]}"#,
                #"{"type":"gesture","t":1.1,"recognizer":"pan","kind":"pan","state":"began","x":150.0,"y":100.0,"touches":1,"translation":[50.0,0.0],"velocity":[500.0,0.0]}"#,
                #"{"type":"gesture","t":1.2,"recognizer":"pan","kind":"pan","state":"changed","x":200.0,"y":100.0,"touches":1,"translation":[100.0,0.0],"velocity":[500.0,0.0]}"#,
                #"{"type":"gesture","t":1.3,"recognizer":"pan","kind":"pan","state":"changed","x":250.0,"y":100.0,"touches":1,"translation":[150.0,0.0],"velocity":[500.0,0.0]}"#,
                #"{"type":"gesture","t":1.3,"recognizer":"pan","kind":"pan","state":"cancelled","x":250.0,"y":100.0,"touches":1,"translation":[150.0,0.0],"velocity":[500.0,0.0]}"#,
            ])
    }

    static let scrollTrace = """
        {"type":"scroll","t":0,"x":100,"y":100,"dy":-40}
        {"type":"scroll","t":0.05,"x":100,"y":100,"dy":-40}
        {"type":"down","t":1,"id":1,"x":300,"y":300}
        {"type":"scroll","t":1,"x":100,"y":100,"dx":2.5,"scrollType":"continuous"}
        {"type":"up","t":1.1,"id":1,"x":300,"y":300}

        """

    static let scrollLog = [
        #"{"type":"gesture","t":0.0,"recognizer":"pan","kind":"pan","state":"began","x":100.0,"y":100.0,"touches":0,"translation":[0.0,-40.0],"velocity":[0.0,0.0]}"#,
        #"{"type":"gesture","t":0.05,"recognizer":"pan","kind":"pan","state":"changed","x":100.0,"y":100.0,"touches":0,"translation":[0.0,-80.0],"velocity":[0.0,-800.0]}"#,
        #"{"type":"gesture","t":0.2,"recognizer":"pan","kind":"pan","state":"ended","x":100.0,"y":100.0,"touches":0,"translation":[0.0,-80.0],"velocity":[0.0,0.0]}"#,
    ]

    /// Scroll lines reach the pan in a streamed plain trace and in a gzipped one (the same
    /// log), and in the same order as the touch lines around them.
    @Test(arguments: [false, true]) @MainActor
    func scrollLines(gzipped: Bool) throws {
        let spec = write("scroll-spec.json", Self.panSpec)
        var trace = write("scroll-\(gzipped).jsonl", Self.scrollTrace)
        if gzipped {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/gzip")
            p.arguments = ["-f", trace]
            try p.run()
            p.waitUntilExit()
            trace += ".gz"
        }
        let r = try CLI.run(["replay", trace, "--recognizers", spec])
        #expect(r.status == 0 && r.stderr == "")
        #expect(Array(r.lines.prefix(3)) == Self.scrollLog)
        // Read whole, the scroll at 1 s comes after the touch-down of the same time, as written.
        let loaded = try TraceReader.read(path: trace, size: nil, device: nil)
        let kinds = loaded.events.map { e -> String in
            if case .scroll = e { return "scroll" }
            return "touches"
        }
        #expect(kinds == ["scroll", "scroll", "touches", "scroll", "touches"])
        // The whole log is the one the events read whole give in-process.
        let scene = PlaygroundScene(
            spec: try PlaygroundSpec.parse(Self.panSpec, file: "s.json"), size: Size(width: 1024, height: 768))
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        replay(loaded.events, through: scene)
        #expect(r.lines == log)
    }

    /// A gzipped trace of 48 MiB decompressed replays in about the memory of a tiny one: it is
    /// inflated a chunk at a time (held whole, the difference is over 48 MiB). The peak
    /// resident sizes of the two child processes are compared: their `VmHWM`, read from
    /// /proc while they run (getrusage's ru_maxrss would not do: a child starts with the test
    /// process's peak).
    @Test func largeGzippedTraceInBoundedMemory() throws {
        let dir = NSTemporaryDirectory() + "gestures-gzip-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 12 288 lines of 4 KiB (a wait line and white space): 48 MiB, a few hundred KiB gzipped.
        let pad = String(repeating: " ", count: 4000)
        var text = ""
        for i in 0..<(12 << 10) { text += "{\"type\":\"wait\",\"t\":\(i)}" + pad + "\n" }
        let big = dir + "/big.jsonl"
        let small = dir + "/small.jsonl"
        try text.write(toFile: big, atomically: false, encoding: .utf8)
        try "{\"type\":\"wait\",\"t\":0}\n".write(toFile: small, atomically: false, encoding: .utf8)
        text = ""
        for path in [big, small] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/gzip")
            p.arguments = ["-f", path]
            try p.run()
            p.waitUntilExit()
        }
        let smallRun = peakResidentKiB(["replay", small + ".gz"])
        let bigRun = peakResidentKiB(["replay", big + ".gz"])
        #expect(smallRun.status == 0 && bigRun.status == 0)
        #expect(smallRun.kib > 0 && bigRun.kib > 0)
        let grew = bigRun.kib - smallRun.kib
        print("peak resident: tiny gzipped trace \(smallRun.kib) KiB, 48 MiB one \(bigRun.kib) KiB (+\(grew) KiB)")
        #expect(grew < 16 << 10, "the 48 MiB trace took \(grew) KiB more than a tiny one")
    }

    /// Runs `gestures` with `arguments` (stdout and stderr to /dev/null) and returns its exit
    /// status and the largest peak resident set size (KiB) seen while it ran.
    private func peakResidentKiB(_ arguments: [String]) -> (status: Int32, kib: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([CLI.executable] + arguments).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, CLI.executable, &actions, nil, argv, environ) == 0 else { return (-1, 0) }
        var status: Int32 = 0
        var peak = 0
        while true {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kib = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
            {
                peak = max(peak, kib)
            }
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno != EINTR) { break }
            usleep(1000)
        }
        return ((status >> 8) & 0xFF, peak)
    }
}
