import Foundation
import GestureKit
import GestureTestSupport
import GesturesDemo
import Testing

/// `gestures replay` with the spec's new forms and the trace's `set` lines, as a subprocess:
/// bad input is one line on stderr naming the file and the line, status 2, nothing on stdout.
@Suite(.enabled(if: CLI.available, "the gestures executable is built beside the tests"))
struct ReplaySpecCLITests {
    static let spec = """
        {"views":[{"name":"card","frame":[50,50,300,300]}],
         "recognizers":[{"name":"pan","kind":"pan","view":"card"},{"name":"tap","kind":"tap","view":"card"}]}
        """

    static func trace(_ set: String) -> String {
        """
        {"type":"down","t":0,"id":1,"x":100,"y":100}
        {"type":"move","t":0.05,"id":1,"x":120,"y":100}
        \(set)
        {"type":"up","t":0.15,"id":1,"x":120,"y":100}

        """
    }

    @Test func setLinesAndViewsReplay() throws {
        let spec = write("cli-views.json", Self.spec)
        let trace = write(
            "cli-set.jsonl", Self.trace(#"{"type":"set","t":0.1,"recognizer":"pan","isEnabled":false}"#))
        let r = try CLI.run(["replay", trace, "--recognizers", spec])
        #expect(r.status == 0 && r.stderr == "")
        // The pan's win fails the tap on the same touch; the set line cancels the pan at 0.1 s.
        #expect(
            r.lines == [
                #"{"type":"gesture","t":0.05,"recognizer":"pan","kind":"pan","state":"began","x":120.0,"y":100.0,"touches":1,"translation":[20.0,0.0],"velocity":[400.0,0.0]}"#,
                #"{"type":"gesture","t":0.05,"recognizer":"tap","kind":"tap","state":"failed","x":120.0,"y":100.0,"touches":1,"taps":0}"#,
                #"{"type":"gesture","t":0.1,"recognizer":"pan","kind":"pan","state":"cancelled","x":120.0,"y":100.0,"touches":1,"translation":[20.0,0.0],"velocity":[0.0,0.0]}"#,
            ])
    }

    /// Bad spec and bad set lines: the exact line (the spec's file and line for spec errors, the
    /// trace's for set lines), status 2, no output: nothing was replayed.
    @Test(arguments: [
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"pann","isEnabled":false}"#), "@spec",
            #"gestures: @trace:3: unknown recognizer "pann" (expected one of pan, tap)"#
        ),
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"pann","isEnabled":false}"#), nil,
            #"gestures: @trace:3: unknown recognizer "pann" (expected one of tap, swipeRight, swipeLeft, swipeUp, swipeDown, pinch, rotation, shake, imagePan, imagePinch, imageRotation, imageLongPress, edgePan, imageDoubleTap)"#
        ),
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"pan","velocity":[0,0]}"#), "@spec",
            #"gestures: @trace:3: unexpected key "velocity" in a "set" line (expected isEnabled, cancelsTouchesInView, translation, scale or rotation)"#
        ),
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"pan","isEnabled":"no"}"#), "@spec",
            #"gestures: @trace:3: expected "isEnabled" to be true or false"#
        ),
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"pan","translation":[1,2,3]}"#), "@spec",
            #"gestures: @trace:3: expected "translation" to be [dx, dy] (two finite numbers within ±1000000, window points)"#
        ),
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"pan","scale":2}"#), "@spec",
            #"gestures: @trace:3: expected a pinch recognizer for "scale", got "pan" (a pan)"#
        ),
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"tap","isEnabled":true,"translation":[0,0]}"#), nil,
            #"gestures: @trace:3: expected a pan or screenEdgePan recognizer for "translation", got "tap" (a tap)"#
        ),
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"imagePan","rotation":1}"#), nil,
            #"gestures: @trace:3: expected a rotation recognizer for "rotation", got "imagePan" (a pan)"#
        ),
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"pan","isEnabled":false}"#), "@cycle",
            #"gestures: @cycle:3: "shouldRequireFailureOf" names "a", which closes a cycle of failure requirements: a → b → c → a"#
        ),
        (
            Self.trace(#"{"type":"set","t":0.1,"recognizer":"pan","isEnabled":false}"#), "@badview",
            #"gestures: @badview:2: "view" names "crad", which is not a view of this spec (known: root, card)"#
        ),
    ])
    func badInput(trace: String, spec: String?, message: String) throws {
        let files = [
            "@trace": write("cli-bad-\(abs(trace.hashValue)).jsonl", trace),
            "@spec": write("cli-spec.json", Self.spec),
            "@cycle": write(
                "cli-cycle.json",
                """
                [{"name":"a","kind":"tap","requireToFail":["b"]},
                 {"name":"b","kind":"tap"},
                 {"name":"c","kind":"tap","shouldBeRequiredToFailBy":["b"],"shouldRequireFailureOf":["a"]}]
                """),
            "@badview": write(
                "cli-badview.json",
                """
                {"views":[{"name":"card","frame":[0,0,10,10]}],
                 "recognizers":[{"name":"pan","kind":"pan","view":"crad"}]}
                """),
        ]
        var arguments = ["replay", files["@trace"]!]
        if let spec { arguments += ["--recognizers", files[spec]!] }
        var expected = message
        for (k, v) in files { expected = expected.replacingOccurrences(of: k, with: v) }
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == expected + "\n")
    }

    /// `gestures run --replay` binds the trace's `set` lines to the demo's recognizers as the
    /// headless replay does: a bad one is status 2 before any window (here there is no display
    /// at all, which would be status 1).
    @Test func runReplayRefusesBadSetLines() throws {
        let trace = write(
            "cli-run-set.jsonl", Self.trace(#"{"type":"set","t":0.1,"recognizer":"pann","isEnabled":false}"#))
        let r = try CLI.run(["run", "--replay", trace], environment: ["DISPLAY": ":9999"])
        #expect(r.status == 2)
        #expect(
            r.stderr
                == "gestures: \(trace):3: unknown recognizer \"pann\" (expected one of tap, swipeRight, swipeLeft, "
                + "swipeUp, swipeDown, pinch, rotation, shake, imagePan, imagePinch, imageRotation, imageLongPress, "
                + "edgePan, imageDoubleTap)\n")
    }
}
