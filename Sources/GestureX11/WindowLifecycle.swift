/// The shell window's life as one value (docs/DESIGN.md §2): how far it got, whether another
/// client destroyed it, and whether the shell has closed. `X11Shell` asks it instead of keeping
/// a flag per event.
///
/// ```
/// unmapped ─run─▶ mapping ─MapNotify─▶ mapped ─Expose─▶ exposed ─first frame─▶ ready
///     └──────────────┴────────────────────┴────────────────┴────────────────────┴─▶ destroyed(stage)
///  any ─run returns─▶ closed
/// ```
///
/// Stages only go forward: an unmapped (iconified) window keeps its stage, and so do its frames
/// and timers. The server sends a window's MapNotify before its first Expose (MapWindow reports
/// the map, then the exposures), so an Expose implies the map; an event that arrives out of
/// this order never moves the stage back. A window destroyed by another client keeps the stage
/// it reached (a last screenshot or log line still knows whether there was a frame) and is never
/// destroyed again; a closed shell (its connection gone) answers nothing.
enum WindowLifecycle: Equatable, Sendable {
    /// How far the window got; each stage implies the ones before it.
    enum Stage: Int, Comparable, Sendable {
        /// Created, not yet mapped (``X11Shell/run(scene:beforeExit:)`` maps it).
        case unmapped
        /// Mapped by the shell; the server has not reported it yet.
        case mapping
        /// The server reported the map (placement applied once, here).
        case mapped
        /// Exposed: frames may be drawn.
        case exposed
        /// The first frame is on screen (the ready report has gone).
        case ready

        static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }
    }

    /// The window exists and the shell owns it.
    case live(Stage)
    /// Another client destroyed the window at `Stage`; the loop is ending.
    case destroyed(Stage)
    /// ``X11Shell/run(scene:beforeExit:)`` returned: the window and the connection are gone.
    case closed

    /// The stage reached; nil once closed.
    var stage: Stage? {
        switch self {
        case .live(let s), .destroyed(let s): s
        case .closed: nil
        }
    }

    /// The server has reported the window mapped (at some point).
    var hasBeenMapped: Bool { (stage ?? .unmapped) >= .mapped }
    /// The window has been exposed: frames may be drawn.
    var hasBeenExposed: Bool { (stage ?? .unmapped) >= .exposed }
    /// The first frame is on screen.
    var isReady: Bool { (stage ?? .unmapped) >= .ready }
    /// The window still exists on the server (the shell destroys it when it closes).
    var windowExists: Bool { if case .live = self { true } else { false } }
    /// The shell has closed: nothing may reach the server again.
    var isClosed: Bool { self == .closed }

    /// Moves to `stage` if that is further; true when it did.
    private mutating func advance(to stage: Stage) -> Bool {
        switch self {
        case .live(let s) where s < stage:
            self = .live(stage)
            return true
        case .destroyed(let s) where s < stage:
            self = .destroyed(stage)
            return true
        default:
            return false
        }
    }

    /// The shell mapped the window.
    mutating func mapRequested() { _ = advance(to: .mapping) }

    /// A MapNotify: true the first time (when the placement is applied).
    mutating func mapNotified() -> Bool { advance(to: .mapped) }

    /// An Expose.
    mutating func exposed() { _ = advance(to: .exposed) }

    /// A frame was presented: true for the first (when the ready report goes).
    mutating func framePresented() -> Bool { hasBeenExposed && advance(to: .ready) }

    /// Another client destroyed the window.
    mutating func destroyedByOther() {
        if case .live(let s) = self { self = .destroyed(s) }
    }

    /// The shell closed (its last act: the connection goes next).
    mutating func close() { self = .closed }
}
