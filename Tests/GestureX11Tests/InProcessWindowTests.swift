import CCairo
import Foundation
import GestureKit
import GestureTestSupport
import GestureX11
import Testing

extension XServerTests {
    /// The library's window in this process (not the `gestures` executable): it runs, draws, and
    /// once ``GestureWindow/run()`` has returned — window destroyed, connection closed — nothing
    /// reaches the freed connection again.
    @Suite("GestureWindow in process: one run, nothing after it")
    @MainActor
    struct InProcessWindow {
        @Test("draws and screenshots, ends after its playback, then refuses to draw or play")
        func afterRun() throws {
            let server = try TestXServer(width: 640, height: 480)
            var options = ShellOptions()
            options.display = server.display
            let window = try GestureWindow(title: "in-process", size: Size(width: 200, height: 150), options: options)
            var frames = 0
            let directory = try TemporaryDirectory(prefix: "gestures-inproc")
            window.draw = { cr in
                frames += 1
                cairo_set_source_rgb(cr, 0.2, 0.4, 0.8)
                cairo_paint(cr)
            }
            // While the window exists a screenshot works; an empty playback then ends the run.
            window.shell.requestScreenshot(directory.file("live.png"))
            window.shell.play([], exitWhenDone: true)
            #expect(window.run() == 0)
            #expect(frames >= 1)
            let drawnWhileRunning = frames
            #expect(FileManager.default.fileExists(atPath: directory.file("live.png")))

            // After run: no frame, no screenshot, no playback — and no crash.
            window.setNeedsDisplay()
            #expect(!window.shell.writePNG(to: directory.file("after.png")))
            #expect(!FileManager.default.fileExists(atPath: directory.file("after.png")))
            window.shell.play([], exitWhenDone: true)
            window.shell.redrawAll()
            #expect(frames == drawnWhileRunning, "a frame drawn after run returned")
        }
    }
}
