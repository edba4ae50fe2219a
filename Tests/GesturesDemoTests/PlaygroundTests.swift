import GestureKit
import GestureTestSupport
import GesturesDemo
import Testing

@Suite @MainActor struct PlaygroundTests {
    static let designSpec = """
        [{"name":"double","kind":"tap","numberOfTapsRequired":2},
         {"name":"single","kind":"tap","requireToFail":["double"]},
         {"name":"pinch","kind":"pinch","simultaneousWith":["rotation"]},
         {"name":"rotation","kind":"rotation"},
         {"name":"edge","kind":"screenEdgePan","edges":["left"]},
         {"name":"img","kind":"pan","frame":[100,100,200,100],"transform":[0,1,-1,0,0,0]}]
        """

    @Test func parsesTheDesignExample() throws {
        let spec = try PlaygroundSpec.parse(Self.designSpec, file: "spec.json")
        #expect(spec.recognizers.map(\.name) == ["double", "single", "pinch", "rotation", "edge", "img"])
        #expect(spec.recognizers.map(\.kind) == [.tap, .tap, .pinch, .rotation, .screenEdgePan, .pan])
        #expect(spec.recognizers.map(\.line) == [1, 2, 3, 4, 5, 6])
        #expect(spec.recognizers[0].knobs == [.init(name: "numberOfTapsRequired", value: .int(2))])
        #expect(spec.recognizers[1].requireToFail == ["double"])
        #expect(spec.recognizers[2].simultaneousWith == ["rotation"])
        #expect(spec.recognizers[4].knobs == [.init(name: "edges", value: .edges(.left))])
        #expect(spec.recognizers[5].frame == Rect(x: 100, y: 100, width: 200, height: 100))
        #expect(spec.recognizers[5].transform == AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
    }

    @Test func buildsTheSceneWithKnobsAndSharedSubviews() throws {
        let spec = try PlaygroundSpec.parse(
            """
            [{"kind":"swipe","direction":["left","up"],"numberOfTouchesRequired":2},
             {"name":"lp","kind":"longPress","minimumPressDuration":1.5,"allowableMovement":20,
              "numberOfTouchesRequired":2,"numberOfTapsRequired":1,"frame":[10,20,30,40]},
             {"name":"p","kind":"pan","minimumNumberOfTouches":2,"maximumNumberOfTouches":3,"frame":[10,20,30,40],
              "cancelsTouchesInView":false},
             {"name":"e","kind":"screenEdgePan","edges":["right","bottom"],"isEnabled":false},
             {"name":"other","kind":"tap","frame":[0,0,5,5],"transform":[2,0,0,2,0,0]}]
            """, file: "s.json")
        let scene = PlaygroundScene(spec: spec, size: Size(width: 640, height: 480))
        #expect(scene.root.bounds.size == Size(width: 640, height: 480))
        #expect(scene.subviews.count == 2)
        #expect(scene.subviews[0].frame == Rect(x: 10, y: 20, width: 30, height: 40))
        #expect(scene.subviews[0].gestureRecognizers.map(\.name) == ["lp", "p"])
        #expect(scene.subviews[1].transform == AffineTransform(scaleX: 2, y: 2))
        #expect(scene.root.gestureRecognizers.map(\.name) == ["swipe", "e"])
        let swipe = try #require(scene.recognizers[0] as? SwipeGestureRecognizer)
        #expect(swipe.direction == [.left, .up] && swipe.numberOfTouchesRequired == 2)
        let lp = try #require(scene.recognizers[1] as? LongPressGestureRecognizer)
        #expect(lp.minimumPressDuration == 1.5 && lp.allowableMovement == 20)
        #expect(lp.numberOfTouchesRequired == 2 && lp.numberOfTapsRequired == 1)
        let p = try #require(scene.recognizers[2] as? PanGestureRecognizer)
        #expect(p.minimumNumberOfTouches == 2 && p.maximumNumberOfTouches == 3 && !p.cancelsTouchesInView)
        let e = try #require(scene.recognizers[3] as? ScreenEdgePanGestureRecognizer)
        #expect(e.edges == [.right, .bottom] && !e.isEnabled)
    }

