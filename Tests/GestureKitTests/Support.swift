import GestureKit
import GestureTestSupport
import Testing

/// A compact, exact rendering of the event log for whole-log assertions:
/// `t name state (x,y) n=touches values`, numbers rounded to 3 decimals.
@MainActor
final class LogRecorder {
    private(set) var lines: [String] = []
    private(set) var transitions: [(name: String, state: GestureState, values: GestureValues, time: Double)] = []

    init(_ dispatcher: TouchDispatcher) {
        dispatcher.onTransition = { [unowned self] t in
            lines.append(Self.render(t))
            transitions.append((t.recognizer.name, t.state, t.values, t.time))
        }
    }

    static func r(_ v: Double) -> String {
        let x = (v * 1000).rounded() / 1000
        return x == 0 ? "0" : (x == x.rounded() ? String(Int(x)) : "\(x)")
    }

    static func render(_ t: GestureTransition) -> String {
        var s =
            "\(r(t.time)) \(t.recognizer.name) \(t.state.rawValue) (\(r(t.location.x)),\(r(t.location.y))) n=\(t.numberOfTouches)"
        switch t.values {
        case .tap(let taps, let touches): s += " taps=\(taps) touches=\(touches)"
        case .longPress, .shake, .stateOnly: break
        case .swipe(let d): s += " dir=\(d)"
        case .pan(let tr, let v): s += " tr=[\(r(tr.dx)),\(r(tr.dy))] v=[\(r(v.dx)),\(r(v.dy))]"
        case .screenEdgePan(let tr, let v, let e):
            s += " tr=[\(r(tr.dx)),\(r(tr.dy))] v=[\(r(v.dx)),\(r(v.dy))] edge=\(e)"
        case .pinch(let sc, let v): s += " scale=\(r(sc)) v=\(r(v))"
        case .rotation(let rot, let v): s += " rot=\(r(rot)) v=\(r(v))"
        }
        return s
    }

    func states(of name: String) -> [GestureState] {
        transitions.filter { $0.name == name }.map(\.state)
    }
}

/// A root view of 1024×768 with a dispatcher and a recorder.
@MainActor
final class Harness {
    let root = View(frame: Rect(x: 0, y: 0, width: 1024, height: 768), name: "root")
    let dispatcher: TouchDispatcher
    let log: LogRecorder

    init() {
        dispatcher = TouchDispatcher(root: root)
        log = LogRecorder(dispatcher)
    }

    @discardableResult
    func add<R: GestureRecognizer>(_ r: R, to view: View? = nil) -> R {
        (view ?? root).addGestureRecognizer(r)
        return r
    }

    func frame(_ t: Double, _ changes: TouchChange...) {
        dispatcher.handle(TouchFrame(timestamp: t, changes: changes))
    }

    func wait(_ t: Double) { dispatcher.advance(to: t) }

    /// A straight one-finger stroke from `a` to `b` over `duration`, `steps` moves, then lift.
    func stroke(
        id: Int = 1, from a: Point, to b: Point, start: Double = 0, duration: Double, steps: Int = 10, lift: Bool = true
    ) {
        frame(start, Finger.down(id, a.x, a.y))
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            frame(start + duration * f, Finger.move(id, a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f))
        }
        if lift { frame(start + duration + 0.01, Finger.up(id, b.x, b.y)) }
    }
}
