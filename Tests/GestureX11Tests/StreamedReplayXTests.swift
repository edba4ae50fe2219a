import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// `gestures run --replay` streams its trace from disk as `gestures replay` does: the same
    /// gestures, and memory that does not grow with the trace's length.
    @Suite("gestures run --replay: the trace streamed (Xvfb)")
    struct StreamedReplayX {
        /// The gesture lines of a log, times removed (the live clock starts at launch).
        static func gestures(_ text: String) -> [String] {
            text.split(separator: "\n").map(String.init).filter { $0.contains("\"type\":\"gesture\"") }
                .map { $0.replacingOccurrences(of: #""t":[-0-9.e]+,"#, with: "", options: .regularExpression) }
        }

        /// Starts `gestures run --size 1024x768 --replay TRACE` with `extra` arguments on `server`,
        /// its log in `live.jsonl` and its stderr in `err.txt` of `directory`.
        static func replayLive(
            _ trace: String, _ extra: [String], on server: TestXServer, in directory: TemporaryDirectory
        ) throws -> (ChildProcess, String) {
            let logPath = directory.file("live.jsonl")
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = server.display
            let process = try ChildProcess(
                try gesturesBinary(),
                ["run", "--size", "1024x768", "--replay", trace, "--log-events", logPath] + extra,
                environment: environment, stderr: .file(directory.file("err.txt")))
            return (process, logPath)
        }

        @Test("The bundled tour through the live window: the same gestures as gestures replay")
        func bundledTour() throws {
            let directory = try TemporaryDirectory()
            let tour = repositoryRoot + "/Resources/tour.jsonl"
            let server = try TestXServer()
            defer { server.stop() }
            let (process, logPath) = try Self.replayLive(tour, ["--exit-after-replay"], on: server, in: directory)
            let status = process.wait(timeout: 60)
            #expect(status == 0, "stderr: \(readText(directory.file("err.txt")))")
            let replayed = try runGestures(["replay", tour, "--size", "1024x768"], in: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let live = Self.gestures(readText(logPath))
            #expect(live.count > 10)
            #expect(live == Self.gestures(replayed.stdout), "live:\n\(live.joined(separator: "\n"))")
        }

        @Test("A 60 MB trace plays in the live window with a peak resident size under 100 MB")
        func largeTraceBoundedMemory() throws {
            let directory = try TemporaryDirectory()
            let layoutRun = try runGestures(["layout", "--size", "1024x768"], in: directory)
            let layouts = layoutRun.stdout.split(separator: "\n").compactMap { LogLine(String($0))?.layout }
            let layout = try #require(layouts.first, "gestures layout printed \(layoutRun.stdout) \(layoutRun.stderr)")
            let tap = try layout.region("tap").center
            // A tap, then one finger held and moved a little every millisecond: 60 MB of lines.
            let tracePath = directory.file("large.jsonl")
            #expect(FileManager.default.createFile(atPath: tracePath, contents: nil))
            let file = try #require(FileHandle(forWritingAtPath: tracePath))
            var chunk = #"{"type":"viewport","width":1024,"height":768}"# + "\n"
            chunk += #"{"type":"down","t":0.1,"id":1,"x":\#(tap.x),"y":\#(tap.y)}"# + "\n"
            chunk += #"{"type":"up","t":0.2,"id":1,"x":\#(tap.x),"y":\#(tap.y)}"# + "\n"
            chunk += #"{"type":"down","t":0.3,"id":2,"x":20,"y":740}"# + "\n"
            var written = 0
            var i = 301
            while written < 60_000_000 {
                chunk += #"{"type":"move","t":\#(Double(i) / 1000),"id":2,"x":\#(20 + i % 7),"y":740}"# + "\n"
                i += 1
                if chunk.utf8.count > 1 << 20 {
                    file.write(Data(chunk.utf8))
                    written += chunk.utf8.count
                    chunk = ""
                }
            }
            file.write(Data(chunk.utf8))
            try file.close()

            let server = try TestXServer()
            defer { server.stop() }
            let (process, logPath) = try Self.replayLive(tracePath, [], on: server, in: directory)
            defer { process.stop() }
            // Playing: the tap at its start is recognized (the whole file was checked first).
            let tapped = poll(timeout: 180, interval: 0.2) { () -> Bool? in
                readText(logPath).contains(#""recognizer":"tap""#) ? true : nil
            }
            #expect(tapped == true, "no tap played; stderr: \(readText(directory.file("err.txt")))")
            // A few seconds of the held finger's moves.
            usleep(5_000_000)
            let status = readText("/proc/\(process.pid)/status")
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
            let kib = try #require(Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]))
            #expect(kib < 100 * 1024, "peak resident \(kib) KiB for a 60 MB trace")
        }
    }
}
