import GestureKit
import GestureTrace

/// A bad playground spec: the file, the 1-based line and what is wrong there. `description` is
/// the one line the command line prints: `spec.json:3: unknown kind "tapp" …`. The same type as
/// a bad trace's ``TraceError``.
public typealias SpecError = TraceError

/// The value of one knob of a recognizer in a spec.
public enum KnobValue: Equatable, Sendable {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case directions(SwipeDirection)
    case edges(RectEdge)
    case scrollTypes(ScrollTypeMask)
}

/// A delegate answer written as data (`shouldBegin`, `shouldReceive`): a constant, or tests that
/// must all hold.
public enum SpecCondition: Equatable, Sendable {
    case always(Bool)
    case all([Test])

    public enum Test: Equatable, Sendable {
        /// The recognizer's `numberOfTouches` is at least this (shouldBegin).
        case minTouches(Int)
        /// The recognizer's `numberOfTouches` is at most this (shouldBegin).
        case maxTouches(Int)
        /// The point is inside this rectangle, window points (half-open, as `CGRect.contains`):
        /// the recognizer's location (shouldBegin), the touch's location at touch-down
        /// (shouldReceive).
        case inRect(Rect)
        /// The touch's id (from the trace) is one of these (shouldReceive).
        case touchIDs([Int])
    }
}

/// Which view's coordinates the log reports a pan's `translation` and `velocity` in.
public enum ReportSpace: String, Equatable, Sendable, CaseIterable {
    /// Window points: `translation(in: nil)` (the default, as in the demo's log).
    case window
    /// The recognizer's own view: `translation(in: recognizer.view)`.
    case view
    /// The superview of the recognizer's view (window points for the root's recognizers).
    case superview
}

/// One view of a playground spec's `views` list.
public struct ViewSpec: Equatable, Sendable {
    /// Unique among the views; never `root` (the full-viewport root view's name).
    public var name: String
    /// Where the view's object starts in the file.
    public var line: Int
    /// In the parent's coordinates.
    public var frame: Rect
    /// About the frame's centre.
    public var transform: AffineTransform?
    /// `root` or a view listed before this one.
    public var parent: String
    /// UIKit: `isUserInteractionEnabled`. False: neither the view nor its subviews are hit; a
    /// touch there goes to the view behind (the parent, when nothing else is there).
    public var userInteraction: Bool

    public init(
        name: String, line: Int, frame: Rect, transform: AffineTransform? = nil, parent: String = "root",
        userInteraction: Bool = true
    ) {
        self.name = name
        self.line = line
        self.frame = frame
        self.transform = transform
        self.parent = parent
        self.userInteraction = userInteraction
    }
}

/// One recognizer of a playground spec (docs/DESIGN.md §4.3).
public struct RecognizerSpec: Equatable, Sendable {
    public struct Knob: Equatable, Sendable {
        public var name: String
        public var value: KnobValue
        public init(name: String, value: KnobValue) {
            self.name = name
            self.value = value
        }
    }
    /// The name in the log (default: the kind's name).
    public var name: String
    public var kind: GestureKind
    /// Where the recognizer's object starts in the file.
    public var line: Int
    /// The UIKit knobs that were set, in file order.
    public var knobs: [Knob]
    /// The frame of the subview it sits on (nil: the full-viewport root view).
    public var frame: Rect?
    /// The subview's transform, about the frame's centre.
    public var transform: AffineTransform?
    public var requireToFail: [String]
    public var simultaneousWith: [String]
    /// The named view it sits on (`root` or one of the spec's views); excludes `frame`.
    public var view: String? = nil
    /// The delegate's `gestureRecognizerShouldBegin` (nil: true).
    public var shouldBegin: SpecCondition? = nil
    /// The delegate's `shouldReceive touch` (nil: true).
    public var shouldReceive: SpecCondition? = nil
    /// The delegate's `shouldRequireFailureOf`: true for these names.
    public var shouldRequireFailureOf: [String] = []
    /// The delegate's `shouldBeRequiredToFailBy`: true for these names.
    public var shouldBeRequiredToFailBy: [String] = []
    /// Pan and screen-edge pan: the coordinates of the log's `translation` and `velocity`.
    public var reportIn: ReportSpace = .window
}

