import GestureKit

/// A `set` line of a JSON Lines trace (docs/DESIGN.md §4.1): at ``timestamp`` the app sets
/// properties of the recognizer named ``recognizer``, as a UIKit app would from code.
///
/// ```
/// {"type":"set","t":0.5,"recognizer":"pan","isEnabled":false}
/// {"type":"set","t":0.5,"recognizer":"pan","translation":[0,0]}
/// {"type":"set","t":0.7,"recognizer":"pinch","scale":1}
/// ```
///
/// The trace reader checks the line alone (its keys and their value types); which recognizers
/// exist, and whether one has the property, is for the scene that replays the trace to check
/// (`GesturesDemo.bind(_:to:)`), before anything is replayed. UIKit has no counterpart: this is
/// the replay side of the project.
public struct TraceAction: Equatable, Sendable {
    /// One property set.
    public enum Setting: Equatable, Sendable {
        /// UIKit: `isEnabled`. False cancels an active gesture (docs/DESIGN.md §3).
        case isEnabled(Bool)
        /// UIKit: `cancelsTouchesInView`.
        case cancelsTouchesInView(Bool)
        /// UIKit: `setTranslation(_:in: nil)`, window points: re-bases the translation and zeroes
        /// the velocity (pan and screen-edge pan).
        case translation(Vector)
        /// UIKit: setting `UIPinchGestureRecognizer.scale`: re-bases and zeroes the velocity.
        case scale(Double)
        /// UIKit: setting `UIRotationGestureRecognizer.rotation` (radians): re-bases and zeroes
        /// the velocity.
        case rotation(Double)

        /// The key of the setting in a `set` line.
        public var key: String {
            switch self {
            case .isEnabled: "isEnabled"
            case .cancelsTouchesInView: "cancelsTouchesInView"
            case .translation: "translation"
            case .scale: "scale"
            case .rotation: "rotation"
            }
        }

        /// The keys a `set` line may set, in the order error messages list them.
        public static let keys = ["isEnabled", "cancelsTouchesInView", "translation", "scale", "rotation"]
    }

    /// When, seconds (the trace's clock).
    public var timestamp: Double
    /// The name of the recognizer, as in the event log.
    public var recognizer: String
    /// What to set, in the order written on the line.
    public var settings: [Setting]
    /// Where it happens among the trace's input events: before `Trace.events[position]` and
    /// after every event before it (equal times keep the file's order).
    public var position: Int
    /// The trace file and the 1-based line, for errors found when the action is bound to a scene.
    public var file: String
    public var line: Int

    public init(timestamp: Double, recognizer: String, settings: [Setting], position: Int, file: String, line: Int) {
        self.timestamp = timestamp
        self.recognizer = recognizer
        self.settings = settings
        self.position = position
        self.file = file
        self.line = line
    }

    /// An error about this action's line.
    public func error(_ message: String) -> TraceError {
        TraceError(file: file, line: line, message: message)
    }
}
