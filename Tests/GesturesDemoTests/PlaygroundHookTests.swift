import GestureKit
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

/// Replays a JSON Lines trace (its `set` lines included) through a playground built from `spec`
/// and returns the whole event log.
@MainActor
func playgroundLog(_ spec: String, _ trace: String, size: Size = Size(width: 400, height: 400)) throws -> [String] {
    try playgroundRun(spec, trace, size: size).log
}

@MainActor
func playgroundRun(_ spec: String, _ trace: String, size: Size = Size(width: 400, height: 400)) throws -> (
    scene: PlaygroundScene, log: [String]
) {
    let parsed = try PlaygroundSpec.parse(spec, file: "s.json")
    let loaded = try TraceReader.parse(text: trace, file: "t.jsonl", size: size, deviceText: nil)
    let scene = PlaygroundScene(spec: parsed, size: loaded.viewport)
    var log: [String] = []
    scene.onLogLine = { log.append($0) }
    try replay(loaded, through: scene)
    return (scene, log)
}

/// One finger drags right from (100, 100): 20 pt at 0.05 s, 40 pt at 0.1 s, lifts at 0.15 s.
let dragRight = """
    {"type":"down","t":0,"id":1,"x":100,"y":100}
    {"type":"move","t":0.05,"id":1,"x":120,"y":100}
    {"type":"move","t":0.1,"id":1,"x":140,"y":100}
    {"type":"up","t":0.15,"id":1,"x":140,"y":100}
    """

/// The delegate hooks of docs/DESIGN.md §3 written as data in the spec, and the spec's views; each
/// replay is checked on its whole log, worked out from §3's rules.
@Suite @MainActor struct PlaygroundHookTests {
    nonisolated static let panBegan = [
        #"{"type":"gesture","t":0.05,"recognizer":"pan","kind":"pan","state":"began","x":120.0,"y":100.0,"touches":1,"translation":[20.0,0.0],"velocity":[400.0,0.0]}"#,
        #"{"type":"gesture","t":0.1,"recognizer":"pan","kind":"pan","state":"changed","x":140.0,"y":100.0,"touches":1,"translation":[40.0,0.0],"velocity":[400.0,0.0]}"#,
        // 50 ms after the last move the finger has stopped: no fling.
        #"{"type":"gesture","t":0.15,"recognizer":"pan","kind":"pan","state":"ended","x":140.0,"y":100.0,"touches":1,"translation":[40.0,0.0],"velocity":[0.0,0.0]}"#,
    ]
    /// Asked at 0.05 s, when the pan has moved 20 pt (> 10): a no fails it there, with the
    /// values it had; nothing more is logged for the drag.
    nonisolated static let panFailed = [
        #"{"type":"gesture","t":0.05,"recognizer":"pan","kind":"pan","state":"failed","x":120.0,"y":100.0,"touches":1,"translation":[20.0,0.0],"velocity":[400.0,0.0]}"#
    ]

