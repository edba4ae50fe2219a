import GestureKit
import GestureTrace

/// What a headless replay drives: the demo scene or a recognizer playground.
@MainActor
public protocol ReplayScene: AnyObject {
    /// Receives each event-log line as it happens.
    var onLogLine: ((String) -> Void)? { get set }
    func handle(_ event: InputEvent)
    func advance(to time: Double)
    /// The recognizers a trace's `set` lines may name (by `name`).
    var recognizers: [GestureRecognizer] { get }
    /// The line written after the replay (the demo's final line), if any.
    var finalLogLine: String? { get }
    /// Renders the current frame to a PNG file.
    func renderPNG(to path: String) throws(RenderError)
}

extension DemoScene: ReplayScene {
    public var finalLogLine: String? { finalLine() }
    public func renderPNG(to path: String) throws(RenderError) {
        try DemoRenderer.renderPNG(self, to: path)
    }
}

/// A trace's `set` line (``TraceAction``) bound to the recognizer it names in a scene, its
/// settings checked against the recognizer's kind.
public struct BoundAction {
    public let action: TraceAction
    public let recognizer: GestureRecognizer
}

/// Binds a trace's `set` lines to `scene`'s recognizers by name, before anything is replayed.
/// Errors name the trace file and the line: an unknown recognizer (`unknown recognizer "pann"
/// (expected one of …)`), or a property the recognizer does not have (`translation` is for pan
/// and screenEdgePan, `scale` for pinch, `rotation` for rotation; `isEnabled` and
/// `cancelsTouchesInView` for all).
@MainActor
public func bind(_ actions: [TraceAction], to scene: any ReplayScene) throws(TraceError) -> [BoundAction] {
    let recognizers = scene.recognizers
    var bound: [BoundAction] = []
    for a in actions {
        guard let r = recognizers.first(where: { $0.name == a.recognizer }) else {
            let names = MessageText.list(recognizers.map(\.name))
            throw a.error("unknown recognizer \(MessageText.quoted(a.recognizer)) (expected one of \(names))")
        }
        for s in a.settings {
            let fits: Bool
            let needed: String
            switch s {
            case .isEnabled, .cancelsTouchesInView: continue
            case .translation:
                fits = r is PanGestureRecognizer
                needed = "a pan or screenEdgePan"
            case .scale:
                fits = r is PinchGestureRecognizer
                needed = "a pinch"
            case .rotation:
                fits = r is RotationGestureRecognizer
                needed = "a rotation"
            }
            if !fits {
                throw a.error(
                    "expected \(needed) recognizer for \(jsonQuote(s.key)), got \(MessageText.quoted(r.name)) (a \(r.kind.rawValue))"
                )
            }
        }
        bound.append(BoundAction(action: a, recognizer: r))
    }
    return bound
}

/// Replays `events` through `scene` (docs/DESIGN.md §4.1): every event in order, with each bound
/// `set` action applied at its place among them, then the clock advances 1 s past the last one
/// so that pending timers fire; the final line, if the scene has one, goes to `onLogLine` last.
///
/// An action at time t first advances the clock to t (timers due at or before t fire, as before
/// a key command of the demo), then sets its properties in the order written, as app code would:
/// `isEnabled = false` cancels an active gesture (logged at t), `setTranslation(_:in: nil)`,
/// `scale` and `rotation` re-base the gesture and zero its velocity (no log line of their own:
/// the next change reports from the new base).
@MainActor
public func replay(_ events: [InputEvent], actions: [BoundAction] = [], through scene: any ReplayScene) {
    replay(each: { body in events.forEach(body) }, actions: actions, through: scene)
}

/// Replays a streamed trace (``TraceStream``): as ``replay(_:actions:through:)``, each event
/// handed to the scene as soon as it is read, none kept. Returns nil, or the error of a file
/// that changed on disk since it was checked (the replay stopped at the bad line).
@MainActor
@discardableResult
public func replay(_ stream: TraceStream, actions: [BoundAction] = [], through scene: any ReplayScene) -> TraceError? {
    var failure: TraceError?
    replay(each: { body in failure = stream.forEachEvent(body) }, actions: actions, through: scene)
    return failure
}

@MainActor
private func replay(
    each: ((InputEvent) -> Void) -> Void, actions: [BoundAction], through scene: any ReplayScene
) {
    var last = 0.0
    var k = 0
    var i = 0
    func applyActions(upTo position: Int) {
        while k < actions.count && actions[k].action.position <= position {
            apply(actions[k], in: scene)
            last = max(last, actions[k].action.timestamp)
            k += 1
        }
    }
    each { e in
        applyActions(upTo: i)
        scene.handle(e)
        if e.timestamp.isFinite { last = max(last, e.timestamp) }
        i += 1
    }
    applyActions(upTo: Int.max)
    scene.advance(to: last + 1)
    if let f = scene.finalLogLine { scene.onLogLine?(f) }
}

/// Binds the trace's `set` lines to `scene` (throwing before anything is replayed), then
/// replays it.
@MainActor
public func replay(_ trace: Trace, through scene: any ReplayScene) throws(TraceError) {
    let actions = try bind(trace.actions, to: scene)
    replay(trace.events, actions: actions, through: scene)
}

@MainActor
private func apply(_ b: BoundAction, in scene: any ReplayScene) {
    scene.advance(to: b.action.timestamp)
    b.applySettings()
}

extension BoundAction {
    /// Sets the action's properties on its recognizer, in the order written (the live shell's
    /// `--replay` calls this when the action is due; the headless replay advances the clock to
    /// the action's time first).
    @MainActor
    public func applySettings() {
        let r = recognizer
        for s in action.settings {
            switch s {
            case .isEnabled(let on): r.isEnabled = on
            case .cancelsTouchesInView(let on): r.cancelsTouchesInView = on
            case .translation(let v): (r as? PanGestureRecognizer)?.setTranslation(v, in: nil)
            case .scale(let v): (r as? PinchGestureRecognizer)?.scale = v
            case .rotation(let v): (r as? RotationGestureRecognizer)?.rotation = v
            }
        }
    }
}
