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
}

/// One recognizer of a playground spec (DESIGN.md §4.3).
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
}

/// A recognizer playground (`gestures replay --recognizers SPEC`), DESIGN.md §4.3: a JSON array
/// of recognizer objects with UIKit's knob names.
///
/// ```json
/// [{"name":"double","kind":"tap","numberOfTapsRequired":2},
///  {"name":"single","kind":"tap","requireToFail":["double"]},
///  {"name":"img","kind":"pan","frame":[100,100,200,100],"transform":[0,1,-1,0,0,0]}]
/// ```
///
/// Keys every recognizer takes: `name`, `kind`, `frame` `[x,y,w,h]`, `transform`
/// `[a,b,c,d,tx,ty]` (about the frame's centre; needs a frame), `requireToFail` and
/// `simultaneousWith` (arrays of names), `isEnabled`, `cancelsTouchesInView`. Kind knobs:
/// tap `numberOfTapsRequired`, `numberOfTouchesRequired`; longPress `minimumPressDuration`,
/// `allowableMovement`, `numberOfTouchesRequired`, `numberOfTapsRequired`; swipe `direction`
/// (array of `right left up down`), `numberOfTouchesRequired`; pan `minimumNumberOfTouches`,
/// `maximumNumberOfTouches`; screenEdgePan `edges` (array of `left right top bottom`) and the
/// pan knobs; pinch, rotation and shake none. Anything else is an error naming the line.
public struct PlaygroundSpec: Equatable, Sendable {
    public var recognizers: [RecognizerSpec]

    public init(recognizers: [RecognizerSpec]) { self.recognizers = recognizers }

    enum KnobType {
        case positiveInt, nonNegativeInt, nonNegativeDouble, directions, edges, bool
    }

    static let commonKeys = [
        "name", "kind", "frame", "transform", "requireToFail", "simultaneousWith", "isEnabled", "cancelsTouchesInView",
    ]

    static func knobs(of kind: GestureKind) -> [(String, KnobType)] {
        let pan: [(String, KnobType)] = [
            ("minimumNumberOfTouches", .positiveInt), ("maximumNumberOfTouches", .positiveInt),
        ]
        switch kind {
        case .tap: return [("numberOfTapsRequired", .positiveInt), ("numberOfTouchesRequired", .positiveInt)]
        case .longPress:
            return [
                ("minimumPressDuration", .nonNegativeDouble), ("allowableMovement", .nonNegativeDouble),
                ("numberOfTouchesRequired", .positiveInt), ("numberOfTapsRequired", .nonNegativeInt),
            ]
        case .swipe: return [("direction", .directions), ("numberOfTouchesRequired", .positiveInt)]
        case .pan: return pan
        case .screenEdgePan: return [("edges", .edges)] + pan
        case .pinch, .rotation, .shake: return []
        }
    }

    static let kindList = GestureKind.allCases.map(\.rawValue).joined(separator: ", ")

