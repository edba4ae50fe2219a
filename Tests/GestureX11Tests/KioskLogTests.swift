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
            "A full disk (64 KiB tmpfs): the kiosk runs on, says so once, drops and counts lines; when space is back the count is written and logging resumes"
        )
        func fullDisk() throws {
            try #require(getuid() == 0 || !isCI, "mounting a tmpfs needs root (CI runs as root)")
            guard getuid() == 0 else { return }  // not root, not CI: mount(8) is not ours to call
            let server = try TestXServer()
            defer { server.stop() }
            let directory = try TemporaryDirectory()
            let mountPoint = directory.file("small")
            mkdir(mountPoint, 0o755)
            try run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint])
            defer { _ = try? run("/bin/umount", ["-l", mountPoint]) }
            // The log holds a line from a run before, so its last block has room that a short
            // line fits in; then the disk is filled but for a few bytes.
            let path = mountPoint + "/events.jsonl"
            try "{\"type\":\"kiosk\",\"event\":\"start\"}\n".write(toFile: path, atomically: false, encoding: .utf8)
            let filler = mountPoint + "/filler"
            let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
            var block = [UInt8](repeating: 0x41, count: 4096)
            while write(fd, &block, block.count) > 0 {}
            var one: UInt8 = 0x41
            while write(fd, &one, 1) > 0 {}
            close(fd)
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
            // Still full: no "writing again" (the room left in the log's last block is not space).
            #expect(!readText(stderrPath).contains("again"), "stderr: \(readText(stderrPath))")
            // Space again: the next line after the retry interval writes the count, then the lines.
            unlink(filler)
            let log = EventLog(path: path)
            let dropped = try log.waitFor("logDropped line", timeout: 10) { $0.string("event") == "logDropped" }
            #expect((dropped.line.number("lines") ?? 0) > 0, "\(dropped.line)")
            _ = try log.waitFor("a line after the count", from: dropped.index + 1, timeout: 10) { _ in true }
            #expect(readText(stderrPath).contains("again"), "stderr: \(readText(stderrPath))")
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
            "A log folder it cannot write at start (read-only mount): the kiosk starts anyway, says so once, and logs once it can"
        )
        func unwritableAtStart() throws {
            try #require(getuid() == 0 || !isCI, "mounting a tmpfs needs root (CI runs as root)")
            guard getuid() == 0 else { return }
            let server = try TestXServer()
            defer { server.stop() }
            let directory = try TemporaryDirectory()
            let mountPoint = directory.file("ro")
            mkdir(mountPoint, 0o755)
            try run("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", mountPoint])
            defer { _ = try? run("/bin/umount", ["-l", mountPoint]) }
            let path = mountPoint + "/events.jsonl"
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
            try run("/bin/mount", ["-o", "remount,rw", mountPoint])
            let log = EventLog(path: path)
            let dropped = try log.waitFor("logDropped line", timeout: 10) { $0.string("event") == "logDropped" }
            #expect(
                (dropped.line.number("lines") ?? 0) > 0, "the start line and the layout were counted: \(dropped.line)")
            app.signal(SIGTERM)
            #expect(app.wait(timeout: 5) == 143)
        }
    }
}

/// Runs a program to its end; throws with its stderr when it fails.
@discardableResult
private func run(_ program: String, _ arguments: [String]) throws -> Int32 {
    let directory = try TemporaryDirectory()
    let p = try ChildProcess(program, arguments, stderr: .file(directory.file("err")))
    let status = p.wait(timeout: 10)
    guard status == 0 else {
        throw XTestError("\(program) \(arguments.joined(separator: " ")): \(readText(directory.file("err")))")
    }
    return 0
}

/// Whether the tests run in CI (where nothing may skip).
private var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }
