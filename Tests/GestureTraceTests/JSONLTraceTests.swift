import GestureKit
import GestureTestSupport
import GestureTrace
import Testing

private func parse(_ text: String, size: Size? = nil) throws -> Trace {
    try TraceReader.parse(text: text, file: "t.jsonl", size: size, deviceText: nil)
}

@Suite("JSON Lines traces")
struct JSONLTraceTests {
    @Test func designExampleParsesIntoFramesAndEvents() throws {
        let text = """
            {"type":"viewport","width":1024,"height":768}
            {"type":"down","t":0.000,"id":1,"x":100.0,"y":200.0}
            {"type":"move","t":0.016,"id":1,"x":104.5,"y":200.0}
            {"type":"down","t":0.016,"id":2,"x":300,"y":250}

            {"type":"up","t":0.100,"id":1,"x":110.0,"y":200.0}
            {"type":"cancel","t":0.120,"id":2}
            {"type":"shake","t":1.5}
            {"type":"pinch","t":2.0,"phase":"begin","x":400,"y":300,"scale":1.2,"angle":5.0}
            {"type":"pinch","t":2.1,"phase":"update","x":401,"y":300,"angle":-2}
            {"type":"pinch","t":2.2,"phase":"end"}
            {"type":"wait","t":3.0}
            """
        let trace = try parse(text)
        #expect(trace.viewport == Size(width: 1024, height: 768))
        #expect(trace.viewportFromTrace)
        #expect(
            trace.events == [
                frame(0, Finger.down(1, 100, 200)),
                frame(0.016, Finger.move(1, 104.5, 200), Finger.down(2, 300, 250)),
                frame(0.1, Finger.up(1, 110, 200)),
                // A cancel without x/y keeps the touch's last position.
                .touches(
                    TouchFrame(
                        timestamp: 0.12,
                        changes: [Finger.cancel(2, 300, 250)])),
                .shake(timestamp: 1.5),
                .touchpadPinch(
                    TouchpadPinch(
                        timestamp: 2, phase: .begin, location: Point(x: 400, y: 300), scale: 1.2, angleDelta: 5)),
                // scale defaults to the previous event's, angle (a delta) to 0.
                .touchpadPinch(
                    TouchpadPinch(
                        timestamp: 2.1, phase: .update, location: Point(x: 401, y: 300), scale: 1.2, angleDelta: -2)),
                .touchpadPinch(
                    TouchpadPinch(
                        timestamp: 2.2, phase: .end, location: Point(x: 401, y: 300), scale: 1.2, angleDelta: 0)),
                .wait(timestamp: 3),
            ])
    }

    @Test("Scroll lines: wheel clicks (discrete, the default), smooth scroll, Ctrl+wheel zoom; written back the same")
    func scrollLines() throws {
        let text = """
            {"type":"scroll","t":0,"x":500,"y":600,"dy":-40}
            {"type":"scroll","t":0.5,"x":500,"y":600,"dx":3.5,"dy":-7.25,"scrollType":"continuous"}
            {"type":"scroll","t":1,"x":10,"y":20,"dy":40,"zoom":true}
            """
        let events = try parse(text).events
        let expected: [ScrollInput] = [
            ScrollInput(timestamp: 0, location: Point(x: 500, y: 600), delta: Vector(dx: 0, dy: -40), type: .discrete),
            ScrollInput(
                timestamp: 0.5, location: Point(x: 500, y: 600), delta: Vector(dx: 3.5, dy: -7.25), type: .continuous),
            ScrollInput(
                timestamp: 1, location: Point(x: 10, y: 20), delta: Vector(dx: 0, dy: 40), type: .discrete, zoom: true),
        ]
        #expect(events == expected.map { .scroll($0) })
        let written = expected.map(scrollTraceLine)
        #expect(
            written[1]
                == #"{"type":"scroll","t":0.5,"x":500.0,"y":600.0,"dx":3.5,"dy":-7.25,"scrollType":"continuous","zoom":false}"#
        )
        #expect(try parse(written.joined(separator: "\n")).events == events)
    }

    @Test func equalTimesFormOneFrameUntilAnotherEventIntervenes() throws {
        let text = """
            {"type":"down","t":1,"id":1,"x":1,"y":1}
            {"type":"down","t":1,"id":2,"x":2,"y":2}
            {"type":"down","t":1,"id":3,"x":3,"y":3}
            {"type":"shake","t":1}
            {"type":"move","t":1,"id":1,"x":5,"y":5}
            {"type":"up","t":1,"id":2,"x":2,"y":2}
            {"type":"up","t":1.5,"id":1,"x":5,"y":5}
            """
        let trace = try parse(text)
        #expect(
            trace.events == [
                frame(1, Finger.down(1, 1, 1), Finger.down(2, 2, 2), Finger.down(3, 3, 3)),
                .shake(timestamp: 1),
                frame(1, Finger.move(1, 5, 5), Finger.up(2, 2, 2)),
                frame(1.5, Finger.up(1, 5, 5)),
            ])
        #expect(trace.frames.count == 3)
    }

    @Test func viewportPrecedence() throws {
        let withLine = "{\"type\":\"viewport\",\"width\":800,\"height\":600}\n"
        #expect(try parse(withLine).viewport == Size(width: 800, height: 600))
        let sized = try parse(withLine, size: Size(width: 320, height: 240))
        #expect(sized.viewport == Size(width: 320, height: 240))
        #expect(!sized.viewportFromTrace)
        let bare = try parse("{\"type\":\"wait\",\"t\":1}")
        #expect(bare.viewport == Size(width: 1024, height: 768))
        #expect(!bare.viewportFromTrace)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try parse("\u{FEFF}{\"type\":\"shake\",\"t\":1}\n").events == [.shake(timestamp: 1)])
    }

    @Test func emptyAndBlankTracesAreEmpty() throws {
        #expect(try parse("").events.isEmpty)
        #expect(try parse("\n  \n\t\n").events.isEmpty)
    }

    @Test func crlfLineEndingsAndPinchDefaults() throws {
        let trace = try parse(
            "{\"type\":\"pinch\",\"t\":0,\"phase\":\"begin\",\"x\":1,\"y\":2}\r\n"
                + "{\"type\":\"pinch\",\"t\":0.5,\"phase\":\"cancel\"}\r\n")
        #expect(
            trace.events == [
                .touchpadPinch(TouchpadPinch(timestamp: 0, phase: .begin, location: Point(x: 1, y: 2))),
                .touchpadPinch(TouchpadPinch(timestamp: 0.5, phase: .cancel, location: Point(x: 1, y: 2))),
            ])
    }

    /// Every kind of malformed line, with the exact error (line numbers count blank lines).
    @Test(arguments: [
        (
            "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":2",
            "t.jsonl:1: invalid JSON at column 40: expected ',' or '}'"
        ),
        ("not json", "t.jsonl:1: expected a JSON object (a JSON Lines trace) or an evemu recording line"),
        ("{\"type\":\"wait\",\"t\":1}\nnot json", "t.jsonl:2: invalid JSON at column 1: expected a value"),
        ("[1,2]", "t.jsonl:1: expected a JSON object"),
        ("{\"type\":\"wait\",\"t\":1}\n\n42", "t.jsonl:3: expected a JSON object"),
        (
            "{\"type\":\"wait\",\"t\":1} x",
            "t.jsonl:1: invalid JSON at column 23: expected the end of the line after the JSON value"
        ),
        ("{\"type\":\"wait\",\"t\":01}", "t.jsonl:1: invalid JSON at column 20: leading zero in number"),
        (
            "{\"type\":\"wait\",\"type\":\"shake\",\"t\":1}",
            "t.jsonl:1: invalid JSON at column 16: duplicate key \"type\""
        ),
        ("{\"t\":1}", "t.jsonl:1: missing \"type\""),
        ("{\"type\":3,\"t\":1}", "t.jsonl:1: expected \"type\" to be a string"),
        (
            "{\"type\":\"tap\",\"t\":1}",
            "t.jsonl:1: unknown type \"tap\" (expected viewport, down, move, up, cancel, shake, pinch, scroll, wait or set)"
        ),
        ("{\"type\":\"wait\"}", "t.jsonl:1: missing \"t\""),
        ("{\"type\":\"wait\",\"t\":\"1\"}", "t.jsonl:1: expected \"t\" to be a number"),
        ("{\"type\":\"wait\",\"t\":null}", "t.jsonl:1: expected \"t\" to be a number"),
        ("{\"type\":\"wait\",\"t\":1e999}", "t.jsonl:1: expected \"t\" to be a finite number"),
        ("{\"type\":\"wait\",\"t\":-1}", "t.jsonl:1: expected \"t\" to be >= 0"),
        (
            "{\"type\":\"wait\",\"t\":2}\n{\"type\":\"shake\",\"t\":1.5}",
            "t.jsonl:2: expected \"t\" >= 2.0 (times never decrease), got 1.5"
        ),
        ("{\"type\":\"down\",\"t\":0,\"x\":1,\"y\":2}", "t.jsonl:1: missing \"id\""),
        ("{\"type\":\"down\",\"t\":0,\"id\":1.5,\"x\":1,\"y\":2}", "t.jsonl:1: expected \"id\" to be an integer"),
        ("{\"type\":\"down\",\"t\":0,\"id\":\"a\",\"x\":1,\"y\":2}", "t.jsonl:1: expected \"id\" to be an integer"),
        ("{\"type\":\"down\",\"t\":0,\"id\":1,\"y\":2}", "t.jsonl:1: missing \"x\""),
        ("{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":true}", "t.jsonl:1: expected \"y\" to be a number"),
        ("{\"type\":\"up\",\"t\":0,\"id\":1,\"x\":1}", "t.jsonl:1: missing \"y\""),
        ("{\"type\":\"cancel\",\"t\":0,\"id\":1,\"x\":1}", "t.jsonl:1: missing \"y\""),
        ("{\"type\":\"move\",\"t\":0,\"id\":7,\"x\":1,\"y\":2}", "t.jsonl:1: touch 7 is not down"),
        ("{\"type\":\"up\",\"t\":0,\"id\":7,\"x\":1,\"y\":2}", "t.jsonl:1: touch 7 is not down"),
        ("{\"type\":\"cancel\",\"t\":0,\"id\":7}", "t.jsonl:1: touch 7 is not down"),
        (
            "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":2}\n{\"type\":\"down\",\"t\":1,\"id\":1,\"x\":1,\"y\":2}",
            "t.jsonl:2: touch 1 is already down"
        ),
        (
            "{\"type\":\"down\",\"t\":0,\"id\":1,\"x\":1,\"y\":2,\"pressure\":1}",
            "t.jsonl:1: unexpected key \"pressure\" in a \"down\" line"
        ),
        ("{\"type\":\"shake\",\"t\":0,\"x\":1}", "t.jsonl:1: unexpected key \"x\" in a \"shake\" line"),
        ("{\"type\":\"pinch\",\"t\":0,\"x\":1,\"y\":1}", "t.jsonl:1: missing \"phase\""),
        (
            "{\"type\":\"pinch\",\"t\":0,\"phase\":\"start\",\"x\":1,\"y\":1}",
            "t.jsonl:1: expected \"phase\" to be one of begin, update, end, cancel"
        ),
        ("{\"type\":\"pinch\",\"t\":0,\"phase\":\"begin\",\"x\":1}", "t.jsonl:1: missing \"y\""),
        (
            "{\"type\":\"pinch\",\"t\":0,\"phase\":\"update\",\"x\":1,\"y\":1,\"scale\":0}",
            "t.jsonl:1: expected \"scale\" to be a positive number"
        ),
        (
            "{\"type\":\"pinch\",\"t\":0,\"phase\":\"begin\",\"x\":1,\"y\":1,\"angle\":\"5\"}",
            "t.jsonl:1: expected \"angle\" to be a number"
        ),
        (
            "{\"type\":\"wait\",\"t\":0}\n{\"type\":\"viewport\",\"width\":10,\"height\":10}",
            "t.jsonl:2: a viewport line is only allowed as the first line"
        ),
        ("{\"type\":\"viewport\",\"width\":0,\"height\":10}", "t.jsonl:1: expected \"width\" to be a positive number"),
        ("{\"type\":\"viewport\",\"width\":10}", "t.jsonl:1: missing \"height\""),
        (
            "{\"type\":\"viewport\",\"width\":10,\"height\":10,\"t\":0}",
            "t.jsonl:1: unexpected key \"t\" in a \"viewport\" line"
        ),
        ("{\"type\":\"wait\",\"t\":\"\\x\"}", "t.jsonl:1: invalid JSON at column 21: invalid escape in string"),
        ("{\"type\":\"scroll\",\"t\":0,\"x\":1,\"dy\":-40}", "t.jsonl:1: missing \"y\""),
        (
            "{\"type\":\"scroll\",\"t\":0,\"x\":1,\"y\":1,\"scrollType\":\"wheel\"}",
            "t.jsonl:1: expected \"scrollType\" to be discrete or continuous"
        ),
        (
            "{\"type\":\"scroll\",\"t\":0,\"x\":1,\"y\":1,\"zoom\":1}",
            "t.jsonl:1: expected \"zoom\" to be true or false"
        ),
        (
            "{\"type\":\"scroll\",\"t\":0,\"x\":1,\"y\":1,\"id\":1}",
            "t.jsonl:1: unexpected key \"id\" in a \"scroll\" line"
        ),
    ])
    func malformedLine(text: String, expected: String) {
        do {
            let trace = try parse(text)
            Issue.record("parsed without error: \(trace.events)")
        } catch let error as TraceError {
            #expect(error.description == expected)
        } catch {
            Issue.record("unexpected error type \(error)")
        }
    }

    @Test func errorCarriesFileLineAndMessage() {
        #expect(throws: TraceError(file: "t.jsonl", line: 2, message: "missing \"t\"")) {
            try parse("{\"type\":\"wait\",\"t\":0}\n{\"type\":\"wait\"}")
        }
        let e = TraceError(file: "x.trace", line: 0, message: "no such file")
        #expect(e.description == "x.trace: no such file")
    }
}
