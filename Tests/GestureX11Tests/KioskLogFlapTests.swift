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
            "A full 64 KiB tmpfs, then 8 KiB freed (under the 16 KiB to resume), then all: \"cannot write\" once, \"writing again\" once, one logDropped line",
            SmallDisk.needsRoot)
        func nearlyFullDisk() throws {
            let server = try TestXServer()
            defer { server.stop() }
            let directory = try TemporaryDirectory()
            let disk = try SmallDisk()
            defer { disk.unmount() }
            let path = disk.file("events.jsonl")
            // The disk filled to the last byte by another file.
            try disk.fill()
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
            try disk.free(8192)
            pause(5)
            #expect(app.isRunning, "the kiosk ended: \(readText(stderrPath))")
            #expect(count("runs on without its log") == 1, "stderr: \(readText(stderrPath))")
            #expect(count("dropped meanwhile") == 0, "it resumed with 8 KiB free: \(readText(stderrPath))")
            // Room again: it resumes once, for good.
            disk.freeAll()
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
