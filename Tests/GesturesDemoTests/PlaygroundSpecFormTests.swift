import GestureKit
import GestureTestSupport
import GesturesDemo
import Testing

/// The spec's object form (views), delegate conditions, `reportIn` and cycle checks: what they
/// parse into, and every kind of mistake with its exact message.
@Suite struct PlaygroundSpecFormTests {
    @Test func parsesViewsHooksAndReportIn() throws {
        let spec = try PlaygroundSpec.parse(
            """
            {"views":[{"name":"card","frame":[100,100,400,300]},
                      {"name":"badge","parent":"card","frame":[10,10,50,50],"transform":[0,1,-1,0,0,0],
                       "userInteraction":false}],
             "recognizers":[
              {"name":"double","kind":"tap","numberOfTapsRequired":2,"view":"card"},
              {"name":"single","kind":"tap","view":"card","shouldRequireFailureOf":["double"]},
              {"name":"pan","kind":"pan","view":"card","reportIn":"view","shouldBegin":{"minTouches":2,"inRect":[0,0,9,9]},
               "shouldBeRequiredToFailBy":["single"]},
              {"name":"edge","kind":"screenEdgePan","edges":["left"],"shouldReceive":{"touchIds":[1,2]},"shouldBegin":false}]}
            """, file: "s.json")
        #expect(
            spec.views == [
                ViewSpec(
                    name: "card", line: 1, frame: Rect(x: 100, y: 100, width: 400, height: 300), transform: nil,
                    parent: "root", userInteraction: true),
                ViewSpec(
                    name: "badge", line: 2, frame: Rect(x: 10, y: 10, width: 50, height: 50),
                    transform: AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0), parent: "card",
                    userInteraction: false),
            ])
        let r = spec.recognizers
        #expect(r.map(\.name) == ["double", "single", "pan", "edge"])
        #expect(r.map(\.view) == ["card", "card", "card", nil])
        #expect(r[1].shouldRequireFailureOf == ["double"] && r[2].shouldBeRequiredToFailBy == ["single"])
        #expect(r[2].shouldBegin == .all([.minTouches(2), .inRect(Rect(x: 0, y: 0, width: 9, height: 9))]))
        #expect(r[2].reportIn == .view && r[3].reportIn == .window)
        #expect(r[3].shouldReceive == .all([.touchIDs([1, 2])]) && r[3].shouldBegin == .always(false))
        #expect(r[0].shouldBegin == nil && r[0].shouldReceive == nil)
    }

    /// Every mistake in the new forms, with the exact message (spec file and line).
    @Test(arguments: [
        (
            #"{"views":[],"recognizers":[],"extra":1}"#,
            #"s.json:1: unknown key "extra" in the spec object (expected views, recognizers)"#
        ),
        (#"{"views":[]}"#, #"s.json:1: expected a "recognizers" array in the spec object"#),
        (
            #"{"recognizers":{}}"#,
            #"s.json:1: expected "recognizers" to be an array of recognizer objects, got an object"#
        ),
        (
            #"{"views":{},"recognizers":[]}"#,
            #"s.json:1: expected "views" to be an array of view objects, got an object"#
        ),
        ("{\"views\":[\n3],\"recognizers\":[]}", "s.json:2: expected a view object, got 3"),
        (#"{"views":[{"frame":[0,0,1,1]}],"recognizers":[]}"#, #"s.json:1: expected a "name" in the view object"#),
        (
            #"{"views":[{"name":"a"}],"recognizers":[]}"#,
            #"s.json:1: expected a "frame" [x, y, width, height] in the view object"#
        ),
        (
            #"{"views":[{"name":"root","frame":[0,0,1,1]}],"recognizers":[]}"#,
            #"s.json:1: expected a view name other than "root" (the full-viewport root view)"#
        ),
        (
            "{\"views\":[{\"name\":\"a\",\"frame\":[0,0,1,1]},\n{\"name\":\"a\",\"frame\":[0,0,2,2]}],\"recognizers\":[]}",
            #"s.json:2: duplicate view name "a" (first used on line 1)"#
        ),
        (
            "{\"views\":[{\"name\":\"a\",\"frame\":[0,0,1,1],\"parent\":\"b\"},\n{\"name\":\"b\",\"frame\":[0,0,1,1]}],\"recognizers\":[]}",
            #"s.json:1: "parent" names "b", which is not a view listed before this one (known: root)"#
        ),
        (
            #"{"views":[{"name":"a","frame":[0,0,1,1],"userInteraction":"no"}],"recognizers":[]}"#,
            #"s.json:1: expected "userInteraction" to be true or false, got "no""#
        ),
        (
            #"{"views":[{"name":"a","frame":[0,0,1,1],"hidden":true}],"recognizers":[]}"#,
            #"s.json:1: unknown key "hidden" for a view (expected one of name, frame, transform, parent, userInteraction)"#
        ),
        (
            #"{"views":[{"name":"a","frame":[0,0,1,1],"transform":[0,0,0,0,1,1]}],"recognizers":[]}"#,
            #"s.json:1: expected "transform" to be invertible (a·d − b·c ≠ 0)"#
        ),
        (
            "{\"views\":[{\"name\":\"card\",\"frame\":[0,0,1,1]}],\n\"recognizers\":[{\"kind\":\"tap\",\"view\":\"crad\"}]}",
            #"s.json:2: "view" names "crad", which is not a view of this spec (known: root, card)"#
        ),
        (#"[{"kind":"tap","view":1}]"#, #"s.json:1: expected "view" to be a view's name, got 1"#),
        (
            #"[{"kind":"tap","view":"root","frame":[0,0,1,1]}]"#,
            #"s.json:1: expected "view" or "frame" (and "transform"), not both: a named view has its own frame"#
        ),
        (
            #"[{"kind":"pan","shouldBegin":"yes"}]"#,
            #"s.json:1: expected "shouldBegin" to be true, false or a non-empty object of minTouches, maxTouches or inRect, got "yes""#
        ),
        (
            #"[{"kind":"pan","shouldBegin":{}}]"#,
            #"s.json:1: expected "shouldBegin" to be true, false or a non-empty object of minTouches, maxTouches or inRect, got an object"#
        ),
        (
            "[{\"kind\":\"pan\",\"shouldBegin\":{\n\"touchIds\":[1]}}]",
            #"s.json:2: unknown key "touchIds" in "shouldBegin" (expected "shouldBegin" to be true, false or a non-empty object of minTouches, maxTouches or inRect)"#
        ),
        (
            #"[{"kind":"pan","shouldBegin":{"minTouches":0}}]"#,
            #"s.json:1: expected "minTouches" to be a whole number ≥ 1, got 0"#
        ),
        (
            #"[{"kind":"tap","shouldReceive":{"inRect":[1,2]}}]"#,
            #"s.json:1: expected "inRect" to be [x, y, width, height] (width and height ≥ 0), got an array"#
        ),
        (
            #"[{"kind":"tap","shouldReceive":{"touchIds":[1.5]}}]"#,
            #"s.json:1: expected "touchIds" to be a non-empty array of integers, got 1.5"#
        ),
        (
            #"[{"kind":"tap","shouldReceive":{"maxTouches":1}}]"#,
            #"s.json:1: unknown key "maxTouches" in "shouldReceive" (expected "shouldReceive" to be true, false or a non-empty object of inRect or touchIds)"#
        ),
        (
            #"[{"kind":"tap","shouldRequireFailureOf":"x"}]"#,
            #"s.json:1: expected "shouldRequireFailureOf" to be an array of recognizer names, got "x""#
        ),
        (
            #"[{"kind":"tap","name":"a","shouldBeRequiredToFailBy":["z"]}]"#,
            #"s.json:1: "shouldBeRequiredToFailBy" names "z", which is not a recognizer of this spec (known: a)"#
        ),
        (
            #"[{"kind":"tap","name":"a","shouldRequireFailureOf":["a"]}]"#,
            #"s.json:1: "shouldRequireFailureOf" names "a", the recognizer itself"#
        ),
        (
            #"[{"kind":"tap","reportIn":"view"}]"#,
            #"s.json:1: unknown key "reportIn" for a tap recognizer (expected one of name, kind, view, frame, transform, requireToFail, simultaneousWith, shouldBegin, shouldReceive, shouldRequireFailureOf, shouldBeRequiredToFailBy, isEnabled, cancelsTouchesInView, numberOfTapsRequired, numberOfTouchesRequired)"#
        ),
        (
            #"[{"kind":"pan","edges":["left"]}]"#,
            #"s.json:1: unknown key "edges" for a pan recognizer (expected one of name, kind, view, frame, transform, requireToFail, simultaneousWith, shouldBegin, shouldReceive, shouldRequireFailureOf, shouldBeRequiredToFailBy, isEnabled, cancelsTouchesInView, minimumNumberOfTouches, maximumNumberOfTouches, allowedScrollTypesMask, reportIn)"#
        ),
        (
            #"[{"kind":"screenEdgePan","reportIn":"screen"}]"#,
            #"s.json:1: expected "reportIn" to be one of window, view, superview, got "screen""#
        ),
    ])
    func badSpecs(text: String, message: String) {
        #expect(throws: SpecError(file: "s.json", line: lineOf(message), message: messageOf(message))) {
            try PlaygroundSpec.parse(text, file: "s.json")
        }
    }

    /// A cycle of failure requirements (a → b: a waits for b to fail), however written, is
    /// refused at the reference that closes it, with the cycle spelled out.
    @Test(arguments: [
        (
            "[{\"name\":\"a\",\"kind\":\"tap\",\"requireToFail\":[\"b\"]},\n{\"name\":\"b\",\"kind\":\"tap\",\"requireToFail\":[\"a\"]}]",
            #"s.json:2: "requireToFail" names "a", which closes a cycle of failure requirements: a → b → a"#
        ),
        (
            """
            [{"name":"a","kind":"tap","shouldRequireFailureOf":["b"],
              "shouldBeRequiredToFailBy":["c"]},
             {"name":"b","kind":"tap","requireToFail":["c"]},
             {"name":"c","kind":"tap"}]
            """,
            #"s.json:2: "shouldBeRequiredToFailBy" names "c", which closes a cycle of failure requirements: a → b → c → a"#
        ),
        (
            "[{\"name\":\"a\",\"kind\":\"tap\",\"shouldBeRequiredToFailBy\":[\"b\"],\n\"requireToFail\":[\"b\"]},{\"name\":\"b\",\"kind\":\"pan\"}]",
            #"s.json:1: "shouldBeRequiredToFailBy" names "b", which closes a cycle of failure requirements: a → b → a"#
        ),
        (
            // The cycle need not reach the first recognizer.
            "[{\"name\":\"x\",\"kind\":\"tap\",\"requireToFail\":[\"b\"]},\n{\"name\":\"b\",\"kind\":\"tap\",\"requireToFail\":[\"c\"]},\n{\"name\":\"c\",\"kind\":\"tap\",\"shouldRequireFailureOf\":[\"b\"]}]",
            #"s.json:3: "shouldRequireFailureOf" names "b", which closes a cycle of failure requirements: b → c → b"#
        ),
    ])
    func cyclesAreRefused(text: String, message: String) {
        #expect(throws: SpecError(file: "s.json", line: lineOf(message), message: messageOf(message))) {
            try PlaygroundSpec.parse(text, file: "s.json")
        }
    }

    /// Chains and diamonds of requirements are not cycles.
    @Test func chainsAndDiamondsAreFine() throws {
        let spec = try PlaygroundSpec.parse(
            """
            [{"name":"a","kind":"tap","requireToFail":["b","c"]},
             {"name":"b","kind":"tap","requireToFail":["d"]},
             {"name":"c","kind":"tap","shouldRequireFailureOf":["d"]},
             {"name":"d","kind":"tap","shouldBeRequiredToFailBy":["a"]}]
            """, file: "s.json")
        #expect(spec.recognizers.count == 4)
    }
}

/// The line and the message of a `s.json:N: message` error line.
private func lineOf(_ text: String) -> Int { Int(text.split(separator: ":")[1])! }
private func messageOf(_ text: String) -> String {
    String(text.split(separator: ":", maxSplits: 2)[2].dropFirst())
}
