import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// Who counts as a visitor, and what the attract tour shows them.
    @Suite("gestures run --kiosk: a held key is no visitor; the tour shows its fingers")
    struct KioskVisitor {
        @Test("A key held down (the server auto-repeats it) counts once: the reset and the tour still come")
        func heldKeyIsNoVisitor() throws {
            let session = try AppSession(arguments: ["--kiosk", "--kiosk-reset-after", "1", "--kiosk-tour-after", "2"])
            defer { session.close() }
            let app = session.app
            let c = app.connection
            c.focus(app.window)
            let before = app.log.lines(from: 0).count
            c.key(0x61, pressed: true)  // "a", held
            c.sync()
            defer {
                c.key(0x61, pressed: false)
                c.sync()
            }
            _ = try app.log.waitFor("reset while the key is held", from: before, timeout: 4) {
                $0.string("event") == "reset"
            }
            _ = try app.log.waitFor("tour while the key is held", from: before, timeout: 4) {
                $0.string("event") == "tourStart"
            }
        }

        @Test(
            "The tour's fingers are drawn (as --show-touches draws them) at the tour's touch point, and gone after it")
        func tourShowsFingers() throws {
            let directory = try TemporaryDirectory()
            // A tour of one finger held 3 s in the empty bottom-left of a 1280x800 window.
            let p = (x: 60.0, y: 740.0)
            let tour = directory.file("tour.jsonl")
            try """
            {"type":"down","t":0.2,"id":1,"x":\(p.x),"y":\(p.y)}
            {"type":"move","t":1.0,"id":1,"x":\(p.x),"y":\(p.y + 0.5)}
            {"type":"up","t":3.2,"id":1,"x":\(p.x),"y":\(p.y + 0.5)}

            """.write(toFile: tour, atomically: true, encoding: .utf8)
            let session = try AppSession(
                arguments: ["--kiosk", "--kiosk-tour", tour, "--kiosk-tour-after", "1", "--kiosk-reset-after", "30"],
                size: "1280x800")
            defer { session.close() }
            let app = session.app
            func pixel() throws -> UInt32 {
                let shot = try session.connection.screenshot(app.window)
                return shot.pixel(Int(p.x * app.scale), Int(p.y * app.scale))
            }
            let background = try pixel()
            let start = try app.log.waitFor("tourStart", timeout: 4) { $0.string("event") == "tourStart" }
            _ = start
            let shown = poll(timeout: 2.5, interval: 0.05) { () -> UInt32? in
                guard let now = try? pixel(), colorDistance(now, background) > 40 else { return nil }
                return now
            }
            #expect(shown != nil, "no finger drawn at the tour's touch (background \(String(background, radix: 16)))")
            _ = try app.log.waitFor("tourEnd", timeout: 6) { $0.string("event") == "tourEnd" }
            let gone = poll(timeout: 2, interval: 0.05) { () -> Bool? in
                guard let now = try? pixel(), colorDistance(now, background) < 8 else { return nil }
                return true
            }
            #expect(gone == true, "the finger stayed drawn after the tour")
        }

        @Test(
            "Messages escape what they quote: a reload error naming a path with terminal escapes, and gestures monitors' server-chosen names"
        )
        func messagesEscape() throws {
            let directory = try TemporaryDirectory()
            let config = directory.file("kiosk.conf")
            try "reset-after = 30\n".write(toFile: config, atomically: true, encoding: .utf8)
            let session = try AppSession(arguments: ["--kiosk", "--kiosk-config", config])
            defer { session.close() }
            let app = session.app
            try "image = evil\u{1B}]0;pwned\u{07}.png\n".write(toFile: config, atomically: true, encoding: .utf8)
            app.process.signal(SIGHUP)
            _ = try app.log.waitFor("reloadFailed") { $0.string("event") == "reloadFailed" }
            let err = app.stderr
            #expect(
                !err.contains("\u{1B}") && !err.contains("\u{07}"), "raw escapes on stderr: \(err.debugDescription)")
            #expect(err.contains(#"evil\u{1B}]0;pwned\u{7}.png"#), "stderr: \(err)")
            // A monitor whose name a client chose (xrandr --setmonitor): listed escaped.
            let name = "evil\u{1B}]0;pwned\u{07}"
            let xr = try ChildProcess(
                try #require(findProgram("xrandr"), "xrandr is not installed (scripts/deps test)"),
                ["--setmonitor", name, "640/160x480/120+0+0", "none"], environment: ["DISPLAY": session.display])
            #expect(xr.wait(timeout: 10) == 0)
            let listed = try runGestures(["monitors", "--display", session.display], in: directory)
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(!listed.stdout.contains("\u{1B}"), "raw escape: \(listed.stdout.debugDescription)")
            #expect(listed.stdout.contains(#"evil\u{1B}]0;pwned\u{7} 640x480+0+0"#), "\(listed.stdout)")
        }
    }
}
