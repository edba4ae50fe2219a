import GestureKit
import GestureTestSupport
import GesturesDemo
import Testing

/// A gesture that fails in a region says why in the label, in the line of the
/// last of the region's recognizers to fail; success strings stay the tutorial's (the swipe
/// cases of `SceneTests` still read "Swiped …"). Whole logs at 1024×768.
@Suite @MainActor struct RegionHintTests {
    @Test("A slow drag in Swipe Me! (200 pt in 1 s) says \"Swipe faster\" when the swipes give up at 0.5 s")
    func slowSwipe() {
        var events = [frame(0, Finger.down(1, 650, 165))]
        for k in 1...20 { events.append(frame(0.05 * Double(k), Finger.move(1, 650 + 10 * Double(k), 165))) }
        events.append(frame(1.05, Finger.up(1, 850, 165)))
        #expect(
            replayLog(events).1 == [
                SceneTests.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":650.0,"y":165.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"swipeRight","kind":"swipe","state":"failed","x":750.0,"y":165.0,"touches":1,"direction":"right","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"swipeLeft","kind":"swipe","state":"failed","x":750.0,"y":165.0,"touches":1,"direction":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"swipeUp","kind":"swipe","state":"failed","x":750.0,"y":165.0,"touches":1,"direction":"up","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"swipeDown","kind":"swipe","state":"failed","x":750.0,"y":165.0,"touches":1,"direction":"down","label":"Swipe faster"}"#,
                #"{"type":"final","label":"Swipe faster","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test("A quick diagonal in Swipe Me! says \"Swipe in a straight line\"")
    func crookedSwipe() {
        let events = [
            frame(0, Finger.down(1, 700, 110)), frame(0.03, Finger.move(1, 730, 150)),
            frame(0.06, Finger.move(1, 760, 190)),
            frame(0.07, Finger.up(1, 760, 190)),
        ]
        #expect(
            replayLog(events).1 == [
                SceneTests.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":700.0,"y":110.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.07,"recognizer":"swipeRight","kind":"swipe","state":"failed","x":760.0,"y":190.0,"touches":1,"direction":"right","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.07,"recognizer":"swipeLeft","kind":"swipe","state":"failed","x":760.0,"y":190.0,"touches":1,"direction":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.07,"recognizer":"swipeUp","kind":"swipe","state":"failed","x":760.0,"y":190.0,"touches":1,"direction":"up","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.07,"recognizer":"swipeDown","kind":"swipe","state":"failed","x":760.0,"y":190.0,"touches":1,"direction":"down","label":"Swipe in a straight line"}"#,
                #"{"type":"final","label":"Swipe in a straight line","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test("One finger in Pinch Me! says \"Pinch with two fingers\"")
    func oneFingerPinch() {
        let events = [
            frame(0, Finger.down(1, 200, 320)), frame(0.1, Finger.move(1, 240, 330)),
            frame(0.2, Finger.up(1, 240, 330)),
        ]
        #expect(
            replayLog(events).1 == [
                SceneTests.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":200.0,"y":320.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.2,"recognizer":"pinch","kind":"pinch","state":"failed","x":240.0,"y":330.0,"touches":0,"scale":1.0,"velocity":0.0,"label":"Pinch with two fingers"}"#,
                #"{"type":"final","label":"Pinch with two fingers","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }

    @Test("A touch held 0.7 s in Tap Me! says \"Tap quickly without moving\"")
    func heldTap() {
        let events = [frame(0, Finger.down(1, 270, 160)), frame(0.7, Finger.up(1, 270, 160))]
        #expect(
            replayLog(events).1 == [
                SceneTests.layoutLine,
                #"{"type":"gesture","t":0.0,"recognizer":"edgePan","kind":"screenEdgePan","state":"failed","x":270.0,"y":160.0,"touches":1,"translation":[0.0,0.0],"velocity":[0.0,0.0],"edge":"left","label":"Do something!"}"#,
                #"{"type":"gesture","t":0.5,"recognizer":"tap","kind":"tap","state":"failed","x":270.0,"y":160.0,"touches":1,"taps":0,"label":"Tap quickly without moving"}"#,
                #"{"type":"final","label":"Tap quickly without moving","image":{"matrix":[1.0,0.0,0.0,1.0,343.04,414.72],"bounds":[337.92,337.92]}}"#,
            ])
    }
}
