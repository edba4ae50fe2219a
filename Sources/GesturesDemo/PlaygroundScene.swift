import CCairo
import GestureKit
import GestureTrace

/// A recognizer playground built from a ``PlaygroundSpec`` (`gestures replay --recognizers`):
/// the spec's declared views (each added to its parent in spec order, later siblings in front),
/// then one subview of the root per distinct recognizer `frame` (in spec order, in front of the
/// declared views); each recognizer on its named `view`, its frame's subview, or the
/// full-viewport root. `requireToFail` is wired with `require(toFail:)`; the delegate questions
/// are answered from the spec by one ``PlaygroundDelegate``. Logs transitions without labels
/// (a pan's translation and velocity in its `reportIn` view's coordinates); no layout or final
/// line.
@MainActor
public final class PlaygroundScene: ReplayScene {
    public let root: View
    public let dispatcher: TouchDispatcher
    /// In spec order.
    public let recognizers: [GestureRecognizer]
    /// Every view but the root: the declared views in spec order, then the subviews made for
    /// recognizer frames, in spec order.
    public let subviews: [View]
    private let delegate = PlaygroundDelegate()
    /// The view whose coordinates a recognizer's log values are reported in (absent: window).
    private var reportViews: [ObjectIdentifier: View] = [:]

    public var onLogLine: ((String) -> Void)? {
        didSet {
            if onLogLine != nil {
                dispatcher.onTransition = { [unowned self] t in self.onLogLine?(self.logLine(for: t)) }
            } else {
                dispatcher.onTransition = nil
            }
        }
    }

    public init(spec: PlaygroundSpec, size: Size) {
        root = View(frame: Rect(origin: .zero, size: size), name: "root")
        dispatcher = TouchDispatcher(root: root)
        var named: [String: View] = ["root": root]
        var views: [View] = []
        for s in spec.views {
            let v = View(frame: s.frame, name: s.name)
            if let t = s.transform { v.transform = t }
            v.isUserInteractionEnabled = s.userInteraction
            (named[s.parent] ?? root).addSubview(v)
            named[s.name] = v
            views.append(v)
        }
        var frameViews: [Rect: View] = [:]
        var byName: [String: GestureRecognizer] = [:]
        var list: [GestureRecognizer] = []
        for s in spec.recognizers {
            let r = PlaygroundScene.make(s)
            var host = s.view.flatMap { named[$0] } ?? root
            if let f = s.frame {
                if let v = frameViews[f] {
                    host = v
                } else {
                    let v = View(frame: f, name: s.name)
                    root.addSubview(v)
                    frameViews[f] = v
                    views.append(v)
                    host = v
                }
                if let t = s.transform { host.transform = t }
            }
            host.addGestureRecognizer(r)
            switch s.reportIn {
            case .window: break
            case .view: reportViews[ObjectIdentifier(r)] = host
            case .superview: if let sv = host.superview { reportViews[ObjectIdentifier(r)] = sv }
            }
            byName[s.name] = r
            list.append(r)
        }
        func ids(_ names: [String]) -> [ObjectIdentifier] { names.compactMap { byName[$0].map(ObjectIdentifier.init) } }
        for (s, r) in zip(spec.recognizers, list) {
            for n in s.requireToFail { if let o = byName[n] { r.require(toFail: o) } }
            delegate.rules[ObjectIdentifier(r)] = PlaygroundDelegate.Rules(
                shouldBegin: s.shouldBegin, shouldReceive: s.shouldReceive, simultaneousWith: ids(s.simultaneousWith),
                requireFailureOf: ids(s.shouldRequireFailureOf), beRequiredToFailBy: ids(s.shouldBeRequiredToFailBy))
            r.delegate = delegate
        }
        recognizers = list
        subviews = views
        declaredViews = named
    }

    /// The spec's declared views by name, `root` included.
    private let declaredViews: [String: View]

    /// The view named in the spec (`root` included), if any: a declared view, else the first
    /// view made for a recognizer's frame with that name.
    public func view(named name: String) -> View? {
        declaredViews[name] ?? subviews.first { $0.name == name }
    }

    /// A transition's log line: a pan's translation and velocity converted to its `reportIn`
    /// view's coordinates (the linear part of the view's transform to the window, inverted: what
    /// `translation(in:)` and `velocity(in:)` return); `x`, `y` stay window points.
    private func logLine(for t: GestureTransition) -> String {
        guard let v = reportViews[ObjectIdentifier(t.recognizer)] else { return EventLog.line(for: t, label: nil) }
        let m = v.localToWindow.inverted()
        let values: GestureValues
        switch t.values {
        case .pan(let tr, let vel): values = .pan(translation: tr.applying(m), velocity: vel.applying(m))
        case .screenEdgePan(let tr, let vel, let edge):
            values = .screenEdgePan(translation: tr.applying(m), velocity: vel.applying(m), edge: edge)
        default: values = t.values
        }
        return EventLog.line(for: t, values: values, label: nil)
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
                case ("allowedScrollTypesMask", .scrollTypes(let m)): p.allowedScrollTypesMask = m
                default: break
                }
            }
            r = p
        case .pinch: r = PinchGestureRecognizer(name: s.name)
        case .rotation: r = RotationGestureRecognizer(name: s.name)
        default: r = ShakeGestureRecognizer(name: s.name)  // the spec's kinds are the built-in ones
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

    /// Draws the playground: the root, each subview (under its transforms) outlined with the
    /// names of its recognizers, and the touches down.
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
        // Window matrices parent first (a parent is listed before its subviews): one step per
        // view, where `localToWindow` would walk to the root from each (quadratic in a deep tree).
        var windowMatrices: [ObjectIdentifier: AffineTransform] = [ObjectIdentifier(root): .identity]
        windowMatrices.reserveCapacity(subviews.count + 1)
        for v in subviews {
            cairo_save(cr)
            let parent = v.superview.map { windowMatrices[ObjectIdentifier($0)] ?? $0.localToWindow } ?? .identity
            let m = v.localToSuperview.concatenating(parent)
            windowMatrices[ObjectIdentifier(v)] = m
            var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
            cairo_transform(cr, &cm)
            cairo_rectangle(cr, 0, 0, v.bounds.width, v.bounds.height)
            // Views that take no touches (userInteraction false) are grey.
            let (r, g, b) = v.isUserInteractionEnabled ? (0.26, 0.55, 0.89) : (0.6, 0.6, 0.6)
            cairo_set_source_rgba(cr, r, g, b, 0.25)
            cairo_fill_preserve(cr)
            cairo_set_source_rgb(cr, r, g, b)
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
