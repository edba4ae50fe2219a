import CCairo
import GestureKit
import GestureTrace

/// What a headless replay drives: the demo scene or a recognizer playground.
@MainActor
public protocol ReplayScene: AnyObject {
    /// Receives each event-log line as it happens.
    var onLogLine: ((String) -> Void)? { get set }
    func handle(_ event: InputEvent)
    func advance(to time: Double)
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

/// Replays `events` through `scene` (DESIGN.md §4.1): every event in order, then the clock
/// advances 1 s past the last one so that pending timers fire; the final line, if the scene has
/// one, goes to `onLogLine` last.
@MainActor
public func replay(_ events: [InputEvent], through scene: any ReplayScene) {
    var last = 0.0
    for e in events {
        scene.handle(e)
        if e.timestamp.isFinite { last = max(last, e.timestamp) }
    }
    scene.advance(to: last + 1)
    if let f = scene.finalLogLine { scene.onLogLine?(f) }
}

/// A recognizer playground built from a ``PlaygroundSpec`` (`gestures replay --recognizers`):
/// recognizers without a frame on the full-viewport root view, the others on subviews of the
/// root (one per distinct frame, in spec order, later ones in front), `requireToFail` and
/// `simultaneousWith` wired by name. Logs transitions without labels; no layout or final line.
@MainActor
public final class PlaygroundScene: ReplayScene {
    public let root: View
    public let dispatcher: TouchDispatcher
    /// In spec order.
    public let recognizers: [GestureRecognizer]
    /// The subviews made for frames, in spec order.
    public let subviews: [View]
    private let simultaneity: Simultaneity

    public var onLogLine: ((String) -> Void)? {
        didSet {
            if onLogLine != nil {
                dispatcher.onTransition = { [unowned self] t in self.onLogLine?(EventLog.line(for: t, label: nil)) }
            } else {
                dispatcher.onTransition = nil
            }
        }
    }

    public init(spec: PlaygroundSpec, size: Size) {
        root = View(frame: Rect(origin: .zero, size: size), name: "root")
        dispatcher = TouchDispatcher(root: root)
        var views: [View] = []
        var frames: [Rect] = []
        var byName: [String: GestureRecognizer] = [:]
        var list: [GestureRecognizer] = []
        for s in spec.recognizers {
            let r = PlaygroundScene.make(s)
            var host = root
            if let f = s.frame {
                if let i = frames.firstIndex(of: f) {
                    host = views[i]
                } else {
                    let v = View(frame: f, name: s.name)
                    root.addSubview(v)
                    views.append(v)
                    frames.append(f)
                    host = v
                }
                if let t = s.transform { host.transform = t }
            }
            host.addGestureRecognizer(r)
            byName[s.name] = r
            list.append(r)
        }
        simultaneity = Simultaneity()
        for (s, r) in zip(spec.recognizers, list) {
            for n in s.requireToFail { if let o = byName[n] { r.require(toFail: o) } }
            for n in s.simultaneousWith {
                if let o = byName[n] { simultaneity.pairs.append((ObjectIdentifier(r), ObjectIdentifier(o))) }
            }
            r.delegate = simultaneity
        }
        recognizers = list
        subviews = views
    }