/// A recognizer playground (`gestures replay --recognizers SPEC`), docs/DESIGN.md §4.3: a JSON array
/// of recognizer objects with UIKit's knob names, or an object `{"views":[…],"recognizers":[…]}`
/// that also declares a tree of views.
///
/// ```json
/// {"views":[{"name":"card","frame":[100,100,400,300]},
///           {"name":"badge","parent":"card","frame":[10,10,50,50],"transform":[0,1,-1,0,0,0],
///            "userInteraction":false}],
///  "recognizers":[
///   {"name":"double","kind":"tap","numberOfTapsRequired":2,"view":"card"},
///   {"name":"single","kind":"tap","view":"card","shouldRequireFailureOf":["double"]},
///   {"name":"pan","kind":"pan","view":"card","reportIn":"view","shouldBegin":{"minTouches":2}},
///   {"name":"edge","kind":"screenEdgePan","edges":["left"],"shouldReceive":{"inRect":[0,0,40,768]}}]}
/// ```
///
/// Views: `name` (unique, not `root`), `frame` `[x,y,w,h]` in the parent's coordinates,
/// `transform` `[a,b,c,d,tx,ty]` about the frame's centre, `parent` (`root`, the default, or a
/// view listed earlier; later siblings are in front), `userInteraction` (default true).
///
/// Keys every recognizer takes: `name`, `kind`; where it sits: `view` (a view's name or `root`),
/// or `frame` and `transform` (a subview of the root per distinct frame, in front of the declared
/// views), or neither (the root); `requireToFail`, `simultaneousWith`, `shouldRequireFailureOf`,
/// `shouldBeRequiredToFailBy` (arrays of recognizer names; the failure requirements of the three
/// may not form a cycle); `shouldBegin` (true, false, or all of `{"minTouches":n}`,
/// `{"maxTouches":n}` on `numberOfTouches`, `{"inRect":[x,y,w,h]}` on the location, window
/// points, asked when it is about to leave `possible`); `shouldReceive` (true, false, or all of
/// `{"inRect":[…]}` on the touch's window location at touch-down, `{"touchIds":[…]}`);
/// `isEnabled`, `cancelsTouchesInView`. Kind knobs: tap `numberOfTapsRequired`,
/// `numberOfTouchesRequired`; longPress `minimumPressDuration`, `allowableMovement`,
/// `numberOfTouchesRequired`, `numberOfTapsRequired`; swipe `direction` (array of
/// `right left up down`), `numberOfTouchesRequired`; pan `minimumNumberOfTouches`,
/// `maximumNumberOfTouches`, `reportIn` (``ReportSpace``: `window` (default), `view`,
/// `superview`) and `allowedScrollTypesMask` (array of `discrete continuous`: the trace's
/// `scroll` lines it takes); screenEdgePan `edges` (array of `left right top bottom`) and the
/// pan knobs;
/// pinch, rotation and shake none. Anything else is an error naming the line.
public struct PlaygroundSpec: Equatable, Sendable {
    public var recognizers: [RecognizerSpec]
    /// The declared views, parents before children (the object form's `views`).
    public var views: [ViewSpec]

    public init(recognizers: [RecognizerSpec], views: [ViewSpec] = []) {
        self.recognizers = recognizers
        self.views = views
    }

    /// Reads a spec file of at most 8 MiB (`TraceReader.maximumSpecBytes`).
    /// Errors name `path` as given.
    public static func load(path: String) throws(SpecError) -> PlaygroundSpec {
        let bytes = try TraceReader.readFile(path, limit: TraceReader.maximumSpecBytes)
        return try parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// Parses spec text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(SpecError) -> PlaygroundSpec {
        let cx = SpecContext(file: file)
        let root: JSONValue
        do {
            root = try JSONParser.parse(text, style: .document(expecting: "a JSON array or object"))
        } catch {
            throw cx.fail(error.line, error.message)
        }
        var views: [ViewSpec] = []
        let items: [JSONValue]
        switch root.kind {
        case .array(let list):
            items = list
        case .object(let members):
            if members.contains(where: { $0.key == "kind" }) {
                throw cx.fail(root.line, "\(expectedRoot), got one recognizer object (put it in [ ])")
            }
            for m in members where m.key != "views" && m.key != "recognizers" {
                throw cx.fail(
                    m.line, "unknown key \(MessageText.quoted(m.key)) in the spec object (expected views, recognizers)")
            }
            if let v = members.first(where: { $0.key == "views" })?.value {
                views = try parseViews(v, cx)
            }
            guard let r = members.first(where: { $0.key == "recognizers" })?.value else {
                throw cx.fail(root.line, "expected a \"recognizers\" array in the spec object")
            }
            guard case .array(let list) = r.kind else {
                throw cx.fail(
                    r.line, "expected \"recognizers\" to be an array of recognizer objects, got \(r.described)")
            }
            items = list
        default:
            throw cx.fail(root.line, "\(expectedRoot), got \(root.described)")
        }
        var specs: [RecognizerSpec] = []
        var references: [Reference] = []
        var known: [String: Int] = [:]
        let viewNames = Set(views.map(\.name))
        for item in items {
            let spec = try parseRecognizer(
                item, views: views, viewNames: viewNames, known: known, owner: specs.count, references: &references, cx)
            if known[spec.name] == nil { known[spec.name] = spec.line }
            specs.append(spec)
        }
        try checkReferences(references, specs, cx)
        try checkCycles(references, specs, cx)
        // Recognizers with the same frame share one subview: their transforms must agree.
        var firstTransform: [Rect: RecognizerSpec] = [:]  // per frame, the first recognizer with a transform
        for s in specs {
            guard let f = s.frame, let t = s.transform else { continue }
            if let o = firstTransform[f] {
                if let ot = o.transform, ot != t {
                    throw cx.fail(
                        s.line,
                        "\"transform\" differs from that of \(MessageText.quoted(o.name)) (line \(o.line)), which has the same frame"
                    )
                }
            } else {
                firstTransform[f] = s
            }
        }
        return PlaygroundSpec(recognizers: specs, views: views)
    }

