import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The operator log survives everything: kept across starts, private, and never the reason
    /// the kiosk stops (a full disk, a folder it cannot write).
    @Suite("gestures run --kiosk --log-events: appended, 0600, and a log that cannot be written")
    struct KioskLog {
        /// `gestures run --kiosk` on `display` writing `log`; waits for its ready line after
        /// line `after` when asked.
        private func kiosk(
            _ display: String, log: String, stderr: String, extra: [String] = []
        ) throws -> ChildProcess {
            try ChildProcess(
                try gesturesBinary(), ["run", "--kiosk", "--size", "320x240", "--log-events", log] + extra,
                environment: ["DISPLAY": display], stderr: .file(stderr))
        }

        @Test("Two starts append to one log, each marked by a start line (version, pid); the file is created 0600")
        func appendsAcrossStarts() throws {
            let server = try TestXServer()
            defer { server.stop() }
            let directory = try TemporaryDirectory()
            let path = directory.file("events.jsonl")
            let log = EventLog(path: path)
            var pids: [Int] = []
            var from = 0
            for run in 0..<2 {
                let app = try kiosk(server.display, log: path, stderr: directory.file("err\(run)"))
                let start = try log.waitFor("start line", from: from, timeout: 10) { $0.string("event") == "start" }
                _ = try log.waitFor("ready line", from: start.index, timeout: 10) { $0.type == "ready" }
                #expect(start.line.string("version")?.isEmpty == false, "\(start.line)")
                pids.append(Int(start.line.number("pid") ?? -1))
                #expect(pids.last == Int(app.pid))
                app.signal(SIGTERM)
                #expect(app.wait(timeout: 5) == 143)
                from = log.lines(from: 0).count
            }
            let starts = log.lines(from: 0).filter { $0.string("event") == "start" }
            #expect(starts.count == 2, "the second start erased the first run's lines")
            #expect(log.lines(from: 0).filter { $0.type == "final" }.count == 2, "each run ends on its final line")
            var st = stat()
            #expect(stat(path, &st) == 0)
            #expect(st.st_mode & 0o777 == 0o600, "mode \(String(st.st_mode & 0o777, radix: 8))")
        }

        @Test(
            "A full disk (64 KiB tmpfs): the kiosk runs on, says so once, drops and counts lines; when space is back the count is written and logging resumes",
            SmallDisk.needsRoot)
        func fullDisk() throws {
            let server = try TestXServer()
            defer { server.stop() }
            let directory = try TemporaryDirectory()
            let disk = try SmallDisk()
            defer { disk.unmount() }
            // The log holds a line from a run before; then the disk is filled but for a few bytes.
            let path = disk.file("events.jsonl")
            try "{\"type\":\"kiosk\",\"event\":\"start\"}\n".write(toFile: path, atomically: false, encoding: .utf8)
            try disk.fill()
            let stderrPath = directory.file("err")
            let app = try kiosk(
                server.display, log: path, stderr: stderrPath,
                extra: ["--log-retry-seconds", "1", "--kiosk-tour-after", "1", "--kiosk-reset-after", "1"])
            defer { app.stop() }
            // The tour plays (its gesture lines are dropped); the kiosk keeps running.
            pause(4)
            #expect(app.isRunning, "the kiosk ended on a full disk: \(readText(stderrPath))")
            let complaints = readText(stderrPath).split(separator: "\n").filter {
                $0.contains("runs on without its log")
            }
            #expect(complaints.count == 1, "stderr: \(readText(stderrPath))")
            // Still full: writing has not come back.
            #expect(!readText(stderrPath).contains("dropped meanwhile"), "stderr: \(readText(stderrPath))")
            // Space again: the next line after the retry interval writes the count, then the lines.
            disk.freeAll()
            let log = EventLog(path: path)
            let dropped = try log.waitFor("logDropped line", timeout: 10) { $0.string("event") == "logDropped" }
            #expect((dropped.line.number("lines") ?? 0) > 0, "\(dropped.line)")
            _ = try log.waitFor("a line after the count", from: dropped.index + 1, timeout: 10) { _ in true }
            #expect(readText(stderrPath).contains("dropped meanwhile"), "stderr: \(readText(stderrPath))")
            // Every line in the file is whole JSON (a partly written line was cut off).
            let text = readText(path)
            #expect(text.hasSuffix("\n"))
            for line in text.split(separator: "\n") {
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not whole: \(line.prefix(80))")
            }
            app.signal(SIGTERM)
            #expect(app.wait(timeout: 5) == 143)
        }

        @Test(
            "A log folder it cannot write at start (read-only mount): the kiosk starts anyway, says so once, and logs once it can",
            SmallDisk.needsRoot)
        func unwritableAtStart() throws {
            let server = try TestXServer()
            defer { server.stop() }
            let directory = try TemporaryDirectory()
            let disk = try SmallDisk(readOnly: true)
            defer { disk.unmount() }
            let path = disk.file("events.jsonl")
            let stderrPath = directory.file("err")
            let app = try kiosk(
                server.display, log: path, stderr: stderrPath,
                extra: ["--log-retry-seconds", "1", "--kiosk-tour-after", "1", "--kiosk-reset-after", "1"])
            defer { app.stop() }
            let window = try XConnection(server.display)
            defer { window.close() }
            let mapped = poll(timeout: 10, interval: 0.05) { window.findWindow(pid: app.pid, title: nil, timeout: 0.1) }
            #expect(mapped != nil, "no kiosk window: \(readText(stderrPath))")
            pause(1)
            #expect(app.isRunning, "status \(String(describing: app.reap())): \(readText(stderrPath))")
            let complaints = readText(stderrPath).split(separator: "\n").filter {
                $0.contains("runs on without its log")
            }
            #expect(complaints.count == 1, "stderr: \(readText(stderrPath))")
            try disk.makeWritable()
            let log = EventLog(path: path)
            let dropped = try log.waitFor("logDropped line", timeout: 10) { $0.string("event") == "logDropped" }
            #expect(
                (dropped.line.number("lines") ?? 0) > 0, "the start line and the layout were counted: \(dropped.line)")
            app.signal(SIGTERM)
            #expect(app.wait(timeout: 5) == 143)
        }
    }
}
