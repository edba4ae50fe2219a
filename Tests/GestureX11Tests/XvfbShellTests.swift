import CX11
import Foundation
import GestureTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension XServerTests {
    /// The shell's other promises seen from outside: the simulated fingers drawn while the
    /// modifier is held, the parallel (Ctrl+Shift) second finger, `--record` reproduced by
    /// `gestures replay`, `--replay` through the live window.
    @Suite("gestures run: simulated fingers, record and replay (Xvfb)")
    struct XvfbShell {
        @Test("Holding Ctrl draws both simulated fingers (pointer and mirror); releasing hides them")
        func simulatedFingersDrawn() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let pinch = try app.region("pinch")
            let p = pinch.center + (pinch.width * 0.25, pinch.height * 0.2)
            let mirror = pinch.center + (-pinch.width * 0.25, -pinch.height * 0.2)
            let far = try app.region("swipe").center
            app.move(to: p)
            session.connection.sync()
            let plain = try app.screenshot()
            func box(_ q: LayoutPoint) -> LayoutRect {
                app.pixelRect(LayoutRect(x: q.x - 6, y: q.y - 6, width: 12, height: 12))
            }
            func changed(_ shot: Screenshot, _ q: LayoutPoint) -> Double {
                let a = plain.pixels(in: box(q))
                let b = shot.pixels(in: box(q))
                guard a.count == b.count, !a.isEmpty else { return 0 }
                return Double(zip(a, b).filter { colorDistance($0, $1) > 8 }.count)
                    / Double(a.count)
            }
            session.connection.key(Keysym.controlL, pressed: true)
            session.connection.sync()
            let held = try pollScreenshot(app) { changed($0, p) > 0.5 && changed($0, mirror) > 0.5 }
            #expect(changed(held, p) > 0.5, "nothing drawn at the pointer while Ctrl is held")
            #expect(changed(held, mirror) > 0.5, "nothing drawn at the mirrored finger")
            #expect(changed(held, far) == 0)
            session.connection.key(Keysym.controlL, pressed: false)
            session.connection.sync()
            let released = try pollScreenshot(app) { changed($0, p) == 0 && changed($0, mirror) == 0 }
            #expect(changed(released, p) == 0 && changed(released, mirror) == 0)
            #expect(!app.log.lines(from: 0).contains { $0.isGesture && $0.state != "failed" })
        }

        @Test("Ctrl+Shift drag on the image: a parallel second finger, a two-finger pan")
        func parallelSecondFinger() throws {
            let session = try AppSession()
            defer { session.close() }
            let app = session.app
            let image = try app.region("image")
            let start = image.center + (image.width * 0.15, image.height * 0.1)
            let (dx, dy) = (image.width * 0.2, -image.height * 0.15)
            try app.drag(
                straightPath(from: start, to: start + (dx, dy), steps: 20),
                modifiers: [Keysym.controlL, Keysym.shiftL])
            try app.waitFor("imagePan", "ended")
            let pans = app.lines(of: "imagePan")
            let changed = pans.filter { $0.state == "changed" }
            #expect(!changed.isEmpty && changed.allSatisfy { $0.touches == 2 }, "\(summary(pans))")
            let translation = try #require(
                pans.last { $0.object["translation"] != nil }?.object["translation"]
                    as? [NSNumber])
            #expect(abs(translation[0].doubleValue - dx) < 1.5, "\(translation)")
            #expect(abs(translation[1].doubleValue - dy) < 1.5, "\(translation)")
            // The fingers keep their distance and angle: no pinch, no rotation.
            for other in ["imagePinch", "imageRotation"] {
                #expect(!app.lines(of: other).contains { $0.state == "began" }, "\(other)")
            }
        }

        @Test("--record writes a trace that gestures replay turns into the same event log")
        func recordReplaysExactly() throws {
            let directory = try TemporaryDirectory()
            let trace = directory.file("trace.jsonl")
            let session = try AppSession(arguments: ["--record", trace])
            defer { session.close() }
            let app = session.app
            let tap = try app.region("tap")
            app.click(at: tap.center)
            try app.waitFor("tap", "ended")
            let pinch = try app.region("pinch")
            try app.drag(
                straightPath(
                    from: pinch.center + (pinch.width * 0.1, 0),
                    to: pinch.center + (pinch.width * 0.25, 5), steps: 15),
                modifiers: [Keysym.controlL])
            try app.waitFor("pinch", "ended")
            let rotate = try app.region("rotate")
            try app.drag(
                arc(around: rotate.center, radius: rotate.height * 0.4, from: 0, to: 1, steps: 15),
                modifiers: [Keysym.controlL])
            try app.waitFor("rotation", "ended")
            let image = try app.region("image")
            try app.drag(straightPath(from: image.center, to: image.center + (40, 20), steps: 10))
            try app.waitFor("imagePan", "ended")
            app.keyChord([Keysym.controlL], Keysym.z)
            try app.waitFor("shake", "ended")
            session.connection.sendDeleteWindow(app.window)
            #expect(app.waitForExit(timeout: 5) == 0, "stderr: \(app.stderr)")
            try app.log.waitFor("final line") { $0.type == "final" }

            let replayed = try runGestures(["replay", trace, "--size", "1024x768"], in: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let live = app.log.lines(from: 0).filter { $0.isGesture || $0.type == "final" }
                .map(\.text)
            let headless = replayed.stdout.split(separator: "\n").map(String.init)
                .filter { $0.contains("\"type\":\"gesture\"") || $0.contains("\"type\":\"final\"") }
            #expect(live.count > 10)
            #expect(live == headless, "live:\n\(live.joined(separator: "\n"))")
        }

        @Test("--replay plays a trace through the live window, set lines included: the same gestures as headless")
        func replayThroughWindow() throws {
            let directory = try TemporaryDirectory()
            // A short trace made from the layout the app reports: a tap, then a pinch.
            let layoutRun = try runGestures(["layout", "--size", "1024x768"], in: directory)
            let layouts = layoutRun.stdout.split(separator: "\n").compactMap {
                LogLine(String($0))?.layout
            }
            let layout = try #require(
                layouts.first, "gestures layout printed \(layoutRun.stdout) \(layoutRun.stderr)")
            let tap = try layout.region("tap").center
            let pinch = try layout.region("pinch").center
            var trace = [#"{"type":"viewport","width":1024,"height":768}"#]
            func event(_ type: String, _ t: Double, _ id: Int, _ x: Double, _ y: Double) {
                trace.append(#"{"type":"\#(type)","t":\#(t),"id":\#(id),"x":\#(x),"y":\#(y)}"#)
            }
            event("down", 0.1, 1, tap.x, tap.y)
            event("up", 0.2, 1, tap.x, tap.y)
            event("down", 0.5, 1, pinch.x - 40, pinch.y)
            event("down", 0.5, 2, pinch.x + 40, pinch.y)
            for i in 1...10 {
                let t = 0.5 + Double(i) * 0.02
                let d = 40 + Double(i) * 6
                event("move", t, 1, pinch.x - d, pinch.y)
                event("move", t, 2, pinch.x + d, pinch.y)
                // Mid-pinch the app sets the scale back to 1 (a `set` line): the live window
                // applies it at its place too, so the scales that follow match the headless run.
                if i == 5 { trace.append(#"{"type":"set","t":0.61,"recognizer":"pinch","scale":1}"#) }
            }
            event("up", 0.75, 1, pinch.x - 100, pinch.y)
            event("up", 0.75, 2, pinch.x + 100, pinch.y)
            let tracePath = directory.file("trace.jsonl")
            try (trace.joined(separator: "\n") + "\n").write(
                toFile: tracePath, atomically: true, encoding: .utf8)

            let server = try TestXServer()
            defer { server.stop() }
            let logPath = directory.file("live.jsonl")
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = server.display
            let process = try ChildProcess(
                try gesturesBinary(),
                [
                    "run", "--size", "1024x768", "--replay", tracePath, "--exit-after-replay",
                    "--log-events", logPath,
                ],
                environment: environment, stderr: .file(directory.file("err.txt")))
            let status = process.wait(timeout: 20)
            #expect(status == 0, "stderr: \(readText(directory.file("err.txt")))")
            let replayed = try runGestures(["replay", tracePath], in: directory)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            // Times differ (the live clock starts at launch); everything else is the same.
            func strip(_ text: String) -> String {
                text.replacingOccurrences(
                    of: #""t":[-0-9.e]+,"#, with: "", options: .regularExpression)
            }
            let live = readText(logPath).split(separator: "\n").map(String.init)
                .filter { $0.contains("\"type\":\"gesture\"") }.map(strip)
            let headless = replayed.stdout.split(separator: "\n").map(String.init)
                .filter { $0.contains("\"type\":\"gesture\"") }.map(strip)
            #expect(live.contains { $0.contains("\"recognizer\":\"tap\"") })
            #expect(live.contains { $0.contains("\"recognizer\":\"pinch\"") })
            #expect(live == headless, "live:\n\(live.joined(separator: "\n"))")
        }
    }
}

/// Runs the gestures binary to completion (no X); its status, stdout and stderr.
func runGestures(_ arguments: [String], in directory: TemporaryDirectory, timeout: Double = 60)
    throws -> (status: Int32?, stdout: String, stderr: String)
{
    let out = directory.file("gestures-\(arguments.first ?? "").out")
    let err = directory.file("gestures-\(arguments.first ?? "").err")
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = nil
    let process = try ChildProcess(
        try gesturesBinary(), arguments, environment: environment, stdout: .file(out),
        stderr: .file(err))
    let status = process.wait(timeout: timeout)
    return (status, readText(out), readText(err))
}