    static let expectedRoot =
        "expected an array of recognizer objects or an object with \"views\" and \"recognizers\""

    /// A recognizer name written in a spec: (line, key, the name, the index of the recognizer
    /// that wrote it). Checked once every name is known.
    struct Reference {
        var line: Int
        var key: String
        var name: String
        var owner: Int
    }

    private static func checkReferences(
        _ references: [Reference], _ specs: [RecognizerSpec], _ cx: SpecContext
    ) throws(SpecError) {
        let names = Set(specs.map(\.name))
        for ref in references {
            if ref.name == specs[ref.owner].name {
                throw cx.fail(ref.line, "\"\(ref.key)\" names \(MessageText.quoted(ref.name)), the recognizer itself")
            }
            guard names.contains(ref.name) else {
                let known = MessageText.list(specs.map(\.name))
                throw cx.fail(
                    ref.line,
                    "\"\(ref.key)\" names \(MessageText.quoted(ref.name)), which is not a recognizer of this spec (known: \(known))"
                )
            }
        }
    }

    /// Refuses a cycle of failure requirements (each recognizer on it would wait for the next
    /// forever). An edge a → b means "a waits for b to fail": `requireToFail` and
    /// `shouldRequireFailureOf` of a naming b, or `shouldBeRequiredToFailBy` of b naming a. The
    /// search runs in spec order; the error names the reference that closes the first cycle found.
    private static func checkCycles(
        _ references: [Reference], _ specs: [RecognizerSpec], _ cx: SpecContext
    ) throws(SpecError) {
        let index = Dictionary(specs.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var edges = [[(to: Int, ref: Reference)]](repeating: [], count: specs.count)
        for ref in references {
            guard let other = index[ref.name] else { continue }
            switch ref.key {
            case "requireToFail", "shouldRequireFailureOf": edges[ref.owner].append((other, ref))
            case "shouldBeRequiredToFailBy": edges[other].append((ref.owner, ref))
            default: continue
            }
        }
        // An iterative depth-first search (a chain of 30k requirements would overflow the stack
        // of a recursive one): `stack` holds the path with the next edge to try at each node,
        // `position` where a node sits on it (a lookup, not a scan of the path).
        var done = [Bool](repeating: false, count: specs.count)
        var position = [Int?](repeating: nil, count: specs.count)
        func visit(_ root: Int) -> (cycle: [Int], ref: Reference)? {
            var stack: [(node: Int, edge: Int)] = [(root, 0)]
            position[root] = 0
            while let (u, e) = stack.last {
                guard e < edges[u].count else {
                    stack.removeLast()
                    position[u] = nil
                    done[u] = true
                    continue
                }
                stack[stack.count - 1].edge += 1
                let (v, ref) = edges[u][e]
                if let k = position[v] { return (stack[k...].map(\.node) + [v], ref) }
                if !done[v] {
                    position[v] = stack.count
                    stack.append((v, 0))
                }
            }
            return nil
        }
        for u in specs.indices where !done[u] {
            guard let (cycle, ref) = visit(u) else { continue }
            let path = cycle.map { MessageText.bare(specs[$0].name) }.joined(separator: " → ")
            throw cx.fail(
                ref.line,
                "\"\(ref.key)\" names \(MessageText.quoted(ref.name)), which closes a cycle of failure requirements: \(path)"
            )
        }
    }
}

/// The file a spec is read from, for errors.
struct SpecContext {
    let file: String
    func fail(_ line: Int, _ message: String) -> SpecError { SpecError(file: file, line: line, message: message) }
}
