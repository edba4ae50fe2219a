import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `gestures-app-probe` (Tests/AppProbe): next to the test bundle, like `gestures`.
func appProbeBinary() throws -> String {
    let gestures = try gesturesBinary()
    let candidate = URL(fileURLWithPath: gestures).deletingLastPathComponent().appendingPathComponent(
        "gestures-app-probe"
    ).path
    guard access(candidate, X_OK) == 0 else {
        throw XTestError("gestures-app-probe is not next to \(gestures): build it first (swift build)")
    }
    return candidate
}

/// User and system CPU ticks of a process so far (`/proc/PID/stat` fields 14 and 15).
func cpuTicks(_ pid: pid_t) throws -> Int {
    let stat = readText("/proc/\(pid)/stat")
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    guard let close = stat.lastIndex(of: ")") else { throw XTestError("cannot read /proc/\(pid)/stat") }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 (state): utime is field 14, stime 15.
    guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else {
        throw XTestError("cannot parse /proc/\(pid)/stat")
    }
    return user + system
}

extension XServerTests {
    /// A library app under `GestureWindow.run()`: Swift concurrency and the main dispatch queue
    /// run inside the window's loop, which still sleeps when nothing is due; a window that cannot
    /// open says why in one line.
    @Suite("A library app's run loop: main actor, main queue, idle, errors (Xvfb)")
    struct AppRunLoop {
        @Test(
            "Task on the main actor, detached MainActor.run, main.async, asyncAfter, Task.sleep and a read source all run under the window, each drawn within a frame"
        )
        func mainActorRuns() throws {
            let server = try TestXServer(width: 640, height: 480)
            let directory = try TemporaryDirectory(prefix: "gestures-probe")
            var env = ProcessInfo.processInfo.environment
            env["DISPLAY"] = server.display
            let out = directory.file("out")
            let child = try ChildProcess(
                try appProbeBinary(), ["concurrency"], environment: env, stdout: .file(out),
                stderr: .file(directory.file("err")))
            // Without the main queue in the loop nothing runs: the probe never quits.
            let status = child.wait(timeout: 20)
            if status == nil { child.stop() }
            #expect(status == 0, "the probe did not finish: \(tail(directory.file("err")))")
            let lines = readText(out).split(separator: "\n").map { $0.split(separator: " ") }
            let names = lines.map { String($0[1]) }
            #expect(
                names.sorted()
                    == ["DispatchSource", "Task.sleep", "detached", "main.async", "main.asyncAfter", "task"])
            // One 60 Hz frame is 16.7 ms; the bound leaves room for a loaded 2-core machine. The
            // probe prints the figures (late after due, drawn after it ran, ms).
            for line in lines {
                let late = Double(line[2]) ?? .infinity
                let drawn = Double(line[3]) ?? .infinity
                print("probe:", line.joined(separator: " "))
                #expect(late < 50, "\(line[1]) ran \(late) ms after it was due")
                #expect(drawn < 50, "\(line[1])'s flip was drawn \(drawn) ms after it ran")
            }
        }

        @Test("An idle library window uses no CPU: 0 ticks over 3 s")
        func idleIsZero() throws {
            let server = try TestXServer(width: 640, height: 480)
            let directory = try TemporaryDirectory(prefix: "gestures-probe")
            var env = ProcessInfo.processInfo.environment
            env["DISPLAY"] = server.display
            let pipe = try Pipe2()
            let child = try ChildProcess(
                try appProbeBinary(), ["idle"], environment: env, stdout: .descriptor(pipe.writeEnd),
                stderr: .file(directory.file("err")))
            close(pipe.writeEnd)
            defer {
                close(pipe.readEnd)
                child.stop()
            }
            let line = readLine(from: pipe.readEnd, timeout: 10)
            try #require(line == "ready", "no ready line: \(tail(directory.file("err")))")
            pause(0.5)
            let before = try cpuTicks(child.pid)
            pause(3)
            let after = try cpuTicks(child.pid)
            print("idle probe: \(after - before) ticks over 3 s")
            #expect(after - before == 0, "an idle window used \(after - before) ticks in 3 s")
        }

        @Test("No display: one line, status 1, never a trap", arguments: [":99999", nil])
        func noDisplay(display: String?) throws {
            let directory = try TemporaryDirectory(prefix: "gestures-probe")
            var env = ProcessInfo.processInfo.environment
            env["DISPLAY"] = display
            let child = try ChildProcess(
                try appProbeBinary(), ["open"], environment: env, stdout: .file(directory.file("out")),
                stderr: .file(directory.file("err")))
            let status = child.wait(timeout: 10)
            let err = readText(directory.file("err"))
            #expect(status == 1)
            #expect(err.split(separator: "\n").count == 1, "not one line: \(err)")
            let expected = display.map { "cannot open display \($0)" } ?? "cannot open display (DISPLAY is not set)"
            #expect(err == "gestures-app-probe: \(expected)\n")
        }
    }
}
