import GestureKit
import GestureTestSupport
import GestureTrace
import Testing

@Suite("event log")
@MainActor
struct EventLogTests {
    @Test(arguments: [
        (250.0, "250.0"),
        (1.734, "1.734"),
        (0.0, "0.0"),
        (-0.0, "0.0"),
        (-0.0000004, "0.0"),
        (0.1 + 0.2, "0.3"),
        (1.0 / 3.0, "0.333333"),
        (2.0 / 3.0, "0.666667"),
        (-1.5, "-1.5"),
        (0.000001, "0.000001"),
        (0.0000005, "0.000001"),
        (123_456.789_012_345, "123456.789012"),
        (-7.0, "-7.0"),
        (1e12, "1000000000000.0"),
        (1e16, "1e+16"),
        (-2.5e20, "-2.5e+20"),
        (Double.nan, "null"),
        (Double.infinity, "null"),
        (-Double.infinity, "null"),
    ])
    func formatNumber(value: Double, expected: String) {
        #expect(GestureTrace.formatNumber(value) == expected)
    }

    @Test func jsonLineKeepsInsertionOrderAndEscapes() {
        var inner = JSONLine()
        inner.add("matrix", [1.0, 0, 0, 1, 10.5, -3])
        inner.add("bounds", [200.0, 100])
        var line = JSONLine()
        line.add("type", "final")
        line.add("label", "Say \"hi\"\\\n\tnow \u{1}é")
        line.add("n", 3)
        line.add("ok", true)
        line.add("no", false)
        line.add("image", inner)
        line.add("ints", [1, 2])
        line.add("names", ["a", "b"])
        line.addNull("nothing")
        line.add("n", 4)  // replaces in place
        #expect(
            line.text
                == #"{"type":"final","label":"Say \"hi\"\\\n\tnow \u0001é","n":4,"ok":true,"no":false,"image":{"matrix":[1.0,0.0,0.0,1.0,10.5,-3.0],"bounds":[200.0,100.0]},"ints":[1,2],"names":["a","b"],"nothing":null}"#
        )
        #expect(JSONLine().text == "{}")
        #expect(line.orderedKeys.first == "type")
    }

    /// Runs `frames` through a dispatcher with `recognizers` on a 1024×768 root and returns the
    /// log lines.
    private func log(
        _ recognizers: [GestureRecognizer], _ events: [InputEvent], label: String? = nil
    ) -> [String] {
        let root = View(frame: Rect(x: 0, y: 0, width: 1024, height: 768), name: "root")
        for r in recognizers { root.addGestureRecognizer(r) }
        let dispatcher = TouchDispatcher(root: root)
        var lines: [String] = []
        dispatcher.onTransition = { lines.append(EventLog.line(for: $0, label: label)) }
        for e in events { dispatcher.handle(e) }
        return lines
    }

    @Test func tapLineHasOneTouchesKey() {
        let tap = TapGestureRecognizer(name: "tap2")
        tap.numberOfTouchesRequired = 2
        let lines = log(
            [tap],
            [
                frame(0, (1, .began, 100, 100), (2, .began, 200, 100)),
                frame(0.05, (1, .ended, 100, 100)),
                frame(0.1, (2, .ended, 200, 100)),
            ], label: "Tapped")
        #expect(
            lines == [
                #"{"type":"gesture","t":0.1,"recognizer":"tap2","kind":"tap","state":"ended","x":150.0,"y":100.0,"touches":2,"taps":1,"label":"Tapped"}"#
            ])
    }

    @Test func panAndFailedTapLines() {
        let pan = PanGestureRecognizer(name: "pan")
        let tap = TapGestureRecognizer()
        let lines = log(
            [pan, tap],
            [
                frame(0, (1, .began, 100, 100)),
                frame(0.5, (1, .moved, 150, 100)),
                frame(1, (1, .ended, 150, 100)),
            ])
        #expect(
            lines == [
                #"{"type":"gesture","t":0.5,"recognizer":"pan","kind":"pan","state":"began","x":150.0,"y":100.0,"touches":1,"translation":[50.0,0.0],"velocity":[0.0,0.0]}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"tap","kind":"tap","state":"failed","x":150.0,"y":100.0,"touches":1,"taps":0}"#,
                #"{"type":"gesture","t":1.0,"recognizer":"pan","kind":"pan","state":"ended","x":150.0,"y":100.0,"touches":1,"translation":[50.0,0.0],"velocity":[0.0,0.0]}"#,
            ])
    }

    /// A recognizer of each other kind, its input and the one line it logs.
    struct LineCase: Sendable, CustomTestStringConvertible {
        var kind: String
        var make: @MainActor @Sendable () -> GestureRecognizer
        var events: [InputEvent]
        var label: String? = nil
        var line: String
        var testDescription: String { kind }
    }

    nonisolated static let lineCases: [LineCase] = [
        LineCase(
            kind: "pinch", make: { PinchGestureRecognizer(name: "pinch") },
            events: [frame(0, (1, .began, 100, 100), (2, .began, 200, 100)), frame(1, (2, .moved, 300, 100))],
            line:
                #"{"type":"gesture","t":1.0,"recognizer":"pinch","kind":"pinch","state":"began","x":200.0,"y":100.0,"touches":2,"scale":2.0,"velocity":0.0}"#
        ),
        LineCase(
            kind: "rotation", make: { RotationGestureRecognizer(name: "rot") },
            events: [frame(0, (1, .began, 100, 100), (2, .began, 200, 100)), frame(1, (2, .moved, 100, 200))],
            line:
                #"{"type":"gesture","t":1.0,"recognizer":"rot","kind":"rotation","state":"began","x":100.0,"y":150.0,"touches":2,"rotation":1.570796,"velocity":0.0}"#
        ),
        LineCase(
            kind: "swipe",
            make: {
                let swipe = SwipeGestureRecognizer(name: "swipeLeft")
                swipe.direction = .left
                return swipe
            },
            events: [frame(0, (1, .began, 500, 100)), frame(0.05, (1, .moved, 400, 100))],
            line:
                #"{"type":"gesture","t":0.05,"recognizer":"swipeLeft","kind":"swipe","state":"ended","x":400.0,"y":100.0,"touches":1,"direction":"left"}"#
        ),
        LineCase(
            kind: "screenEdgePan",
            make: {
                let edge = ScreenEdgePanGestureRecognizer(name: "edge")
                edge.edges = .left
                return edge
            },
            events: [frame(0, (1, .began, 5, 300)), frame(0.5, (1, .moved, 65, 300))],
            line:
                #"{"type":"gesture","t":0.5,"recognizer":"edge","kind":"screenEdgePan","state":"began","x":65.0,"y":300.0,"touches":1,"translation":[60.0,0.0],"velocity":[0.0,0.0],"edge":"left"}"#
        ),
        LineCase(
            kind: "longPress", make: { LongPressGestureRecognizer(name: "press") },
            events: [frame(0, (1, .began, 10, 20)), .wait(timestamp: 1)],
            line:
                #"{"type":"gesture","t":0.5,"recognizer":"press","kind":"longPress","state":"began","x":10.0,"y":20.0,"touches":1}"#
        ),
        LineCase(
            kind: "shake", make: { ShakeGestureRecognizer(name: "shake") }, events: [.shake(timestamp: 2.25)],
            label: "Shaking things up!",
            line:
                #"{"type":"gesture","t":2.25,"recognizer":"shake","kind":"shake","state":"ended","x":0.0,"y":0.0,"touches":0,"label":"Shaking things up!"}"#
        ),
    ]

    @Test(arguments: lineCases)
    func oneLinePerKind(_ c: LineCase) {
        #expect(log([c.make()], c.events, label: c.label) == [c.line])
    }
}

/// A touch frame at `t` of (id, phase, x, y) changes.
private func frame(_ t: Double, _ changes: (Int, TouchPhase, Double, Double)...) -> InputEvent {
    .touches(
        TouchFrame(
            timestamp: t,
            changes: changes.map { TouchChange(id: $0.0, phase: $0.1, location: Point(x: $0.2, y: $0.3)) }))
}
