import Foundation
import GestureKit
import GestureTestSupport
import GesturesDemo
import Testing

/// A generated playground spec of 80 000 views nested one in the next (5.9 MB, under the 8 MiB
/// limit) loads, builds its scene and replays: names are looked up in dictionaries (linear
/// time; the list lookups took 57 s for such a spec) and the tree, 80 000 deep, is hit-tested
/// without recursion (the recursion overflowed the stack). The time is printed, not asserted.
@Suite @MainActor struct LargeSpecTests {
    @Test func eightyThousandNestedViews() throws {
        let n = 80_000
        var text = #"{"views":["#
        text.reserveCapacity(n * 80)
        for i in 0..<n {
            if i > 0 { text += "," }
            text += #"{"name":"v\#(i)","frame":[0,0,500,500],"parent":"\#(i == 0 ? "root" : "v\(i - 1)")"}"#
        }
        text += #"],"recognizers":[{"name":"tap","kind":"tap","view":"v\#(n - 1)"}]}"#
        let clock = ContinuousClock()
        let start = clock.now
        let spec = try PlaygroundSpec.parse(text, file: "big.json")
        let scene = PlaygroundScene(spec: spec, size: Size(width: 1024, height: 768))
        print("a \(text.utf8.count)-byte spec of \(n) nested views: parsed and built in \(clock.now - start)")
        #expect(scene.subviews.count == n)
        #expect(scene.view(named: "v\(n - 1)")?.superview === scene.view(named: "v\(n - 2)"))
        var log: [String] = []
        scene.onLogLine = { log.append($0) }
        replay([frame(0, Finger.down(1, 100, 100)), frame(0.1, Finger.up(1, 100, 100))], through: scene)
        #expect(
            log == [
                #"{"type":"gesture","t":0.1,"recognizer":"tap","kind":"tap","state":"ended","x":100.0,"y":100.0,"touches":1,"taps":1}"#
            ])
        // A duplicate name and an unknown parent are still found (and named) at the end.
        let dup = text.replacingOccurrences(of: #""name":"v\#(n - 1)""#, with: #""name":"v0""#)
        #expect(throws: SpecError.self) { try PlaygroundSpec.parse(dup, file: "dup.json") }
    }
}
