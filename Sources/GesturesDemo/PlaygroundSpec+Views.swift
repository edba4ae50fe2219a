import GestureKit
import GestureTrace

/// Reading a playground spec's `views` and its delegate conditions (see ``PlaygroundSpec``).
extension PlaygroundSpec {
    static let viewKeys = ["name", "frame", "transform", "parent", "userInteraction"]

    /// The `views` array: each view's parent is `root` or a view listed before it. Names are
    /// looked up in a dictionary: a spec of any number of views reads in linear time.
    static func parseViews(_ value: JSONValue, _ cx: SpecContext) throws(SpecError) -> [ViewSpec] {
        guard case .array(let items) = value.kind else {
            throw cx.fail(value.line, "expected \"views\" to be an array of view objects, got \(value.described)")
        }
        var views: [ViewSpec] = []
        views.reserveCapacity(items.count)
        /// The line of each name's view.
        var lineOfName: [String: Int] = [:]
        for item in items {
            guard case .object(let members) = item.kind else {
                throw cx.fail(item.line, "expected a view object, got \(item.described)")
            }
            var name: String?
            var frame: Rect?
            var view = ViewSpec(
                name: "", line: item.line, frame: .zero, transform: nil, parent: "root", userInteraction: true)
            for m in members {
                let v = m.value
                switch m.key {
                case "name":
                    guard case .string(let s) = v.kind, !s.isEmpty else {
                        throw cx.fail(v.line, "expected \"name\" to be a non-empty string, got \(v.described)")
                    }
                    if s == "root" {
                        throw cx.fail(v.line, "expected a view name other than \"root\" (the full-viewport root view)")
                    }
                    if let other = lineOfName[s] {
                        throw cx.fail(
                            v.line, "duplicate view name \(MessageText.quoted(s)) (first used on line \(other))")
                    }
                    name = s
                case "frame":
                    frame = try self.frame(v, key: "frame", cx)
                case "transform":
                    view.transform = try transform(v, cx)
                case "parent":
                    guard case .string(let s) = v.kind else {
                        throw cx.fail(v.line, "expected \"parent\" to be a view's name, got \(v.described)")
                    }
                    guard s == "root" || lineOfName[s] != nil else {
                        let known = MessageText.list(["root"] + views.map(\.name))
                        throw cx.fail(
                            v.line,
                            "\"parent\" names \(MessageText.quoted(s)), which is not a view listed before this one (known: \(known))"
                        )
                    }
                    view.parent = s
                case "userInteraction":
                    guard case .bool(let b) = v.kind else {
                        throw cx.fail(v.line, "expected \"userInteraction\" to be true or false, got \(v.described)")
                    }
                    view.userInteraction = b
                default:
                    let allowed = viewKeys.joined(separator: ", ")
                    throw cx.fail(
                        m.line, "unknown key \(MessageText.quoted(m.key)) for a view (expected one of \(allowed))")
                }
            }
            guard let name else { throw cx.fail(item.line, "expected a \"name\" in the view object") }
            guard let frame else {
                throw cx.fail(item.line, "expected a \"frame\" [x, y, width, height] in the view object")
            }
            view.name = name
            view.frame = frame
            lineOfName[name] = view.line
            views.append(view)
        }
        return views
    }

    /// A delegate condition: `true`, `false`, or a non-empty object of the named `tests`, all of
    /// which must hold.
    static func condition(
        _ v: JSONValue, key: String, tests: [String], _ cx: SpecContext
    ) throws(SpecError) -> SpecCondition {
        let expected =
            "expected \"\(key)\" to be true, false or a non-empty object of "
            + tests.dropLast().joined(separator: ", ") + " or " + tests.last!
        switch v.kind {
        case .bool(let b):
            return .always(b)
        case .object(let members) where !members.isEmpty:
            var list: [SpecCondition.Test] = []
            for m in members {
                switch m.key {
                case _ where !tests.contains(m.key):
                    throw cx.fail(m.line, "unknown key \(MessageText.quoted(m.key)) in \"\(key)\" (\(expected))")
                case "minTouches", "maxTouches":
                    guard case .int(let n) = try knobValue(m.value, key: m.key, type: .positiveInt, cx) else {
                        continue
                    }
                    list.append(m.key == "minTouches" ? .minTouches(n) : .maxTouches(n))
                case "inRect":
                    list.append(.inRect(try frame(m.value, key: m.key, cx)))
                default:  // touchIds
                    guard case .array(let items) = m.value.kind, !items.isEmpty else {
                        throw cx.fail(
                            m.value.line,
                            "expected \"touchIds\" to be a non-empty array of integers, got \(m.value.described)")
                    }
                    var ids: [Int] = []
                    for i in items {
                        guard case .number(_, let id?) = i.kind else {
                            throw cx.fail(
                                i.line, "expected \"touchIds\" to be a non-empty array of integers, got \(i.described)")
                        }
                        ids.append(id)
                    }
                    list.append(.touchIDs(ids))
                }
            }
            return .all(list)
        default:
            throw cx.fail(v.line, "\(expected), got \(v.described)")
        }
    }
}
