import GestureKit
import GestureTestSupport
import GestureTrace
import GesturesDemo
import Testing

/// A trace's `set` lines: the app setting a recognizer's properties at a time, in order with
/// the touch lines; whole logs worked out from docs/DESIGN.md §3.
@Suite @MainActor struct SetLineTests {
    static let pan = #"[{"name":"pan","kind":"pan"}]"#

    nonisolated static func panLine(_ t: String, _ state: String, _ x: Int, _ y: Int, _ tr: String, _ v: String)
        -> String
    {
        #"{"type":"gesture","t":\#(t),"recognizer":"pan","kind":"pan","state":"\#(state)","x":\#(x).0,"y":\#(y).0,"touches":1,"translation":\#(tr),"velocity":\#(v)}"#
    }

    /// `isEnabled = false` cancels the active pan at once (logged at the set line's time, with
    /// its values then); the finger's later moves and lift reach nobody. Enabled again, the pan
    /// takes the next touch as usual.
    @Test func disablingCancelsAnActivePan() throws {
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"move","t":0.05,"id":1,"x":120,"y":100}
            {"type":"move","t":0.1,"id":1,"x":140,"y":100}
            {"type":"set","t":0.12,"recognizer":"pan","isEnabled":false}
            {"type":"move","t":0.15,"id":1,"x":160,"y":100}
            {"type":"up","t":0.2,"id":1,"x":160,"y":100}
            {"type":"set","t":0.3,"recognizer":"pan","isEnabled":true}
            {"type":"down","t":0.5,"id":2,"x":100,"y":300}
            {"type":"move","t":0.55,"id":2,"x":100,"y":320}
            {"type":"up","t":0.6,"id":2,"x":100,"y":320}
            """
        #expect(
            try playgroundLog(Self.pan, trace) == [
                Self.panLine("0.05", "began", 120, 100, "[20.0,0.0]", "[400.0,0.0]"),
                Self.panLine("0.1", "changed", 140, 100, "[40.0,0.0]", "[400.0,0.0]"),
                // 20 ms after the last move the fit still holds: 400 pt/s.
                Self.panLine("0.12", "cancelled", 140, 100, "[40.0,0.0]", "[400.0,0.0]"),
                Self.panLine("0.55", "began", 100, 320, "[0.0,20.0]", "[0.0,400.0]"),
                Self.panLine("0.6", "ended", 100, 320, "[0.0,20.0]", "[0.0,0.0]"),
            ])
    }

    /// Disabling a pan that has not begun drops it silently (no line), as UIKit does.
    @Test func disablingAPossiblePanDropsItSilently() throws {
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"set","t":0.02,"recognizer":"pan","isEnabled":false}
            {"type":"move","t":0.05,"id":1,"x":120,"y":100}
            {"type":"up","t":0.1,"id":1,"x":120,"y":100}
            """
        #expect(try playgroundLog(Self.pan, trace) == [])
    }

    /// Equal times keep the file's order: a set line after a move at the same t acts after it
    /// (the move is logged, then the cancel), one before it acts first (the move reaches nobody,
    /// and the cancel reports the 0.05 s values, with no velocity: that sample is 50 ms old).
    @Test(arguments: [
        (
            true,
            [
                panLine("0.05", "began", 120, 100, "[20.0,0.0]", "[400.0,0.0]"),
                panLine("0.1", "changed", 140, 100, "[40.0,0.0]", "[400.0,0.0]"),
                panLine("0.1", "cancelled", 140, 100, "[40.0,0.0]", "[400.0,0.0]"),
            ]
        ),
        (
            false,
            [
                panLine("0.05", "began", 120, 100, "[20.0,0.0]", "[400.0,0.0]"),
                panLine("0.1", "cancelled", 120, 100, "[20.0,0.0]", "[0.0,0.0]"),
            ]
        ),
    ])
    func equalTimesKeepTheFileOrder(setAfterTheMove: Bool, expected: [String]) throws {
        let move = #"{"type":"move","t":0.1,"id":1,"x":140,"y":100}"#
        let set = #"{"type":"set","t":0.1,"recognizer":"pan","isEnabled":false}"#
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"move","t":0.05,"id":1,"x":120,"y":100}
            \(setAfterTheMove ? move : set)
            \(setAfterTheMove ? set : move)
            {"type":"up","t":0.2,"id":1,"x":140,"y":100}
            """
        #expect(try playgroundLog(Self.pan, trace) == expected)
    }

    /// `setTranslation(_:in: nil)` mid-pan re-bases the translation on the value given and zeroes
    /// the velocity: the next move reads from the new base with no velocity (one sample), the
    /// one after fits again.
    @Test(arguments: [
        ("[0,0]", "[10.0,10.0]", "[20.0,20.0]"),
        ("[5,-5]", "[15.0,5.0]", "[25.0,15.0]"),
    ])
    func setTranslationRebasesAndZeroesTheVelocity(value: String, first: String, second: String) throws {
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"move","t":0.05,"id":1,"x":120,"y":100}
            {"type":"move","t":0.1,"id":1,"x":140,"y":100}
            {"type":"set","t":0.1,"recognizer":"pan","translation":\(value)}
            {"type":"move","t":0.15,"id":1,"x":150,"y":110}
            {"type":"move","t":0.2,"id":1,"x":160,"y":120}
            {"type":"up","t":0.25,"id":1,"x":160,"y":120}
            """
        #expect(
            try playgroundLog(Self.pan, trace) == [
                Self.panLine("0.05", "began", 120, 100, "[20.0,0.0]", "[400.0,0.0]"),
                Self.panLine("0.1", "changed", 140, 100, "[40.0,0.0]", "[400.0,0.0]"),
                Self.panLine("0.15", "changed", 150, 110, first, "[0.0,0.0]"),
                Self.panLine("0.2", "changed", 160, 120, second, "[200.0,200.0]"),
                Self.panLine("0.25", "ended", 160, 120, second, "[0.0,0.0]"),
            ])
    }

    /// Setting `scale` mid-pinch: the pair (100 pt apart at touch-down) is 120 pt apart when it is
    /// set; from then on scale = value × distance / 120, and the velocity starts afresh.
    @Test(arguments: [
        (1.0, "1.166667", "1.333333", "3.333333"),
        (2.0, "2.333333", "2.666667", "6.666667"),
    ])
    func setScaleRebasesAPinch(value: Double, first: String, second: String, velocity: String) throws {
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":200}
            {"type":"down","t":0,"id":2,"x":200,"y":200}
            {"type":"move","t":0.05,"id":1,"x":90,"y":200}
            {"type":"move","t":0.05,"id":2,"x":210,"y":200}
            {"type":"set","t":0.06,"recognizer":"pinch","scale":\(value)}
            {"type":"move","t":0.1,"id":1,"x":80,"y":200}
            {"type":"move","t":0.1,"id":2,"x":220,"y":200}
            {"type":"move","t":0.15,"id":1,"x":70,"y":200}
            {"type":"move","t":0.15,"id":2,"x":230,"y":200}
            {"type":"up","t":0.17,"id":1,"x":70,"y":200}
            {"type":"up","t":0.17,"id":2,"x":230,"y":200}
            """
        func line(_ t: String, _ state: String, _ scale: String, _ v: String) -> String {
            #"{"type":"gesture","t":\#(t),"recognizer":"pinch","kind":"pinch","state":"\#(state)","x":150.0,"y":200.0,"touches":2,"scale":\#(scale),"velocity":\#(v)}"#
        }
        #expect(
            try playgroundLog(#"[{"name":"pinch","kind":"pinch"}]"#, trace) == [
                line("0.05", "began", "1.2", "4.0"),
                line("0.1", "changed", first, "0.0"),
                line("0.15", "changed", second, velocity),
                line("0.17", "ended", second, velocity),
            ])
    }

    /// Setting `rotation` mid-rotation: the line first → second finger turns a quarter turn
    /// clockwise per step of 50 ms (π/4 each); after the set the rotation counts on from the value.
    @Test(arguments: [
        (1.0, "1.785398", "2.570796"),
        (0.0, "0.785398", "1.570796"),
        (-0.5, "0.285398", "1.070796"),
    ])
    func setRotationRebasesARotation(value: Double, first: String, second: String) throws {
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":200}
            {"type":"down","t":0,"id":2,"x":200,"y":200}
            {"type":"move","t":0.05,"id":2,"x":200,"y":300}
            {"type":"set","t":0.06,"recognizer":"rotation","rotation":\(value)}
            {"type":"move","t":0.1,"id":2,"x":100,"y":300}
            {"type":"move","t":0.15,"id":2,"x":0,"y":300}
            {"type":"up","t":0.17,"id":1,"x":100,"y":200}
            {"type":"up","t":0.17,"id":2,"x":0,"y":300}
            """
        func line(_ t: String, _ state: String, _ x: Int, _ rotation: String, _ v: String) -> String {
            #"{"type":"gesture","t":\#(t),"recognizer":"rotation","kind":"rotation","state":"\#(state)","x":\#(x).0,"y":250.0,"touches":2,"rotation":\#(rotation),"velocity":\#(v)}"#
        }
        #expect(
            try playgroundLog(#"[{"name":"rotation","kind":"rotation"}]"#, trace) == [
                line("0.05", "began", 150, "0.785398", "15.707963"),
                line("0.1", "changed", 100, first, "0.0"),
                line("0.15", "changed", 50, second, "15.707963"),
                line("0.17", "ended", 50, second, "15.707963"),
            ])
    }

    /// A recognizer waiting on another's failure goes on as if it had failed when that one is
    /// disabled (the disabled one, possible, leaves silently): the single tap is recognized at
    /// the set line's time instead of at the end of the double tap's 0.3 s gap (0.4 s).
    @Test func disablingARequirementReleasesTheWaitingRecognizer() throws {
        let spec = """
            [{"name":"double","kind":"tap","numberOfTapsRequired":2},
             {"name":"single","kind":"tap","requireToFail":["double"]}]
            """
        let trace = """
            {"type":"down","t":0,"id":1,"x":100,"y":100}
            {"type":"up","t":0.1,"id":1,"x":100,"y":100}
            {"type":"set","t":0.2,"recognizer":"double","isEnabled":false}
            """
        #expect(
            try playgroundLog(spec, trace) == [
                #"{"type":"gesture","t":0.2,"recognizer":"single","kind":"tap","state":"ended","x":100.0,"y":100.0,"touches":1,"taps":1}"#
            ])
    }

    /// `cancelsTouchesInView` is set at its time (the log shows no raw touches: checked on the
    /// recognizer, before and after).
    @Test func setCancelsTouchesInView() throws {
        let trace = #"{"type":"set","t":0.5,"recognizer":"pan","cancelsTouchesInView":false,"isEnabled":true}"#
        let (scene, log) = try playgroundRun(Self.pan, trace)
        #expect(log == [] && scene.recognizers[0].cancelsTouchesInView == false && scene.recognizers[0].isEnabled)
    }

    /// In the demo scene the set lines name the demo's recognizers: the tap region's tap,
    /// disabled, lets a tap pass unrecognized (only the root's edge pan logs its failure);
    /// enabled again it says "Tapped".
    @Test func demoSceneRecognizersByName() throws {
        let text = """
            {"type":"set","t":0,"recognizer":"tap","isEnabled":false}
            {"type":"down","t":0.5,"id":1,"x":270,"y":160}
            {"type":"up","t":0.58,"id":1,"x":270,"y":160}
            {"type":"set","t":1,"recognizer":"tap","isEnabled":true}
            {"type":"down","t":1.5,"id":2,"x":270,"y":160}
            {"type":"up","t":1.58,"id":2,"x":270,"y":160}
            """
        let trace = try TraceReader.parse(text: text, file: "t.jsonl", size: nil, deviceText: nil)
        let scene = DemoScene(size: trace.viewport)
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        try replay(trace, through: scene)
        func edgeFailed(_ t: String) -> String {
            #"{"type":"gesture","t":\#(t),"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":270.0,"y":160.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#
        }
        #expect(
            log == [
                layout1024.line,
                edgeFailed("0.5"),
                edgeFailed("1.5"),
                #"{"type":"gesture","t":1.58,"recognizer":"tap","kind":"tap","state":"ended","x":270.0,"y":160.0,"touches":1,"taps":1,"label":"Tapped"}"#,
                #"{"type":"final","label":"Tapped","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }
}
