import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// A server that takes the connection and never answers.
    @Suite("Hostile servers: the connection set-up")
    struct HostileServers {
        /// A Unix socket at /tmp/.X11-unix/X<n> that accepts (the kernel's backlog does) and
        /// never writes: xcb_connect alone would wait for the set-up reply forever.
        @Test("A server that never answers the set-up: `gestures run` prints one line and exits 1 within 5 s (+1 s)")
        func silentServer() throws {
            let display = unusedDisplay()
            let path = "/tmp/.X11-unix/X\(display.dropFirst())"
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            #expect(fd >= 0)
            defer {
                close(fd)
                unlink(path)
            }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { p in
                for (i, b) in path.utf8.enumerated() { p[i] = b }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(bound == 0, "cannot bind \(path): \(String(cString: strerror(errno)))")
            #expect(listen(fd, 8) == 0)
            let directory = try TemporaryDirectory(prefix: "gestures-silent")
            let stderrPath = directory.file("stderr")
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = display
            let start = monotonicNow()
            let app = try ChildProcess(
                try gesturesBinary(), ["run"], environment: environment, stderr: .file(stderrPath))
            let status = app.wait(timeout: 10)
            let took = monotonicNow() - start
            app.stop()
            let stderr = readText(stderrPath)
            #expect(status == 1, "status \(String(describing: status)) after \(took) s; stderr: \(stderr)")
            #expect(took >= 4.5 && took < 6, "exited after \(took) s")
            #expect(
                stderr == "gestures: the X server at \(display) did not answer the connection set-up within 5 s\n",
                "stderr: \(stderr)")
            print("set-up timeout: exit \(String(describing: status)) after \(String(format: "%.2f", took)) s")
        }
    }
}
