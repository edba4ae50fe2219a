// A library app for the X tests: what an app does with `GestureWindow`, from synchronous
// top-level code as a real app runs it (the test runner's own `main` is async, and an async
// main gives the main queue to dispatch's worker threads).
//
//   gestures-app-probe concurrency   each way Swift code runs on the main actor flips a flag;
//                                    prints `ran NAME LATE_MS DRAWN_MS`, then quits
//   gestures-app-probe idle          prints `ready` once the first frame is up, runs until SIGTERM
//   gestures-app-probe open          only opens the window: an error is printed as one line
//   gestures-app-probe damage[-full] one view recoloured 300 times: damage and CPU per frame
import Dispatch
import GestureX11

#if canImport(Glibc)
    import Glibc
#endif

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Standard error from any isolation (a `FileHandle`-free line write).
nonisolated func printError(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}

/// Standard output, unbuffered (a line is out before the test reads it).
nonisolated func say(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(1, $0, strlen($0)) }
}

let mode = CommandLine.arguments.dropFirst().first ?? "concurrency"
let window: GestureWindow
do {
    window = try GestureWindow(title: "probe", size: Size(width: 320, height: 240))
} catch {
    printError("gestures-app-probe: \(error)")
    exit(1)
}

switch mode {
case "open":
    say("opened")
    exit(0)
case "idle":
    window.shell.onReady = { _ in say("ready") }
    exit(window.run())
case "damage", "damage-full":
    exit(damageFigures(full: mode == "damage-full"))
default:
    break
}

/// The figures of a frame that changes one view: a 800×600 window of 24 cards (labels on
/// colours), one 60×40 card recoloured 300 times, 60 per second; prints the frames, the mean
/// damage per frame (pixels) and the CPU per frame (user + system of the whole process). With
/// `full`, a whole-window `draw` hook makes every frame draw the whole window, for comparison.
@MainActor func damageFigures(full: Bool) -> Int32 {
    guard let w = try? GestureWindow(title: "damage", size: Size(width: 800, height: 600)) else { return 1 }
    var cards: [View] = []
    for i in 0..<24 {
        let card = Label(frame: Rect(x: 20 + Double(i % 6) * 130, y: 20 + Double(i / 6) * 140, width: 120, height: 120))
        card.backgroundColor = Color(red: 0.3 + 0.02 * Double(i), green: 0.5, blue: 0.8)
        card.text = "Card \(i)"
        card.textAlignment = .center
        w.root.addSubview(card)
        cards.append(card)
    }
    let target = View(frame: Rect(x: 350, y: 500, width: 60, height: 40))
    w.root.addSubview(target)
    if full {
        w.draw = { cr in
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
        }
    }
    var areas: [Int] = []
    var counting = false
    w.shell.onFramePresented = { rects in if counting { areas.append(rects.reduce(0) { $0 + $1.area }) } }
    func cpu() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }
    w.shell.onReady = { _ in
        Task { @MainActor in
            try await Task.sleep(for: .milliseconds(300))
            counting = true
            let start = cpu()
            for i in 0..<300 {
                target.backgroundColor = i % 2 == 0 ? .red : .green
                try await Task.sleep(for: .milliseconds(16))
            }
            let used = cpu() - start
            counting = false
            let n = max(areas.count, 1)
            say(
                "frames \(areas.count) damage_px_per_frame \(areas.reduce(0, +) / n) window_px \(800 * 600) "
                    + "cpu_us_per_frame \(Int(used / Double(n) * 1e6))")
            w.quit()
        }
    }
    return w.run()
}

/// Each mechanism: when it was due, when it ran, when the next frame was drawn.
@MainActor final class Flip {
    let name: String
    let due: Double
    var ran: Double?
    var drawn: Double?
    init(name: String, due: Double) {
        self.name = name
        self.due = due
    }
}
var flips: [Flip] = []
@MainActor func expect(_ name: String, in delay: Double) -> Flip {
    let f = Flip(name: name, due: now() + delay)
    flips.append(f)
    return f
}
@MainActor func flip(_ f: Flip) {
    f.ran = now()
    window.setNeedsDisplay()
}

window.draw = { cr in
    cairo_set_source_rgb(cr, 1, 1, 1)
    cairo_paint(cr)
    let t = now()
    for f in flips where f.ran != nil && f.drawn == nil { f.drawn = t }
    if flips.count == 6 && flips.allSatisfy({ $0.drawn != nil }) {
        for f in flips {
            let late = (f.ran! - f.due) * 1000
            let drawn = (f.drawn! - f.ran!) * 1000
            say("ran \(f.name) \((late * 100).rounded() / 100) \((drawn * 100).rounded() / 100)")
        }
        DispatchQueue.main.async { MainActor.assumeIsolated { window.shell.quit() } }
    }
}

window.shell.onReady = { _ in
    let task = expect("task", in: 0)
    Task { @MainActor in flip(task) }
    let detached = expect("detached", in: 0)
    Task.detached { await MainActor.run { flip(detached) } }
    let async = expect("main.async", in: 0)
    DispatchQueue.main.async { MainActor.assumeIsolated { flip(async) } }
    let after = expect("main.asyncAfter", in: 0.3)
    DispatchQueue.main.asyncAfter(deadline: .now() + 0.3) { MainActor.assumeIsolated { flip(after) } }
    let sleep = expect("Task.sleep", in: 0.5)
    Task { @MainActor in
        try await Task.sleep(for: .milliseconds(500))
        flip(sleep)
    }
    // A read source on the main queue: a pipe written 0.7 s later from another thread.
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { fatalError("pipe") }
    let readable = expect("DispatchSource", in: 0.7)
    let source = DispatchSource.makeReadSource(fileDescriptor: fds[0], queue: .main)
    source.setEventHandler {
        MainActor.assumeIsolated {
            var byte: UInt8 = 0
            _ = read(fds[0], &byte, 1)
            if readable.ran == nil { flip(readable) }
        }
    }
    source.resume()
    let writeEnd = fds[1]
    Task.detached {
        try await Task.sleep(for: .milliseconds(700))
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
    withExtendedLifetime(source) {}
    sources.append(source)
}
var sources: [any DispatchSourceRead] = []
exit(window.run())