    @Test func singleWaitsForDoubleToFail() throws {
        let spec = try PlaygroundSpec.parse(Self.designSpec, file: "spec.json")
        let scene = PlaygroundScene(spec: spec, size: Size(width: 1024, height: 768))
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        replay([frame(0, Finger.down(1, 500, 500)), frame(0.1, Finger.up(1, 500, 500))], through: scene)
        let t = transitions(log)
        #expect(t.contains("double failed") && t.contains("single ended"))
        #expect(t.firstIndex(of: "double failed")! < t.firstIndex(of: "single ended")!)
        // The single tap is recognized when the double tap's 0.3 s wait runs out, not at the lift.
        let single = try #require(log.first { $0.contains(#""recognizer":"single""#) })
        #expect(number(single, "t")! > 0.39)
        #expect(field(single, "label") == nil)
        #expect(scene.finalLogLine == nil)

        // A double tap: double recognized, single failed.
        let scene2 = PlaygroundScene(spec: spec, size: Size(width: 1024, height: 768))
        var log2: [String] = []
        scene2.onLogLine = { log2.append($0) }
        replay(
            [
                frame(0, Finger.down(1, 500, 500)), frame(0.1, Finger.up(1, 500, 500)),
                frame(0.2, Finger.down(2, 502, 500)),
                frame(0.3, Finger.up(2, 502, 500)),
            ], through: scene2)
        #expect(transitions(log2).contains("double ended") && transitions(log2).contains("single failed"))
        #expect(!transitions(log2).contains("single ended"))
    }

