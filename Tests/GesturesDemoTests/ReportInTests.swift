import GestureKit
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

/// The coordinate space of a pan's translation and velocity on a transformed view (the spec's
/// `reportIn`): `translation(in: v)` is the window translation taken through the inverse of the
/// linear part of v's transform to the window; `x`, `y` stay window points.
@Suite @MainActor struct ReportInTests {
    /// A finger drags from (x, y) 20 pt right, then 40, and lifts 50 ms later.
    static func drag(from x: Int, _ y: Int) -> String {
        """
        {"type":"down","t":0,"id":1,"x":\(x),"y":\(y)}
        {"type":"move","t":0.05,"id":1,"x":\(x + 20),"y":\(y)}
        {"type":"move","t":0.1,"id":1,"x":\(x + 40),"y":\(y)}
        {"type":"up","t":0.15,"id":1,"x":\(x + 40),"y":\(y)}
        """
    }

    static func line(
        _ t: String, _ name: String, _ state: String, _ x: Int, _ tr: String, _ v: String, y: Int = 150
    ) -> String {
        #"{"type":"gesture","t":\#(t),"recognizer":"\#(name)","kind":"pan","state":"\#(state)","x":\#(x).0,"y":\#(y).0,"touches":1,"translation":\#(tr),"velocity":\#(v)}"#
    }

    /// The card [100, 100, 200, 100] under `transform` (about its centre (200, 150)); the drag
    /// starts at the card's centre. Window (20, 0) in the view: a quarter turn clockwise maps it
    /// to (0, −20) (the view's y axis points left on screen); a scale of 2 halves it; both
    /// together give (0, −10); a translation part moves the view, not vectors.
    @Test(arguments: [
        ("[1,0,0,1,0,0]", 200, 150, ["[20.0,0.0]", "[400.0,0.0]", "[40.0,0.0]"]),
        ("[0,1,-1,0,0,0]", 200, 150, ["[0.0,-20.0]", "[0.0,-400.0]", "[0.0,-40.0]"]),
        ("[2,0,0,2,0,0]", 200, 150, ["[10.0,0.0]", "[200.0,0.0]", "[20.0,0.0]"]),
        ("[0,2,-2,0,0,0]", 200, 150, ["[0.0,-10.0]", "[0.0,-200.0]", "[0.0,-20.0]"]),
        ("[1,0,0,1,30,-40]", 230, 110, ["[20.0,0.0]", "[400.0,0.0]", "[40.0,0.0]"]),
    ])
    func viewVersusWindow(transform: String, x: Int, y: Int, inView: [String]) throws {
        let spec = """
            {"views":[{"name":"card","frame":[100,100,200,100],"transform":\(transform)}],
             "recognizers":[{"name":"w","kind":"pan","view":"card","reportIn":"window"},
                            {"name":"v","kind":"pan","view":"card","reportIn":"view","simultaneousWith":["w"]}]}
            """
        #expect(
            try playgroundLog(spec, Self.drag(from: x, y)) == [
                Self.line("0.05", "w", "began", x + 20, "[20.0,0.0]", "[400.0,0.0]", y: y),
                Self.line("0.05", "v", "began", x + 20, inView[0], inView[1], y: y),
                Self.line("0.1", "w", "changed", x + 40, "[40.0,0.0]", "[400.0,0.0]", y: y),
                Self.line("0.1", "v", "changed", x + 40, inView[2], inView[1], y: y),
                Self.line("0.15", "w", "ended", x + 40, "[40.0,0.0]", "[0.0,0.0]", y: y),
                Self.line("0.15", "v", "ended", x + 40, inView[2], "[0.0,0.0]", y: y),
            ])
    }

    /// `superview` against `view` on a nested view: `inner` is scaled 2 about its centre inside
    /// the quarter-turned card, so in the card (its superview) the 20 pt drag reads (0, −20) and
    /// in `inner` itself (0, −10). The log agrees with what the actions get from
    /// `translation(in:)` and `velocity(in:)` at each transition.
    @Test func superviewVersusViewOnANestedView() throws {
        let spec = """
            {"views":[{"name":"card","frame":[100,100,200,100],"transform":[0,1,-1,0,0,0]},
                      {"name":"inner","parent":"card","frame":[50,25,100,50],"transform":[2,0,0,2,0,0]}],
             "recognizers":[{"name":"w","kind":"pan","view":"inner"},
                            {"name":"s","kind":"pan","view":"inner","reportIn":"superview","simultaneousWith":["w","v"]},
                            {"name":"v","kind":"pan","view":"inner","reportIn":"view","simultaneousWith":["w"]}]}
            """
        let parsed = try PlaygroundSpec.parse(spec, file: "s.json")
        let trace = try TraceReader.parse(text: Self.drag(from: 200, 150), file: "t.jsonl", size: nil, deviceText: nil)
        let scene = PlaygroundScene(spec: parsed, size: Size(width: 400, height: 400))
        var log: [String] = []
        var fromAPI: [String] = []
        scene.onLogLine = { log.append($0) }
        for r in scene.recognizers {
            r.addAction { r in
                guard let p = r as? PanGestureRecognizer, r.name != "w" else { return }
                let v = r.name == "s" ? p.view?.superview : p.view
                let tr = p.translation(in: v)
                let vel = p.velocity(in: v)
                fromAPI.append("\(r.name) \(formatNumber(tr.dx)) \(formatNumber(tr.dy)) \(formatNumber(vel.dy))")
            }
        }
        try replay(trace, through: scene)
        #expect(
            log == [
                Self.line("0.05", "w", "began", 220, "[20.0,0.0]", "[400.0,0.0]"),
                Self.line("0.05", "s", "began", 220, "[0.0,-20.0]", "[0.0,-400.0]"),
                Self.line("0.05", "v", "began", 220, "[0.0,-10.0]", "[0.0,-200.0]"),
                Self.line("0.1", "w", "changed", 240, "[40.0,0.0]", "[400.0,0.0]"),
                Self.line("0.1", "s", "changed", 240, "[0.0,-40.0]", "[0.0,-400.0]"),
                Self.line("0.1", "v", "changed", 240, "[0.0,-20.0]", "[0.0,-200.0]"),
                Self.line("0.15", "w", "ended", 240, "[40.0,0.0]", "[0.0,0.0]"),
                Self.line("0.15", "s", "ended", 240, "[0.0,-40.0]", "[0.0,0.0]"),
                Self.line("0.15", "v", "ended", 240, "[0.0,-20.0]", "[0.0,0.0]"),
            ])
        #expect(
            fromAPI == [
                "s 0.0 -20.0 -400.0", "v 0.0 -10.0 -200.0", "s 0.0 -40.0 -400.0", "v 0.0 -20.0 -200.0",
                "s 0.0 -40.0 0.0", "v 0.0 -20.0 0.0",
            ])
    }

    /// On the root (no superview) `superview` reports window points.
    @Test func superviewOfTheRootIsTheWindow() throws {
        let log = try playgroundLog(#"[{"name":"pan","kind":"pan","reportIn":"superview"}]"#, dragRight)
        #expect(log == PlaygroundHookTests.panBegan)
    }
}