    static func make(_ s: RecognizerSpec) -> GestureRecognizer {
        let r: GestureRecognizer
        switch s.kind {
        case .tap:
            let t = TapGestureRecognizer(name: s.name)
            for k in s.knobs {
                switch (k.name, k.value) {
                case ("numberOfTapsRequired", .int(let n)): t.numberOfTapsRequired = n
                case ("numberOfTouchesRequired", .int(let n)): t.numberOfTouchesRequired = n
                default: break
                }
            }
            r = t
        case .longPress:
            let l = LongPressGestureRecognizer(name: s.name)
            for k in s.knobs {
                switch (k.name, k.value) {
                case ("minimumPressDuration", .double(let d)): l.minimumPressDuration = d
                case ("allowableMovement", .double(let d)): l.allowableMovement = d
                case ("numberOfTouchesRequired", .int(let n)): l.numberOfTouchesRequired = n
                case ("numberOfTapsRequired", .int(let n)): l.numberOfTapsRequired = n
                default: break
                }
            }
            r = l
        case .swipe:
            let w = SwipeGestureRecognizer(name: s.name)
            for k in s.knobs {
                switch (k.name, k.value) {
                case ("direction", .directions(let d)): w.direction = d
                case ("numberOfTouchesRequired", .int(let n)): w.numberOfTouchesRequired = n
                default: break
                }
            }
            r = w
        case .pan, .screenEdgePan:
            let p: PanGestureRecognizer
            if s.kind == .screenEdgePan {
                let e = ScreenEdgePanGestureRecognizer(name: s.name)
                for k in s.knobs { if case .edges(let edges) = k.value { e.edges = edges } }
                p = e
            } else {
                p = PanGestureRecognizer(name: s.name)
            }
            for k in s.knobs {
                switch (k.name, k.value) {
                case ("minimumNumberOfTouches", .int(let n)): p.minimumNumberOfTouches = n
                case ("maximumNumberOfTouches", .int(let n)): p.maximumNumberOfTouches = n
                default: break
                }
            }
            r = p
        case .pinch: r = PinchGestureRecognizer(name: s.name)
        case .rotation: r = RotationGestureRecognizer(name: s.name)
        case .shake: r = ShakeGestureRecognizer(name: s.name)
        }
        for k in s.knobs {
            switch (k.name, k.value) {
            case ("isEnabled", .bool(let b)): r.isEnabled = b
            case ("cancelsTouchesInView", .bool(let b)): r.cancelsTouchesInView = b
            default: break
            }
        }
        return r
    }

    public func handle(_ event: InputEvent) { dispatcher.handle(event) }
    public func advance(to time: Double) { dispatcher.advance(to: time) }
    public var finalLogLine: String? { nil }

    /// Draws the playground: the root, each subview (under its transform) outlined with the names
    /// of its recognizers, and the touches down.
    public func draw(into cr: OpaquePointer) {
        cairo_save(cr)
        cairo_set_source_rgb(cr, 0.97, 0.97, 0.97)
        cairo_paint(cr)
        DemoFonts.select(DemoFonts.regular, on: cr)
        let rootNames = root.gestureRecognizers.map(\.name).joined(separator: ", ")
        if !rootNames.isEmpty {
            cairo_set_source_rgb(cr, 0.4, 0.4, 0.4)
            cairo_set_font_size(cr, 14)
            cairo_move_to(cr, 8, 20)
            cairo_show_text(cr, "root: " + rootNames)
        }
        for v in subviews {
            cairo_save(cr)
            let m = v.localToWindow
            var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
            cairo_transform(cr, &cm)
            cairo_rectangle(cr, 0, 0, v.bounds.width, v.bounds.height)
            cairo_set_source_rgba(cr, 0.26, 0.55, 0.89, 0.25)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, 0.26, 0.55, 0.89)
            cairo_set_line_width(cr, 2)
            cairo_stroke(cr)
            cairo_set_source_rgb(cr, 0.1, 0.1, 0.2)
            let names = v.gestureRecognizers.map(\.name).joined(separator: ", ")
            DemoRenderer.centredText(cr, names, in: Rect(origin: .zero, size: v.bounds.size), size: 14)
            cairo_restore(cr)
        }
        for t in dispatcher.activeTouches {
            let p = t.locationInWindow
            guard p.isFinite else { continue }
            cairo_new_path(cr)
            cairo_arc(cr, p.x, p.y, 12, 0, 2 * Double.pi)
            cairo_set_source_rgba(cr, 0.9, 0.16, 0.22, 0.5)
            cairo_fill(cr)
        }
        cairo_restore(cr)
    }

    public func renderPNG(to path: String) throws(RenderError) {
        try DemoRenderer.writePNG(size: root.bounds.size, to: path) { cr in self.draw(into: cr) }
    }
}

/// The playground's delegate: recognizers named in each other's `simultaneousWith` run together.
@MainActor
final class Simultaneity: GestureRecognizerDelegate {
    var pairs: [(ObjectIdentifier, ObjectIdentifier)] = []
    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        let a = ObjectIdentifier(recognizer)
        let b = ObjectIdentifier(other)
        return pairs.contains { ($0.0 == a && $0.1 == b) || ($0.0 == b && $0.1 == a) }
    }
}
