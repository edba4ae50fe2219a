import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The frames' MIT-SHM segments: never gone before the server has attached them (an X error
    /// per frame), and a server that cannot attach them gets PutImage instead.
    @Suite("Kiosk frames through MIT-SHM: no X errors, and drawn where SHM is refused")
    struct SharedMemoryFrames {
        /// The kiosk full screen on `server`, its tour playing, resized by another client several
        /// times with pauses (the buffer grows with the tour, goes back to its first size when
        /// idle and at each new size): nothing on stderr, and the window shows the scene.
        func resizeDuringTour(on server: TestXServer) throws {
            let session = try AppSession(
                display: server.display,
                arguments: ["--kiosk", "--kiosk-reset-after", "0.5", "--kiosk-tour-after", "0.5"]
            ) { server.stop() }
            defer { session.close() }
            let app = session.app
            let window = String(app.window)
            // Let the tour start and the buffer grow.
            pause(3)
            let sizes = [(800, 600), (1280, 800), (640, 480), (1200, 790), (300, 200), (1280, 800)]
            for (i, (w, h)) in sizes.enumerated() {
                try xdotool(server.display, ["windowsize", window, String(w), String(h)])
                // Short and long pauses: frames during the tour, and idle shrinks.
                pause(i % 2 == 0 ? 0.3 : 1.2)
            }
            pause(2)
            #expect(app.process.isRunning, "stderr: \(app.stderr)")
            #expect(!app.stderr.contains("X error"), "stderr: \(app.stderr)")
            let shot = try app.screenshot()
            let colours = Set(shot.pixels).count
            #expect(colours > 20, "\(colours) colours on screen: the scene is not drawn")
        }

        @Test("Resized by another client during the tour: zero X errors, the scene drawn")
        func resizes() throws {
            try resizeDuringTour(on: try TestXServer())
        }

        @Test("A server without MIT-SHM (-extension MIT-SHM): drawn with PutImage, zero X errors")
        func noExtension() throws {
            try resizeDuringTour(on: try TestXServer(extraArguments: ["-extension", "MIT-SHM"]))
        }

        /// Xvfb in its own IPC namespace has the extension but cannot see the app's segments: the
        /// attach checked at set-up is refused, and every frame goes through PutImage.
        @Test("A server that cannot attach the segments (another IPC namespace): drawn, zero X errors")
        func refusedSegments() throws {
            // `unshare --ipc` needs root; CI runs the X tests as root.
            if getuid() != 0 && ProcessInfo.processInfo.environment["CI"] == nil {
                print("skipped: unshare --ipc needs root")
                return
            }
            try #require(findProgram("unshare") != nil, "unshare (util-linux) is not installed")
            try resizeDuringTour(on: try TestXServer(launcher: ["unshare", "--ipc"]))
        }
    }
}
