import GestureKit
import GestureTrace

/// Reading one recognizer object of a playground spec (see ``PlaygroundSpec`` for the keys).
extension PlaygroundSpec {
    enum KnobType {
        case positiveInt, nonNegativeInt, nonNegativeDouble, directions, edges, scrollTypes, bool
    }

    static let commonKeys = [
        "name", "kind", "view", "frame", "transform", "requireToFail", "simultaneousWith", "shouldBegin",
        "shouldReceive", "shouldRequireFailureOf", "shouldBeRequiredToFailBy", "isEnabled", "cancelsTouchesInView",
    ]

    /// The keys that take an array of recognizer names.
    static let nameListKeys = [
        "requireToFail", "simultaneousWith", "shouldRequireFailureOf", "shouldBeRequiredToFailBy",
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
        case .pan: return pan + [("allowedScrollTypesMask", .scrollTypes)]
        case .screenEdgePan: return [("edges", .edges)] + pan
        default: return []  // pinch, rotation, shake
        }
    }

    /// The keys of `kind` beyond the common ones, in the order error messages list them.
    static func kindKeys(of kind: GestureKind) -> [String] {
        knobs(of: kind).map(\.0) + (kind == .pan || kind == .screenEdgePan ? ["reportIn"] : [])
    }

    static let kindList = GestureKind.allCases.map(\.rawValue).joined(separator: ", ")

    /// One recognizer object. Names it refers to are added to `references` (checked later);
    /// `known` are the names of the recognizers before it (each with the line of its first
    /// use), `viewNames` those of the views: dictionaries, so that a spec of 30k recognizers
    /// reads in linear time. `owner` is its index.
    static func parseRecognizer(
        _ item: JSONValue, views: [ViewSpec], viewNames: Set<String>, known: [String: Int], owner: Int,
        references: inout [Reference], _ cx: SpecContext
    ) throws(SpecError) -> RecognizerSpec {
        guard case .object(let members) = item.kind else {
            throw cx.fail(item.line, "expected a recognizer object, got \(item.described)")
        }
        guard let kindMember = members.first(where: { $0.key == "kind" }) else {
            throw cx.fail(item.line, "expected a \"kind\" (one of \(kindList)) in the recognizer object")
        }
        guard case .string(let kindName) = kindMember.value.kind,
            let kind = GestureKind.allCases.first(where: { $0.rawValue == kindName })
        else {
            throw cx.fail(
                kindMember.value.line, "unknown kind \(kindMember.value.described) (expected one of \(kindList))")
        }
        var spec = RecognizerSpec(
            name: kind.rawValue, kind: kind, line: item.line, knobs: [], frame: nil, transform: nil,
            requireToFail: [], simultaneousWith: [])
        let kindKnobs = knobs(of: kind)
        var transformLine = 0
        var viewLine = 0
        for m in members {
            let v = m.value
            switch m.key {
            case "kind": continue
            case "name":
                guard case .string(let s) = v.kind, !s.isEmpty else {
                    throw cx.fail(v.line, "expected \"name\" to be a non-empty string, got \(v.described)")
                }
                if let other = known[s] {
                    throw cx.fail(
                        v.line, "duplicate recognizer name \(MessageText.quoted(s)) (first used on line \(other))")
                }
                spec.name = s
            case "view":
                guard case .string(let s) = v.kind else {
                    throw cx.fail(v.line, "expected \"view\" to be a view's name, got \(v.described)")
                }
                guard s == "root" || viewNames.contains(s) else {
                    let known = MessageText.list(["root"] + views.map(\.name))
                    throw cx.fail(
                        v.line,
                        "\"view\" names \(MessageText.quoted(s)), which is not a view of this spec (known: \(known))")
                }
                spec.view = s
                viewLine = v.line
            case "frame":
                spec.frame = try frame(v, key: "frame", cx)
            case "transform":
                spec.transform = try transform(v, cx)
                transformLine = v.line
            case _ where nameListKeys.contains(m.key):
                guard case .array(let names) = v.kind else {
                    throw cx.fail(
                        v.line, "expected \"\(m.key)\" to be an array of recognizer names, got \(v.described)")
                }
                var list: [String] = []
                for n in names {
                    guard case .string(let s) = n.kind else {
                        throw cx.fail(
                            n.line, "expected \"\(m.key)\" to be an array of recognizer names, got \(n.described)")
                    }
                    list.append(s)
                    references.append(Reference(line: n.line, key: m.key, name: s, owner: owner))
                }
                switch m.key {
                case "requireToFail": spec.requireToFail = list
                case "simultaneousWith": spec.simultaneousWith = list
                case "shouldRequireFailureOf": spec.shouldRequireFailureOf = list
                default: spec.shouldBeRequiredToFailBy = list
                }
            case "shouldBegin":
                spec.shouldBegin = try condition(v, key: m.key, tests: ["minTouches", "maxTouches", "inRect"], cx)
            case "shouldReceive":
                spec.shouldReceive = try condition(v, key: m.key, tests: ["inRect", "touchIds"], cx)
            case "isEnabled", "cancelsTouchesInView":
                spec.knobs.append(.init(name: m.key, value: try knobValue(v, key: m.key, type: .bool, cx)))
            case "reportIn" where kind == .pan || kind == .screenEdgePan:
                guard case .string(let s) = v.kind, let space = ReportSpace(rawValue: s) else {
                    throw cx.fail(
                        v.line, "expected \"reportIn\" to be one of window, view, superview, got \(v.described)")
                }
                spec.reportIn = space
            default:
                guard let (_, type) = kindKnobs.first(where: { $0.0 == m.key }) else {
                    let allowed = (commonKeys + kindKeys(of: kind)).joined(separator: ", ")
                    throw cx.fail(
                        m.line,
                        "unknown key \(MessageText.quoted(m.key)) for a \(kind.rawValue) recognizer (expected one of \(allowed))"
                    )
                }
                spec.knobs.append(.init(name: m.key, value: try knobValue(v, key: m.key, type: type, cx)))
            }
        }
        if spec.view != nil && (spec.frame != nil || spec.transform != nil) {
            throw cx.fail(
                viewLine, "expected \"view\" or \"frame\" (and \"transform\"), not both: a named view has its own frame"
            )
        }
        if spec.transform != nil && spec.frame == nil {
            throw cx.fail(
                transformLine, "expected a \"frame\" with the \"transform\" (it applies about the frame's centre)")
        }
        return spec
    }

    /// `[x, y, width, height]`, width and height ≥ 0.
    static func frame(_ v: JSONValue, key: String, _ cx: SpecContext) throws(SpecError) -> Rect {
        guard let n = numbers(v, count: 4), n[2] >= 0, n[3] >= 0 else {
            throw cx.fail(
                v.line, "expected \"\(key)\" to be [x, y, width, height] (width and height ≥ 0), got \(v.described)")
        }
        return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    /// `[a, b, c, d, tx, ty]`, invertible.
    static func transform(_ v: JSONValue, _ cx: SpecContext) throws(SpecError) -> AffineTransform {
        guard let n = numbers(v, count: 6) else {
            throw cx.fail(v.line, "expected \"transform\" to be [a, b, c, d, tx, ty], got \(v.described)")
        }
        let t = AffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5])
        guard t.determinant != 0 else {
            throw cx.fail(v.line, "expected \"transform\" to be invertible (a·d − b·c ≠ 0)")
        }
        return t
    }

    static func numbers(_ v: JSONValue, count: Int) -> [Double]? {
        guard case .array(let items) = v.kind, items.count == count else { return nil }
        var out: [Double] = []
        for i in items {
            guard case .number(let n, _) = i.kind else { return nil }
            out.append(n)
        }
        return out
    }

    static func knobValue(
        _ v: JSONValue, key: String, type: KnobType, _ cx: SpecContext
    ) throws(SpecError) -> KnobValue {
        switch type {
        case .positiveInt, .nonNegativeInt:
            let minimum = type == .positiveInt ? 1 : 0
            guard case .number(let n, _) = v.kind, n == n.rounded(), n >= Double(minimum), n <= 1_000_000 else {
                throw cx.fail(v.line, "expected \"\(key)\" to be a whole number ≥ \(minimum), got \(v.described)")
            }
            return .int(Int(n))
        case .nonNegativeDouble:
            guard case .number(let n, _) = v.kind, n >= 0 else {
                throw cx.fail(v.line, "expected \"\(key)\" to be a number ≥ 0, got \(v.described)")
            }
            return .double(n)
        case .bool:
            guard case .bool(let b) = v.kind else {
                throw cx.fail(v.line, "expected \"\(key)\" to be true or false, got \(v.described)")
            }
            return .bool(b)
        case .directions:
            return .directions(try optionSet(v, key: key, named: SwipeDirection.named, cx))
        case .edges:
            return .edges(try optionSet(v, key: key, named: RectEdge.named, cx))
        case .scrollTypes:
            let named = ScrollType.allCases.map { ($0.rawValue, ScrollTypeMask($0)) }
            return .scrollTypes(try optionSet(v, key: key, named: named, cx))
        }
    }

    /// A non-empty array of the names in `named` (a swipe's directions, a screen-edge pan's
    /// edges), as the union of their options.
    private static func optionSet<T: OptionSet>(
        _ v: JSONValue, key: String, named: [(String, T)], _ cx: SpecContext
    ) throws(SpecError) -> T where T.Element == T {
        let message = "expected \"\(key)\" to be a non-empty array of " + named.map(\.0).joined(separator: ", ")
        guard case .array(let items) = v.kind, !items.isEmpty else {
            throw cx.fail(v.line, "\(message), got \(v.described)")
        }
        var set: T = []
        for i in items {
            guard case .string(let s) = i.kind, let option = named.first(where: { $0.0 == s })?.1 else {
                throw cx.fail(i.line, "\(message), got \(i.described)")
            }
            set.insert(option)
        }
        return set
    }
}
