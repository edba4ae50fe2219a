import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The kiosk monitors' fallback: a server running classic Xinerama over two X screens, where
    /// RandR describes only the first screen (one RandR monitor) and Xinerama both.
    @Suite("Kiosk monitors: the Xinerama fallback")
    struct KioskXinerama {
        @Test(
            "Xvfb +xinerama with two screens: gestures monitors lists Xinerama's screens; --monitor covers the chosen one",
            arguments: [("0", 1280, 800), ("xinerama-1", 1920, 1080), ("primary", 1280, 800)])
        func xineramaScreens(choice: String, width: Int, height: Int) throws {
            let server = try TestXServer(extraArguments: ["+xinerama", "-screen", "1", "1920x1080x24"])
            let directory = try TemporaryDirectory()
            let listed = try runGestures(["monitors", "--display", server.display], in: directory)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(
                listed.stdout == "0 xinerama-0 1280x800+0+0 primary\n1 xinerama-1 1920x1080+0+0\n", "\(listed.stdout)")
            let session = try AppSession(display: server.display, arguments: ["--kiosk", "--monitor", choice]) {
                server.stop()
            }
            defer { session.close() }
            let g = try #require(session.connection.geometry(of: session.app.window))
            #expect(g.x == 0 && g.y == 0 && g.width == width && g.height == height, "\(g)")
            #expect(session.app.layout.width == Double(width) && session.app.layout.height == Double(height))
        }
    }
}
