import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The operator log on a nearly full disk: it resumes only with room for lines to come
    /// (16 KiB free), so it does not flap between writing and failing at every retry.
    @Suite("gestures run --kiosk --log-events: a nearly full disk does not make the log flap")
    struct KioskLogFlap {
        @Test(
            "A full 64 KiB tmpfs, then 8 KiB freed (under the 16 KiB to resume), then all: \"cannot write\" once, \"writing again\" once, one logDropped line"
        )
        func nearlyFullDisk() throws {
            try #require(getuid() == 0 || !flapIsCI, "mounting a tmpfs needs root (CI runs as root)")
            guard getuid() == 0 else {
                print("skipped: mounting a tmpfs needs root")
                return
            }
            let server = try TestXServer()
            defer { server.stop() }
            let directory = try TemporaryDirectory()
            let mountPoint = directory.file("small")
            mkdir(mountPoint, 0o755)
            try runToEnd("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint])
            defer { _ = try? runToEnd("/bin/umount", ["-l", mountPoint]) }
            let path = mountPoint + "/events.jsonl"
            // The disk filled to the last byte by another file.
            let filler = mountPoint + "/filler"
            let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
            var block = [UInt8](repeating: 0x41, count: 4096)
            while write(fd, &block, block.count) > 0 {}
            var one: UInt8 = 0x41
            while write(fd, &one, 1) > 0 {}
            let filled = lseek(fd, 0, SEEK_END)
            close(fd)
            let stderrPath = directory.file("err")
            let app = try ChildProcess(
                try gesturesBinary(),
                [
                    "run", "--kiosk", "--size", "320x240", "--log-events", path, "--log-retry-seconds", "0.3",
                    "--kiosk-tour-after", "1", "--kiosk-reset-after", "1",
                ],
                environment: ["DISPLAY": server.display], stderr: .file(stderrPath))
            defer { app.stop() }
            func count(_ text: String) -> Int {
                readText(stderrPath).split(separator: "\n").filter { $0.contains(text) }.count
            }
            let down = poll(timeout: 10, interval: 0.1) { count("runs on without its log") > 0 ? true : nil }
            #expect(down == true, "the log never failed: \(readText(stderrPath))")
            // 8 KiB free: room for a few dozen lines, not for the 16 KiB the log waits for. The
            // tour goes on logging; a log that resumed now would fill it and fail again.
            #expect(truncate(filler, filled - 8192) == 0)
            pause(5)
            #expect(app.isRunning, "the kiosk ended: \(readText(stderrPath))")
            #expect(count("runs on without its log") == 1, "stderr: \(readText(stderrPath))")
            #expect(count("dropped meanwhile") == 0, "it resumed with 8 KiB free: \(readText(stderrPath))")
            // Room again: it resumes once, for good.
            unlink(filler)
            let log = EventLog(path: path)
            let dropped = try log.waitFor("logDropped line", timeout: 10) { $0.string("event") == "logDropped" }
            #expect((dropped.line.number("lines") ?? 0) > 0, "\(dropped.line)")
            _ = poll(timeout: 2, interval: 0.05) { count("dropped meanwhile") > 0 ? true : nil }
            #expect(count("runs on without its log") == 1, "stderr: \(readText(stderrPath))")
            #expect(count("dropped meanwhile") == 1, "stderr: \(readText(stderrPath))")
            #expect(log.lines(from: 0).filter { $0.string("event") == "logDropped" }.count == 1)
            app.signal(SIGTERM)
            #expect(app.wait(timeout: 5) == 143)
        }
    }
}

/// Runs a program to its end; throws with its stderr when it fails.
private func runToEnd(_ program: String, _ arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    let p = try ChildProcess(program, arguments, stderr: .file(directory.file("err")))
    guard p.wait(timeout: 10) == 0 else {
        throw XTestError("\(program) \(arguments.joined(separator: " ")): \(readText(directory.file("err")))")
    }
}

/// Whether the tests run in CI (where nothing may skip).
private var flapIsCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }
