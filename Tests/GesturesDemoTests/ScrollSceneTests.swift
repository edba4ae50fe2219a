import GestureKit
import GestureTestSupport
import GesturesDemo
import Testing

/// Scroll in the demo: the wheel pans the flower under the pointer, Ctrl+wheel zooms it
/// about the pointer (a touchpad pinch), smooth scroll pans it too. Whole log at 1024×768.
@Suite @MainActor struct ScrollSceneTests {
    static func scroll(
        _ t: Double, _ x: Double, _ y: Double, _ dx: Double, _ dy: Double, _ type: ScrollType = .discrete,
        zoom: Bool = false
    ) -> InputEvent {
        .scroll(
            ScrollInput(
                timestamp: t, location: Point(x: x, y: y), delta: Vector(dx: dx, dy: dy), type: type, zoom: zoom))
    }

    @Test(
        "Two clicks down and one right pan the flower; two Ctrl clicks up zoom ×1.21 about (600, 650); smooth scroll pans"
    )
    func wheelPansAndZooms() {
        let events = [
            Self.scroll(0, 512, 600, 0, -40), Self.scroll(0.05, 512, 600, 0, -40), Self.scroll(0.1, 512, 600, 40, 0),
            Self.scroll(1, 600, 650, 0, 40, zoom: true), Self.scroll(1.05, 600, 650, 0, 40, zoom: true),
            Self.scroll(2, 512, 600, 3.5, -7.25, .continuous), Self.scroll(2.01, 512, 600, 3.5, -7.25, .continuous),
        ]
        let (scene, log) = replayLog(events)
        // The pans move the centre by (40, -80) + (7, -14.5); the zoom keeps (600, 650) in place.
        let c = Point(x: 512 + 40, y: 583.68 - 80)
        let zoomed = Point(x: 600 + (c.x - 600) * 1.21 + 7, y: 650 + (c.y - 650) * 1.21 - 14.5)
        #expect(abs(scene.imageView.center.x - zoomed.x) < 1e-9 && abs(scene.imageView.center.y - zoomed.y) < 1e-9)
        #expect(
            log == [
                SceneTests.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"imagePan","kind":"pan","state":"began","x":512.0,"y":600.0,"touches":0,"translation":[0.0,-40.0],"velocity":[0.0,0.0],"label":"Panned, X: 0.00, Y: -40.00"}"#,
                #"{"type":"gesture","t":0.05,"recognizer":"imagePan","kind":"pan","state":"changed","x":512.0,"y":600.0,"touches":0,"translation":[0.0,-80.0],"velocity":[0.0,-800.0],"label":"Panned, X: 0.00, Y: -80.00"}"#,
                #"{"type":"gesture","t":0.1,"recognizer":"imagePan","kind":"pan","state":"changed","x":512.0,"y":600.0,"touches":0,"translation":[40.0,-80.0],"velocity":[400.0,-400.0],"label":"Panned, X: 40.00, Y: -80.00"}"#,
                #"{"type":"gesture","t":0.25,"recognizer":"imagePan","kind":"pan","state":"ended","x":512.0,"y":600.0,"touches":0,"translation":[40.0,-80.0],"velocity":[0.0,0.0],"label":"Panned, X: 40.00, Y: -80.00"}"#,
                #"{"type":"gesture","t":1.0,"recognizer":"imagePinch","kind":"pinch","state":"began","x":600.0,"y":650.0,"touches":2,"scale":1.1,"velocity":0.0,"label":"Pinched, Scale: 1.10, Velocity: 0.00"}"#,
                #"{"type":"gesture","t":1.05,"recognizer":"imagePinch","kind":"pinch","state":"changed","x":600.0,"y":650.0,"touches":2,"scale":1.21,"velocity":2.2,"label":"Pinched, Scale: 1.21, Velocity: 2.20"}"#,
                #"{"type":"gesture","t":1.2,"recognizer":"imagePinch","kind":"pinch","state":"ended","x":600.0,"y":650.0,"touches":2,"scale":1.21,"velocity":0.0,"label":"Pinched, Scale: 1.21, Velocity: 0.00"}"#,
                #"{"type":"gesture","t":1.2,"recognizer":"imageRotation","kind":"rotation","state":"failed","x":600.0,"y":650.0,"touches":2,"rotation":0.0,"velocity":0.0,"label":"Pinched, Scale: 1.21, Velocity: 0.00"}"#,
                #"{"type":"gesture","t":2.0,"recognizer":"imagePan","kind":"pan","state":"began","x":512.0,"y":600.0,"touches":0,"translation":[3.5,-7.25],"velocity":[0.0,0.0],"label":"Panned, X: 3.50, Y: -7.25"}"#,
                #"{"type":"gesture","t":2.01,"recognizer":"imagePan","kind":"pan","state":"changed","x":512.0,"y":600.0,"touches":0,"translation":[7.0,-14.5],"velocity":[350.0,-725.0],"label":"Panned, X: 7.00, Y: -14.50"}"#,
                #"{"type":"gesture","t":2.16,"recognizer":"imagePan","kind":"pan","state":"ended","x":512.0,"y":600.0,"touches":0,"translation":[7.0,-14.5],"velocity":[0.0,0.0],"label":"Panned, X: 7.00, Y: -14.50"}"#,
                #"{"type":"final","label":"Panned, X: 7.00, Y: -14.50","image":{"matrix":[1.21,0.0,0.0,1.21,344.4784,254.0112],"bounds":[337.92,337.92]}}"#,
            ])
    }
}

/// The playground takes scroll lines too: a pan's `allowedScrollTypesMask` knob.
@Suite @MainActor struct PlaygroundScrollTests {
    @Test("A pan with allowedScrollTypesMask [continuous] takes smooth scroll, not wheel clicks")
    func knob() throws {
        let spec = try PlaygroundSpec.parse(
            #"[{"name":"smooth","kind":"pan","allowedScrollTypesMask":["continuous"]},{"name":"fingers","kind":"pan"}]"#,
            file: "s.json")
        #expect(spec.recognizers[0].knobs == [.init(name: "allowedScrollTypesMask", value: .scrollTypes(.continuous))])
        let scene = PlaygroundScene(spec: spec, size: Size(width: 640, height: 480))
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        replay(
            [
                ScrollSceneTests.scroll(0, 100, 100, 0, -40),
                ScrollSceneTests.scroll(1, 100, 100, 2.5, 0, .continuous),
            ], through: scene)
        #expect(
            log == [
                #"{"type":"gesture","t":1.0,"recognizer":"smooth","kind":"pan","state":"began","x":100.0,"y":100.0,"touches":0,"translation":[2.5,0.0],"velocity":[0.0,0.0]}"#,
                #"{"type":"gesture","t":1.15,"recognizer":"smooth","kind":"pan","state":"ended","x":100.0,"y":100.0,"touches":0,"translation":[2.5,0.0],"velocity":[0.0,0.0]}"#,
            ])
        #expect(throws: SpecError.self) {
            try PlaygroundSpec.parse(#"[{"kind":"pan","allowedScrollTypesMask":["wheel"]}]"#, file: "s.json")
        }
    }
}