    @Test(
        "shouldBegin: a no fails the pan instead of beginning",
        arguments: [
            ("true", panBegan),
            ("false", panFailed),
            (#"{"minTouches":2}"#, panFailed),
            (#"{"minTouches":1,"maxTouches":1}"#, panBegan),
            // The location when asked is (120, 100): outside [0, 110) × [0, 200), inside [110, 210).
            (#"{"inRect":[0,0,110,200]}"#, panFailed),
            (#"{"inRect":[110,0,100,200]}"#, panBegan),
            (#"{"inRect":[110,0,100,200],"minTouches":2}"#, panFailed),
        ])
    func shouldBegin(condition: String, expected: [String]) throws {
        let log = try playgroundLog(#"[{"name":"pan","kind":"pan","shouldBegin":\#(condition)}]"#, dragRight)
        #expect(log == expected)
    }

    static let twoTaps = """
        {"type":"down","t":0,"id":1,"x":100,"y":100}
        {"type":"up","t":0.05,"id":1,"x":100,"y":100}
        {"type":"down","t":1,"id":2,"x":300,"y":100}
        {"type":"up","t":1.05,"id":2,"x":300,"y":100}
        """
    nonisolated static let leftTap =
        #"{"type":"gesture","t":0.05,"recognizer":"tap","kind":"tap","state":"ended","x":100.0,"y":100.0,"touches":1,"taps":1}"#
    nonisolated static let rightTap =
        #"{"type":"gesture","t":1.05,"recognizer":"tap","kind":"tap","state":"ended","x":300.0,"y":100.0,"touches":1,"taps":1}"#

    /// A touch the filter refuses is never delivered: the tap does not see it at all (no line).
    @Test(
        "shouldReceive filters touches at touch-down",
        arguments: [
            ("true", [leftTap, rightTap]),
            ("false", []),
            (#"{"inRect":[0,0,200,400]}"#, [leftTap]),
            (#"{"touchIds":[2,7]}"#, [rightTap]),
            (#"{"inRect":[0,0,200,400],"touchIds":[2]}"#, []),
        ])
    func shouldReceive(filter: String, expected: [String]) throws {
        let log = try playgroundLog(#"[{"name":"tap","kind":"tap","shouldReceive":\#(filter)}]"#, Self.twoTaps)
        #expect(log == expected)
    }

    /// A two-finger tap with one finger filtered out sees one touch: fewer than required fails at
    /// the last lift.
    @Test func shouldReceiveMakesATwoFingerTapFail() throws {
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"down","t":0,"id":2,"x":300,"y":100}
            {"type":"up","t":0.05,"id":1,"x":100,"y":100}
            {"type":"up","t":0.05,"id":2,"x":300,"y":100}
            """
        let spec = #"[{"name":"tap","kind":"tap","numberOfTouchesRequired":2,"shouldReceive":FILTER}]"#
        let unfiltered = try playgroundLog(spec.replacing("FILTER", with: "true"), trace)
        #expect(
            unfiltered == [
                #"{"type":"gesture","t":0.05,"recognizer":"tap","kind":"tap","state":"ended","x":200.0,"y":100.0,"touches":2,"taps":1}"#
            ])
        let filtered = try playgroundLog(spec.replacing("FILTER", with: #"{"inRect":[0,0,200,400]}"#), trace)
        #expect(
            filtered == [
                #"{"type":"gesture","t":0.05,"recognizer":"tap","kind":"tap","state":"failed","x":100.0,"y":100.0,"touches":1,"taps":0}"#
            ])
    }

    /// The same failure requirement written three ways (UIKit: `require(toFail:)`, the delegate's
    /// `shouldRequireFailureOf` on the waiting side, `shouldBeRequiredToFailBy` on the other).
    nonisolated static let requirementForms = [
        (#""requireToFail":["double"]"#, ""),
        (#""shouldRequireFailureOf":["double"]"#, ""),
        ("", #","shouldBeRequiredToFailBy":["single"]"#),
    ]

    static func requirementSpec(single: String, double: String) -> String {
        let s = single.isEmpty ? "" : "," + single
        return
            #"[{"name":"double","kind":"tap","numberOfTapsRequired":2\#(double)},{"name":"single","kind":"tap"\#(s)}]"#
    }

    /// One tap: the single tap's success waits until the double tap's 0.3 s gap runs out (0.1 +
    /// 0.3 s), then applies; without the requirement it wins at the lift and the double fails.
    @Test(arguments: requirementForms)
    func singleWaitsForTheDoubleTap(single: String, double: String) throws {
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"up","t":0.1,"id":1,"x":100,"y":100}
            """
        #expect(
            try playgroundLog(Self.requirementSpec(single: single, double: double), trace) == [
                #"{"type":"gesture","t":0.4,"recognizer":"double","kind":"tap","state":"failed","x":100.0,"y":100.0,"touches":1,"taps":1}"#,
                #"{"type":"gesture","t":0.4,"recognizer":"single","kind":"tap","state":"ended","x":100.0,"y":100.0,"touches":1,"taps":1}"#,
            ])
        // A double tap: the double is recognized at its second lift and the waiting single fails.
        let doubleTap = """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"up","t":0.1,"id":1,"x":100,"y":100}
            {"type":"down","t":0.2,"id":2,"x":102,"y":100}
            {"type":"up","t":0.3,"id":2,"x":102,"y":100}
            """
        #expect(
            try playgroundLog(Self.requirementSpec(single: single, double: double), doubleTap) == [
                #"{"type":"gesture","t":0.3,"recognizer":"double","kind":"tap","state":"ended","x":102.0,"y":100.0,"touches":1,"taps":2}"#,
                #"{"type":"gesture","t":0.3,"recognizer":"single","kind":"tap","state":"failed","x":100.0,"y":100.0,"touches":1,"taps":1}"#,
            ])
    }

    @Test func withoutARequirementTheSingleTapWinsAtOnce() throws {
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"up","t":0.1,"id":1,"x":100,"y":100}
            """
        #expect(
            try playgroundLog(Self.requirementSpec(single: "", double: ""), trace) == [
                #"{"type":"gesture","t":0.1,"recognizer":"single","kind":"tap","state":"ended","x":100.0,"y":100.0,"touches":1,"taps":1}"#,
                #"{"type":"gesture","t":0.1,"recognizer":"double","kind":"tap","state":"failed","x":100.0,"y":100.0,"touches":1,"taps":1}"#,
            ])
    }

    /// A card at [50, 50, 300, 300] holds a badge at [100, 100, 100, 100] in the card's
    /// coordinates, i.e. [150, 150, 100, 100] in the window. A touch on a badge that takes no
    /// touches goes to the card; on an interactive badge both recognizers get it (the hit view's
    /// and its ancestors'), the badge's first, and its win fails the card's tap.
    @Test(
        arguments: [
            (false, 200.0, [#"cardTap","kind":"tap","state":"ended","x":200.0,"y":200.0,"touches":1,"taps":1}"#]),
            (
                true, 200.0,
                [
                    #"badgeTap","kind":"tap","state":"ended","x":200.0,"y":200.0,"touches":1,"taps":1}"#,
                    #"cardTap","kind":"tap","state":"failed","x":200.0,"y":200.0,"touches":1,"taps":0}"#,
                ]
            ),
            (true, 120.0, [#"cardTap","kind":"tap","state":"ended","x":120.0,"y":120.0,"touches":1,"taps":1}"#]),
        ])
    func nestedViewsAndUserInteraction(badgeInteractive: Bool, at p: Double, expected: [String]) throws {
        let spec = """
            {"views":[{"name":"card","frame":[50,50,300,300]},
                      {"name":"badge","parent":"card","frame":[100,100,100,100],"userInteraction":\(badgeInteractive)}],
             "recognizers":[{"name":"cardTap","kind":"tap","view":"card"},{"name":"badgeTap","kind":"tap","view":"badge"}]}
            """
        let trace = """
            {"type":"down","t":0,"id":1,"x":\(p),"y":\(p)}
            {"type":"up","t":0.05,"id":1,"x":\(p),"y":\(p)}
            """
        let log = try playgroundLog(spec, trace)
        #expect(log == expected.map { #"{"type":"gesture","t":0.05,"recognizer":""# + $0 })
    }

    /// A child's frame is in its parent's coordinates, under the parent's transform: the card
    /// [100, 100, 200, 100] turned a quarter clockwise covers x 150…250, y 50…250; its child
    /// [0, 0, 50, 100] (the card's left end) lands at x 150…250, y 50…100. A tap goes to the
    /// recognizers of the hit view and its ancestors; the deepest wins and fails the others.
    @Test(arguments: [
        (200.0, 75.0, ["innerTap ended", "cardTap failed", "rootTap failed"]),
        (200.0, 200.0, ["cardTap ended", "rootTap failed"]),
        (120.0, 150.0, ["rootTap ended"]),
    ])
    func childFramesAreInTheParentsCoordinates(x: Double, y: Double, expected: [String]) throws {
        let spec = """
            {"views":[{"name":"card","frame":[100,100,200,100],"transform":[0,1,-1,0,0,0]},
                      {"name":"inner","parent":"card","frame":[0,0,50,100]}],
             "recognizers":[{"name":"innerTap","kind":"tap","view":"inner"},{"name":"cardTap","kind":"tap","view":"card"},
                            {"name":"rootTap","kind":"tap","view":"root"}]}
            """
        let trace = """
            {"type":"down","t":0,"id":1,"x":\(x),"y":\(y)}
            {"type":"up","t":0.05,"id":1,"x":\(x),"y":\(y)}
            """
        let (scene, log) = try playgroundRun(spec, trace)
        #expect(
            log
                == expected.map { entry in
                    let parts = entry.split(separator: " ")
                    let taps = parts[1] == "ended" ? 1 : 0
                    return
                        #"{"type":"gesture","t":0.05,"recognizer":"\#(parts[0])","kind":"tap","state":"\#(parts[1])","x":\#(x),"y":\#(y),"touches":1,"taps":\#(taps)}"#
                })
        #expect(scene.view(named: "inner")?.superview === scene.view(named: "card"))
        #expect(scene.subviews.map(\.name) == ["card", "inner"])
    }
}
