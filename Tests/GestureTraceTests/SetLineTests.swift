import GestureKit
import GestureTestSupport
import GestureTrace
import Testing

private func parse(_ text: String) throws -> Trace {
    try TraceReader.parse(text: text, file: "t.jsonl", size: nil, deviceText: nil)
}

/// The trace's `set` lines (docs/DESIGN.md §4.1): actions placed among the input events.
@Suite("set lines")
struct TraceSetLineTests {
    @Test func setLinesBecomeActionsPlacedAmongTheEvents() throws {
        let text = """
            {"type":"set","t":0,"recognizer":"pan","isEnabled":false}
            {"type":"down","t":0,"id":1,"x":1,"y":1}
            {"type":"down","t":0,"id":2,"x":2,"y":2}
            {"type":"move","t":0.1,"id":1,"x":3,"y":1}
            {"type":"set","t":0.1,"recognizer":"pan","translation":[1.5,-2],"isEnabled":true}
            {"type":"move","t":0.1,"id":2,"x":4,"y":2}

            {"type":"set","t":0.2,"recognizer":"pinch","scale":1.25}
            {"type":"set","t":0.2,"recognizer":"rotation","rotation":-0.5,"cancelsTouchesInView":false}
            """
        let trace = try parse(text)
        // The set line splits the frame of t = 0.1 in two: the move before it, the move after it.
        #expect(
            trace.events == [
                frame(0, Finger.down(1, 1, 1), Finger.down(2, 2, 2)),
                frame(0.1, Finger.move(1, 3, 1)),
                frame(0.1, Finger.move(2, 4, 2)),
            ])
        #expect(
            trace.actions == [
                TraceAction(
                    timestamp: 0, recognizer: "pan", settings: [.isEnabled(false)], position: 0, file: "t.jsonl",
                    line: 1),
                TraceAction(
                    timestamp: 0.1, recognizer: "pan",
                    settings: [.translation(Vector(dx: 1.5, dy: -2)), .isEnabled(true)],
                    position: 2, file: "t.jsonl", line: 5),
                TraceAction(
                    timestamp: 0.2, recognizer: "pinch", settings: [.scale(1.25)], position: 3, file: "t.jsonl", line: 8
                ),
                TraceAction(
                    timestamp: 0.2, recognizer: "rotation", settings: [.rotation(-0.5), .cancelsTouchesInView(false)],
                    position: 3, file: "t.jsonl", line: 9),
            ])
        #expect(trace.actions[1].error("x").description == "t.jsonl:5: x")
    }

    @Test func setLinesKeepTimesInOrder() {
        #expect(
            throws: TraceError(
                file: "t.jsonl", line: 2, message: "expected \"t\" >= 1.0 (times never decrease), got 0.5")
        ) {
            try parse(
                "{\"type\":\"wait\",\"t\":1}\n{\"type\":\"set\",\"t\":0.5,\"recognizer\":\"pan\",\"isEnabled\":false}")
        }
    }

    /// Every kind of malformed set line, with the exact error.
    @Test(arguments: [
        (#"{"type":"set","t":0,"isEnabled":false}"#, #"t.jsonl:1: missing "recognizer""#),
        (
            #"{"type":"set","t":0,"recognizer":3,"isEnabled":false}"#,
            #"t.jsonl:1: expected "recognizer" to be a recognizer's name (a non-empty string)"#
        ),
        (
            #"{"type":"set","t":0,"recognizer":"","isEnabled":false}"#,
            #"t.jsonl:1: expected "recognizer" to be a recognizer's name (a non-empty string)"#
        ),
        (#"{"type":"set","recognizer":"pan","isEnabled":false}"#, #"t.jsonl:1: missing "t""#),
        (
            #"{"type":"set","t":0,"recognizer":"pan"}"#,
            #"t.jsonl:1: expected a property to set (isEnabled, cancelsTouchesInView, translation, scale or rotation) in a "set" line"#
        ),
        (
            #"{"type":"set","t":0,"recognizer":"pan","velocity":[0,0]}"#,
            #"t.jsonl:1: unexpected key "velocity" in a "set" line (expected isEnabled, cancelsTouchesInView, translation, scale or rotation)"#
        ),
        (
            #"{"type":"set","t":0,"recognizer":"pan","isEnabled":"no"}"#,
            #"t.jsonl:1: expected "isEnabled" to be true or false"#
        ),
        (
            #"{"type":"set","t":0,"recognizer":"pan","cancelsTouchesInView":0}"#,
            #"t.jsonl:1: expected "cancelsTouchesInView" to be true or false"#
        ),
        (
            #"{"type":"set","t":0,"recognizer":"pan","translation":[1]}"#,
            #"t.jsonl:1: expected "translation" to be [dx, dy] (two finite numbers within ±1000000, window points)"#
        ),
        (
            #"{"type":"set","t":0,"recognizer":"pan","translation":{"dx":1,"dy":2}}"#,
            #"t.jsonl:1: expected "translation" to be [dx, dy] (two finite numbers within ±1000000, window points)"#
        ),
        (
            #"{"type":"set","t":0,"recognizer":"pan","translation":[1,1e999]}"#,
            #"t.jsonl:1: expected "translation" to be [dx, dy] (two finite numbers within ±1000000, window points)"#
        ),
        (#"{"type":"set","t":0,"recognizer":"pinch","scale":"2"}"#, #"t.jsonl:1: expected "scale" to be a number"#),
        (
            #"{"type":"set","t":0,"recognizer":"rotation","rotation":-1e999}"#,
            #"t.jsonl:1: expected "rotation" to be a finite number"#
        ),
    ])
    func malformedSetLine(text: String, expected: String) {
        do {
            let trace = try parse(text)
            Issue.record("parsed without error: \(trace.actions)")
        } catch let error as TraceError {
            #expect(error.description == expected)
        } catch {
            Issue.record("unexpected error type \(error)")
        }
    }
}
