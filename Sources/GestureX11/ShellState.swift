import GestureKit
import GestureShellCore

/// The shell window's state (docs/DESIGN.md §2): its lifecycle as one value, its size in pixels,
/// and where it stands among the screen, the monitors and a window manager. Owned by
/// `X11Shell+Window.swift` and `X11Shell+Monitors.swift`; events report to it.
struct WindowState {
    /// Mapped, exposed, ready, destroyed, closed (`WindowLifecycle`).
    var lifecycle = WindowLifecycle.live(.unmapped)
    /// The window's size in pixels as drawn.
    var pixelSize = (width: 0, height: 0)
    /// A size the server reported that the scene has not been resized to yet.
    var pendingPixelSize: (width: Int, height: Int)?
    /// The window is a child of the root (no reparenting window manager).
    var parentIsRoot = true
    /// A window manager runs (`_NET_SUPPORTING_WM_CHECK`).
    var hasWindowManager = false
    /// The window is fullscreen now (the F key toggles it).
    var fullscreenNow = false
    /// The geometry to go back to when fullscreen ends.
    var savedGeometry: (x: Int32, y: Int32, w: UInt32, h: UInt32)?
    /// Fullscreen: the monitor (or screen) the window covers (`X11Shell+Monitors.swift`).
    var placement: X11Shell.Placement?
}

/// What drawing needs between frames (docs/DESIGN.md §2): the presenter and the pacer, what must
/// be drawn again, the overlay last drawn, screenshots waiting for a frame. Owned by
/// `X11Shell+Drawing.swift`.
@MainActor
struct DrawingState {
    /// Draws frames into its buffer and puts them on screen (set when the window is made).
    var presenter: Presenter!
    /// When the next frame may be drawn (Present's vertical blanks, or a deadline).
    var pacer: FramePacer!
    /// Screenshots to write once the next frame is drawn.
    var pendingScreenshots: [String] = []
    /// Window pixels exposed since the last frame (drawn again by the next frame).
    var exposedRect: PixelRect?
    /// The next frame is drawn whole (first frame, resize, scale change).
    var forceRedraw = true
    /// The simulated fingers' overlay as the last frame drew it.
    var drawnOverlay: [Point] = []
    /// The X server's resampling of a moving picture (nil without RENDER; `RenderBackdrop`).
    var render: RenderBackdrop?
    /// How the last frame was drawn (`X11Shell.lastFrame`).
    var lastFrame = FrameReport()
}

/// How a frame was drawn: for tests and measurements.
public struct FrameReport: Sendable, Equatable {
    /// Window pixels the client drew with Cairo (and uploaded).
    public var clientPixels = 0
    /// Whether the X server resampled the picture (RENDER, `ServerBackdrop`).
    public var serverResampled = false
}

/// A replay through the live window (`X11Shell.play(_:actions:exitWhenDone:)`, the kiosk's
/// tour): the player, whether the shell quits when it ends, whether its end was reported.
struct Playback {
    var player: ReplayPlayer?
    var exitWhenDone = false
    var reported = false
}
