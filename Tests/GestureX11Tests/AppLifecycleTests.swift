import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The window's identity, closing it, losing the server, and having none (docs/DESIGN.md §4.4:
    /// status 0 closed, 1 no display or lost X connection, each with one line on stderr).
    @Suite("gestures run: window, exit status and errors")
    struct AppLifecycle {
        @Test("The window is titled Gestures, has WM_CLASS and _NET_WM_PID, and fills --size")
        func windowIdentity() throws {
            let session = try AppSession(size: "800x600")
            defer { session.close() }
            let app = session.app
            let found = session.connection.findWindow(
                pid: app.process.pid, title: "Gestures", timeout: 2)
            #expect(found == app.window)
            #expect(session.connection.title(of: app.window) == "Gestures")
            let cls = session.connection.windowClass(of: app.window)
            #expect(cls != nil && !(cls!.0.isEmpty || cls!.1.isEmpty), "\(String(describing: cls))")
            let g = try #require(session.connection.geometry(of: app.window))
            #expect(Double(g.width) == 800 * app.scale && Double(g.height) == 600 * app.scale)
            #expect(app.layout.width == 800 && app.layout.height == 600)
        }

        @Test("WM_DELETE_WINDOW closes the app with status 0 and a final log line")
        func deleteWindow() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            session.connection.sendDeleteWindow(app.window)
            let status = app.waitForExit(timeout: 5)
            #expect(status == 0, "status \(String(describing: status)); stderr: \(app.stderr)")
            let final = try app.log.waitFor("final line", timeout: 1) { $0.type == "final" }.line
            #expect(final.label != nil)
            #expect(app.stderr.isEmpty, "\(app.stderr)")
        }

        @Test(
            "Killing the X server: the app exits with status 1 and one stderr line within 1 s",
            arguments: [SIGKILL, SIGTERM])
        func serverDies(signal: Int32) throws {
            let server = try TestXServer()
            let session = try AppSession(display: server.display) { server.stop() }
            defer { session.close() }
            let app = session.app
            let stderrBefore = app.stderr
            session.connection.close()
            let killed = monotonicNow()
            server.process.signal(signal)
            let status = app.waitForExit(timeout: 5)
            let elapsed = monotonicNow() - killed
            #expect(status == 1, "status \(String(describing: status))")
            #expect(elapsed < 1, "exited \(elapsed) s after the server was killed")
            let added = String(app.stderr.dropFirst(stderrBefore.count))
            let lines = added.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty && !lines[0].isEmpty, "stderr: \(added)")
        }

        @Test("No X server on DISPLAY: one clear error line and status 1")
        func noDisplay() throws {
            let directory = try TemporaryDirectory()
            let display = unusedDisplay()
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = display
            let started = monotonicNow()
            let process = try ChildProcess(
                try gesturesBinary(), ["run", "--log-events", directory.file("log.jsonl")],
                environment: environment, stdout: .file(directory.file("out.txt")),
                stderr: .file(directory.file("err.txt")))
            let status = process.wait(timeout: 10)
            #expect(status == 1, "status \(String(describing: status))")
            #expect(monotonicNow() - started < 5)
            let stderr = readText(directory.file("err.txt"))
            let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[1].isEmpty, "stderr: \(stderr)")
            #expect(stderr.contains(display), "the error names the display: \(stderr)")
            #expect(readText(directory.file("out.txt")).isEmpty)
        }
    }
}
