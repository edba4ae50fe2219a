import GestureKit

/// The event-log writer of docs/DESIGN.md §4.2: one JSON line per recognizer state transition.
/// UIKit has no counterpart (it is this project's observable output).
@MainActor
public enum EventLog {
    /// One gesture line, without a trailing newline. Keys, in order: `type` (`"gesture"`), `t`,
    /// `recognizer` (its name), `kind`, `state`, `x`, `y` (window points), `touches`, the kind's
    /// fields, then `label` when `label` is not nil.
    ///
    /// Kind fields: tap `taps` (its `touches` value is the one `touches` key: the number of
    /// fingers of the tap, rather than the touches still tracked at that instant); swipe
    /// `direction`; pan `translation` `[dx,dy]`, `velocity` `[vx,vy]`; screenEdgePan the same plus
    /// `edge`; pinch `scale`, `velocity`; rotation `rotation`, `velocity`; longPress and shake
    /// none. Numbers go through ``formatNumber(_:)``.
    public static func line(for transition: GestureTransition, label: String?) -> String {
        line(for: transition, values: transition.values, label: label)
    }

    /// As ``line(for:label:)`` with the kind fields taken from `values` instead of the
    /// transition's: the recognizer playground reports a pan's translation and velocity in
    /// another view's coordinates this way (its `reportIn`).
    public static func line(for transition: GestureTransition, values: GestureValues, label: String?) -> String {
        var j = JSONLine()
        j.add("type", "gesture")
        j.add("t", transition.time)
        j.add("recognizer", transition.recognizer.name)
        j.add("kind", transition.recognizer.kind.rawValue)
        j.add("state", transition.state.rawValue)
        j.add("x", transition.location.x)
        j.add("y", transition.location.y)
        j.add("touches", transition.numberOfTouches)
        switch values {
        case .tap(let taps, let touches):
            j.add("touches", touches)
            j.add("taps", taps)
        case .longPress, .shake, .stateOnly:
            break
        case .swipe(let direction):
            j.add("direction", direction.description)
        case .pan(let translation, let velocity):
            j.add("translation", [translation.dx, translation.dy])
            j.add("velocity", [velocity.dx, velocity.dy])
        case .screenEdgePan(let translation, let velocity, let edge):
            j.add("translation", [translation.dx, translation.dy])
            j.add("velocity", [velocity.dx, velocity.dy])
            j.add("edge", edge.description)
        case .pinch(let scale, let velocity):
            j.add("scale", scale)
            j.add("velocity", velocity)
        case .rotation(let rotation, let velocity):
            j.add("rotation", rotation)
            j.add("velocity", velocity)
        }
        if let label { j.add("label", label) }
        return j.text
    }
}
