import GestureKit
import GestureTestSupport
import Testing

/// A view tree 100 000 deep (a generated playground spec or app could build one) is hit-tested,
/// converted through and released without recursion: no stack overflow.
@MainActor
@Suite struct DeepTreeTests {
    static let depth = 100_000

    /// A chain of views, each 1 pt inside its parent, with a recognizer at the bottom.
    static func chain(in root: View) -> View {
        var parent = root
        for i in 0..<depth {
            let v = View(frame: Rect(x: 0.00001, y: 0, width: 500, height: 500), name: "v\(i)")
            parent.addSubview(v)
            parent = v
        }
        return parent
    }

    @Test func hitTestAndDeliveryThroughADeepChain() {
        let h = Harness()
        let deepest = Self.chain(in: h.root)
        #expect(h.root.hitTest(Point(x: 100, y: 100)) === deepest)
        #expect(h.root.hitTest(Point(x: 900, y: 100)) === h.root)
        let p = deepest.convert(Point(x: 10, y: 10), to: nil)
        #expect(abs(p.x - (10 + 0.00001 * Double(Self.depth))) < 1e-6 && p.y == 10)
        #expect(deepest.window === h.root)
        let tap = h.add(TapGestureRecognizer(name: "tap"), to: deepest)
        h.frame(0, Finger.down(1, 100, 100))
        h.frame(0.1, Finger.up(1, 100, 100))
        #expect(h.log.lines == ["0.1 tap ended (100,100) n=1 taps=1 touches=1"])
        #expect(tap.view === deepest)
    }

    /// Releasing the root (the last reference to the chain) does not recurse down the tree.
    @Test func releasingADeepChain() {
        var root: View? = View(frame: Rect(x: 0, y: 0, width: 500, height: 500))
        weak let deepest = Self.chain(in: root!)
        #expect(deepest != nil)
        root = nil
        #expect(deepest == nil)
    }

    /// A subtree someone else still holds keeps its subviews when its parent goes.
    @Test func aHeldSubtreeSurvivesItsParent() {
        var root: View? = View(frame: Rect(x: 0, y: 0, width: 500, height: 500))
        let middle = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let leaf = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        root!.addSubview(middle)
        middle.addSubview(leaf)
        root = nil
        #expect(middle.superview == nil && middle.subviews.count == 1 && middle.subviews[0] === leaf)
    }
}