    @Test func simultaneousWithByName() throws {
        func run(_ text: String) throws -> [String] {
            let scene = PlaygroundScene(
                spec: try PlaygroundSpec.parse(text, file: "s.json"), size: Size(width: 800, height: 600))
            var log: [String] = []
            scene.onLogLine = { log.append($0) }
            let c = Point(x: 400, y: 300)
            // Spread from 100 to 200 pt apart while turning a quarter turn.
            func finger(_ a0: Double) -> (Double) -> Point {
                { u in arc(c, 50 + 50 * u, a0, a0 + .pi / 2)(u) }
            }
            replay(stroke(start: 0, steps: 30, [finger(.pi), finger(0)]), through: scene)
            return transitions(log)
        }
        let together = try run(#"[{"kind":"pinch","simultaneousWith":["rotation"]},{"kind":"rotation"}]"#)
        #expect(together.contains("pinch ended") && together.contains("rotation ended"))
        let exclusive = try run(#"[{"kind":"pinch"},{"kind":"rotation"}]"#)
        #expect(exclusive.contains("pinch ended") != exclusive.contains("rotation ended"))
    }

    @Test func framesHitThroughTheirTransform() throws {
        // A 200×100 frame rotated a quarter turn about its centre (200, 150) covers x 150…250, y 50…250.
        let spec = try PlaygroundSpec.parse(
            #"[{"name":"t","kind":"tap","frame":[100,100,200,100],"transform":[0,1,-1,0,0,0]}]"#, file: "s.json")
        func taps(at p: Point) -> [String] {
            let scene = PlaygroundScene(spec: spec, size: Size(width: 400, height: 400))
            var log: [String] = []
            scene.onLogLine = { log.append($0) }
            replay([frame(0, Finger.down(1, p.x, p.y)), frame(0.05, Finger.up(1, p.x, p.y))], through: scene)
            return transitions(log)
        }
        #expect(taps(at: Point(x: 200, y: 60)) == ["t ended"])
        #expect(taps(at: Point(x: 110, y: 150)) == [])
    }

    /// Every kind of bad spec, with the exact message.
    @Test(arguments: [
        ("", "s.json:1: expected a JSON array or object, got an empty file"),
        (
            #"{"kind":"tap"}"#,
            #"s.json:1: expected an array of recognizer objects or an object with "views" and "recognizers", got one recognizer object (put it in [ ])"#
        ),
        (
            "3",
            #"s.json:1: expected an array of recognizer objects or an object with "views" and "recognizers", got 3"#
        ),
        ("[\n  {\"kind\":\"tap\"},\n  3\n]", "s.json:3: expected a recognizer object, got 3"),
        ("[\n {\"kind\":\"tap\",\n  \"name\":\"a\" \"x\":1}]", #"s.json:3: expected ',' or '}' in an object"#),
        ("[{\"kind\":\"tap\"}", "s.json:1: expected ',' or ']' in an array"),
        ("[{\"kind\":\"tap\"}] x", "s.json:1: expected the end of the file after the JSON value"),
        (#"[{"kind":"tap","kind":"pan"}]"#, #"s.json:1: duplicate key "kind""#),
        (
            "[\n{\"name\":\"a\"}]",
            #"s.json:2: expected a "kind" (one of tap, longPress, swipe, pan, screenEdgePan, pinch, rotation, shake) in the recognizer object"#
        ),
        (
            "[\n{\n\"kind\":\"tapp\"}]",
            #"s.json:3: unknown kind "tapp" (expected one of tap, longPress, swipe, pan, screenEdgePan, pinch, rotation, shake)"#
        ),
        (
            #"[{"kind":7}]"#,
            #"s.json:1: unknown kind 7 (expected one of tap, longPress, swipe, pan, screenEdgePan, pinch, rotation, shake)"#
        ),
        (
            "[{\"kind\":\"tap\",\n\"numberOfTaps\":2}]",
            #"s.json:2: unknown key "numberOfTaps" for a tap recognizer (expected one of name, kind, view, frame, transform, requireToFail, simultaneousWith, shouldBegin, shouldReceive, shouldRequireFailureOf, shouldBeRequiredToFailBy, isEnabled, cancelsTouchesInView, numberOfTapsRequired, numberOfTouchesRequired)"#
        ),
        (
            #"[{"kind":"pinch","direction":["left"]}]"#,
            #"s.json:1: unknown key "direction" for a pinch recognizer (expected one of name, kind, view, frame, transform, requireToFail, simultaneousWith, shouldBegin, shouldReceive, shouldRequireFailureOf, shouldBeRequiredToFailBy, isEnabled, cancelsTouchesInView)"#
        ),
        (
            #"[{"kind":"tap","numberOfTapsRequired":"2"}]"#,
            #"s.json:1: expected "numberOfTapsRequired" to be a whole number ≥ 1, got "2""#
        ),
        (
            #"[{"kind":"tap","numberOfTapsRequired":1.5}]"#,
            #"s.json:1: expected "numberOfTapsRequired" to be a whole number ≥ 1, got 1.5"#
        ),
        (
            #"[{"kind":"tap","numberOfTouchesRequired":0}]"#,
            #"s.json:1: expected "numberOfTouchesRequired" to be a whole number ≥ 1, got 0"#
        ),
        (
            #"[{"kind":"longPress","numberOfTapsRequired":-1}]"#,
            #"s.json:1: expected "numberOfTapsRequired" to be a whole number ≥ 0, got -1"#
        ),
        (
            #"[{"kind":"longPress","minimumPressDuration":-0.5}]"#,
            #"s.json:1: expected "minimumPressDuration" to be a number ≥ 0, got -0.5"#
        ),
        (
            #"[{"kind":"longPress","allowableMovement":null}]"#,
            #"s.json:1: expected "allowableMovement" to be a number ≥ 0, got null"#
        ),
        (
            #"[{"kind":"swipe","direction":"left"}]"#,
            #"s.json:1: expected "direction" to be a non-empty array of right, left, up, down, got "left""#
        ),
        (
            #"[{"kind":"swipe","direction":[]}]"#,
            #"s.json:1: expected "direction" to be a non-empty array of right, left, up, down, got an array"#
        ),
        (
            #"[{"kind":"swipe","direction":["sideways"]}]"#,
            #"s.json:1: expected "direction" to be a non-empty array of right, left, up, down, got "sideways""#
        ),
        (
            #"[{"kind":"screenEdgePan","edges":["middle"]}]"#,
            #"s.json:1: expected "edges" to be a non-empty array of left, right, top, bottom, got "middle""#
        ),
        (
            #"[{"kind":"pan","maximumNumberOfTouches":true}]"#,
            #"s.json:1: expected "maximumNumberOfTouches" to be a whole number ≥ 1, got true"#
        ),
        (#"[{"kind":"tap","isEnabled":"yes"}]"#, #"s.json:1: expected "isEnabled" to be true or false, got "yes""#),
        (#"[{"kind":"tap","name":""}]"#, #"s.json:1: expected "name" to be a non-empty string, got """#),
        (
            "[{\"kind\":\"tap\",\"name\":\"a\"},\n{\"kind\":\"pan\",\"name\":\"a\"}]",
            #"s.json:2: duplicate recognizer name "a" (first used on line 1)"#
        ),
        (
            #"[{"kind":"tap","frame":[1,2,3]}]"#,
            #"s.json:1: expected "frame" to be [x, y, width, height] (width and height ≥ 0), got an array"#
        ),
        (
            #"[{"kind":"tap","frame":[1,2,-3,4]}]"#,
            #"s.json:1: expected "frame" to be [x, y, width, height] (width and height ≥ 0), got an array"#
        ),
        (
            #"[{"kind":"tap","frame":[0,0,9,9],"transform":[1,0,0]}]"#,
            #"s.json:1: expected "transform" to be [a, b, c, d, tx, ty], got an array"#
        ),
        (
            #"[{"kind":"tap","frame":[0,0,9,9],"transform":[1,2,2,4,0,0]}]"#,
            #"s.json:1: expected "transform" to be invertible (a·d − b·c ≠ 0)"#
        ),
        (
            #"[{"kind":"tap","transform":[1,0,0,1,0,0]}]"#,
            #"s.json:1: expected a "frame" with the "transform" (it applies about the frame's centre)"#
        ),
        (
            "[{\"kind\":\"tap\",\"name\":\"single\",\n\"requireToFail\":[\n\"doble\"]},\n{\"kind\":\"tap\",\"name\":\"double\"}]",
            #"s.json:3: "requireToFail" names "doble", which is not a recognizer of this spec (known: single, double)"#
        ),
        (
            #"[{"kind":"tap","requireToFail":"double"}]"#,
            #"s.json:1: expected "requireToFail" to be an array of recognizer names, got "double""#
        ),
        (
            #"[{"kind":"pinch","simultaneousWith":[1]}]"#,
            #"s.json:1: expected "simultaneousWith" to be an array of recognizer names, got 1"#
        ),
        (
            #"[{"kind":"pinch","simultaneousWith":["pinch"]}]"#,
            #"s.json:1: "simultaneousWith" names "pinch", the recognizer itself"#
        ),
        (
            "[{\"kind\":\"tap\",\"frame\":[0,0,9,9],\"transform\":[2,0,0,2,0,0]},\n{\"kind\":\"pan\",\"frame\":[0,0,9,9],\"transform\":[1,0,0,1,0,0]}]",
            #"s.json:2: "transform" differs from that of "tap" (line 1), which has the same frame"#
        ),
        ("[\"\\x\"]", #"s.json:1: expected a valid escape after '\'"#),
        ("[01]", #"s.json:1: expected ',' or ']' in an array"#),
        ("[1e999]", "s.json:1: expected a finite number"),
        ("[\"abc\n\"]", #"s.json:1: expected '"' to close the string before the end of the line"#),
    ])
    func badSpecs(text: String, message: String) {
        #expect(throws: SpecError.self) { try PlaygroundSpec.parse(text, file: "s.json") }
        do {
            _ = try PlaygroundSpec.parse(text, file: "s.json")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func unreadableFile() {
        do {
            _ = try PlaygroundSpec.load(path: "/nonexistent/spec.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/spec.json: no such file")
        }
    }
}