    /// Reads a spec file. Errors name `path` as given.
    public static func load(path: String) throws(SpecError) -> PlaygroundSpec {
        guard let bytes = TraceReader.readAll(path) else {
            throw SpecError(file: path, line: 0, message: "cannot read the file")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// Parses spec text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(SpecError) -> PlaygroundSpec {
        func fail(_ line: Int, _ message: String) -> SpecError { SpecError(file: file, line: line, message: message) }
        let root: JSONValue
        do {
            root = try JSONParser.parse(text, style: .document(expecting: "a JSON array"))
        } catch {
            throw fail(error.line, error.message)
        }
        guard case .array(let items) = root.kind else {
            throw fail(root.line, "expected an array of recognizer objects, got \(root.described)")
        }
        var specs: [RecognizerSpec] = []
        // References are checked once every name is known: (line, key, name, owner index).
        var references: [(line: Int, key: String, name: String, owner: Int)] = []
        for item in items {
            guard case .object(let members) = item.kind else {
                throw fail(item.line, "expected a recognizer object, got \(item.described)")
            }
            guard let kindMember = members.first(where: { $0.key == "kind" }) else {
                throw fail(item.line, "expected a \"kind\" (one of \(kindList)) in the recognizer object")
            }
            guard case .string(let kindName) = kindMember.value.kind, let kind = GestureKind(rawValue: kindName) else {
                throw fail(
                    kindMember.value.line,
                    "unknown kind \(kindMember.value.described) (expected one of \(kindList))")
            }
            var spec = RecognizerSpec(
                name: kind.rawValue, kind: kind, line: item.line, knobs: [], frame: nil, transform: nil,
                requireToFail: [], simultaneousWith: [])
            let kindKnobs = knobs(of: kind)
            var transformLine = 0
            for m in members {
                let v = m.value
                switch m.key {
                case "kind": continue
                case "name":
                    guard case .string(let s) = v.kind, !s.isEmpty else {
                        throw fail(v.line, "expected \"name\" to be a non-empty string, got \(v.described)")
                    }
                    if let other = specs.first(where: { $0.name == s }) {
                        throw fail(v.line, "duplicate recognizer name \"\(s)\" (first used on line \(other.line))")
                    }
                    spec.name = s
                case "frame":
                    guard let n = numbers(v, count: 4), n[2] >= 0, n[3] >= 0 else {
                        throw fail(
                            v.line,
                            "expected \"frame\" to be [x, y, width, height] (width and height ≥ 0), got \(v.described)")
                    }
                    spec.frame = Rect(x: n[0], y: n[1], width: n[2], height: n[3])
                case "transform":
                    guard let n = numbers(v, count: 6) else {
                        throw fail(v.line, "expected \"transform\" to be [a, b, c, d, tx, ty], got \(v.described)")
                    }
                    let t = AffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5])
                    guard t.determinant != 0 else {
                        throw fail(v.line, "expected \"transform\" to be invertible (a·d − b·c ≠ 0)")
                    }
                    spec.transform = t
                    transformLine = v.line
                case "requireToFail", "simultaneousWith":
                    guard case .array(let names) = v.kind else {
                        throw fail(
                            v.line, "expected \"\(m.key)\" to be an array of recognizer names, got \(v.described)")
                    }
                    var list: [String] = []
                    for n in names {
                        guard case .string(let s) = n.kind else {
                            throw fail(
                                n.line, "expected \"\(m.key)\" to be an array of recognizer names, got \(n.described)")
                        }
                        list.append(s)
                        references.append((n.line, m.key, s, specs.count))
                    }
                    if m.key == "requireToFail" { spec.requireToFail = list } else { spec.simultaneousWith = list }
                case "isEnabled", "cancelsTouchesInView":
                    guard case .bool(let b) = v.kind else {
                        throw fail(v.line, "expected \"\(m.key)\" to be true or false, got \(v.described)")
                    }
                    spec.knobs.append(.init(name: m.key, value: .bool(b)))
                default:
                    guard let (_, type) = kindKnobs.first(where: { $0.0 == m.key }) else {
                        let allowed = (commonKeys + kindKnobs.map(\.0)).joined(separator: ", ")
                        throw fail(
                            m.line,
                            "unknown key \"\(m.key)\" for a \(kind.rawValue) recognizer (expected one of \(allowed))")
                    }
                    spec.knobs.append(.init(name: m.key, value: try knobValue(v, key: m.key, type: type, fail: fail)))
                }
            }
            if spec.transform != nil && spec.frame == nil {
                throw fail(
                    transformLine, "expected a \"frame\" with the \"transform\" (it applies about the frame's centre)")
            }
            specs.append(spec)
        }
        for ref in references {
            if ref.name == specs[ref.owner].name {
                throw fail(ref.line, "\"\(ref.key)\" names \"\(ref.name)\", the recognizer itself")
            }
            guard specs.contains(where: { $0.name == ref.name }) else {
                let known = specs.map(\.name).joined(separator: ", ")
                throw fail(
                    ref.line,
                    "\"\(ref.key)\" names \"\(ref.name)\", which is not a recognizer of this spec (known: \(known))")
            }
        }
        // Recognizers with the same frame share one subview: their transforms must agree.
        for (i, s) in specs.enumerated() {
            guard let f = s.frame, let t = s.transform else { continue }
            for o in specs[..<i] where o.frame == f {
                if let ot = o.transform, ot != t {
                    throw fail(
                        s.line,
                        "\"transform\" differs from that of \"\(o.name)\" (line \(o.line)), which has the same frame")
                }
            }
        }
        return PlaygroundSpec(recognizers: specs)
    }

    private static func numbers(_ v: JSONValue, count: Int) -> [Double]? {
        guard case .array(let items) = v.kind, items.count == count else { return nil }
        var out: [Double] = []
        for i in items {
            guard case .number(let n, _) = i.kind else { return nil }
            out.append(n)
        }
        return out
    }

    private static func knobValue(
        _ v: JSONValue, key: String, type: KnobType, fail: (Int, String) -> SpecError
    ) throws(SpecError) -> KnobValue {
        switch type {
        case .positiveInt, .nonNegativeInt:
            let minimum = type == .positiveInt ? 1 : 0
            guard case .number(let n, _) = v.kind, n == n.rounded(), n >= Double(minimum), n <= 1_000_000 else {
                throw fail(v.line, "expected \"\(key)\" to be a whole number ≥ \(minimum), got \(v.described)")
            }
            return .int(Int(n))
        case .nonNegativeDouble:
            guard case .number(let n, _) = v.kind, n >= 0 else {
                throw fail(v.line, "expected \"\(key)\" to be a number ≥ 0, got \(v.described)")
            }
            return .double(n)
        case .bool:
            guard case .bool(let b) = v.kind else {
                throw fail(v.line, "expected \"\(key)\" to be true or false, got \(v.described)")
            }
            return .bool(b)
        case .directions:
            return .directions(try optionSet(v, key: key, named: SwipeDirection.named, fail: fail))
        case .edges:
            return .edges(try optionSet(v, key: key, named: RectEdge.named, fail: fail))
        }
    }

    /// A non-empty array of the names in `named` (a swipe's directions, a screen-edge pan's
    /// edges), as the union of their options.
    private static func optionSet<T: OptionSet>(
        _ v: JSONValue, key: String, named: [(String, T)], fail: (Int, String) -> SpecError
    ) throws(SpecError) -> T where T.Element == T {
        let message = "expected \"\(key)\" to be a non-empty array of " + named.map(\.0).joined(separator: ", ")
        guard case .array(let items) = v.kind, !items.isEmpty else {
            throw fail(v.line, "\(message), got \(v.described)")
        }
        var set: T = []
        for i in items {
            guard case .string(let s) = i.kind, let option = named.first(where: { $0.0 == s })?.1 else {
                throw fail(i.line, "\(message), got \(i.described)")
            }
            set.insert(option)
        }
        return set
    }
}
