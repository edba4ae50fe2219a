import GestureKit

/// The playground's delegate, one for every recognizer of a ``PlaygroundScene``: it answers
/// UIKit's delegate questions from the spec's data (`shouldBegin`, `shouldReceive`,
/// `simultaneousWith`, `shouldRequireFailureOf`, `shouldBeRequiredToFailBy`). UIKit:
/// `UIGestureRecognizerDelegate`, written as a table instead of code.
@MainActor
final class PlaygroundDelegate: GestureRecognizerDelegate {
    struct Rules {
        var shouldBegin: SpecCondition?
        var shouldReceive: SpecCondition?
        var simultaneousWith: [ObjectIdentifier] = []
        var requireFailureOf: [ObjectIdentifier] = []
        var beRequiredToFailBy: [ObjectIdentifier] = []
    }

    var rules: [ObjectIdentifier: Rules] = [:]

    /// Asked when the recognizer is about to leave `possible`: its `numberOfTouches` and its
    /// location (window points) at that moment.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        guard let c = rules[ObjectIdentifier(recognizer)]?.shouldBegin else { return true }
        return Self.holds(c, touches: recognizer.numberOfTouches, location: recognizer.location(in: nil), id: nil)
    }

    /// Asked once per touch at touch-down: its id and its window location then.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        guard let c = rules[ObjectIdentifier(recognizer)]?.shouldReceive else { return true }
        return Self.holds(c, touches: nil, location: touch.locationInWindow, id: touch.id)
    }

    /// True when either recognizer names the other in `simultaneousWith`.
    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        let a = ObjectIdentifier(recognizer)
        let b = ObjectIdentifier(other)
        return rules[a]?.simultaneousWith.contains(b) == true || rules[b]?.simultaneousWith.contains(a) == true
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
        rules[ObjectIdentifier(recognizer)]?.requireFailureOf.contains(ObjectIdentifier(other)) == true
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer)
        -> Bool
    {
        rules[ObjectIdentifier(recognizer)]?.beRequiredToFailBy.contains(ObjectIdentifier(other)) == true
    }

    /// Whether a condition holds; a test about something not given (`touches` for a touch,
    /// `id` for a recognizer) holds (the spec reader does not let one be written there).
    static func holds(_ c: SpecCondition, touches: Int?, location: Point, id: Int?) -> Bool {
        switch c {
        case .always(let b): return b
        case .all(let tests):
            return tests.allSatisfy { test in
                switch test {
                case .minTouches(let n): touches.map { $0 >= n } ?? true
                case .maxTouches(let n): touches.map { $0 <= n } ?? true
                case .inRect(let r): r.contains(location)
                case .touchIDs(let ids): id.map { ids.contains($0) } ?? true
                }
            }
        }
    }
}
