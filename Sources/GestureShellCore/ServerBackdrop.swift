import GestureKit

/// The scene's lowest layer when the X server may draw it (RENDER): an opaque picture under an
/// affine transform, sampled with the nearest pixel, with a plain background around it — the
/// motion frames of an enlarged picture (the demo's flower while a pinch moves it). The shell
/// then uploads the picture once and asks the server to resample it each frame, and draws only
/// what lies above it (``ShellScene/drawOverlay(into:overlay:showTouches:)``).
public struct ServerBackdrop {
    /// The picture's pixels, 32 bits each (`0x??RRGGBB`, opaque: the top byte is ignored), rows
    /// ``stride`` bytes apart; valid until the scene draws again.
    public var pixels: UnsafeRawPointer
    public var width: Int
    public var height: Int
    public var stride: Int
    /// Changes whenever the pixels change (the shell uploads them once per identity).
    public var identity: UInt64
    /// The pixel shown wherever the picture is not (`0xFFRRGGBB`).
    public var background: UInt32
    /// Picture pixel → window pixel: x' = xx·x + xy·y + x0, y' = yx·x + yy·y + y0.
    public var xx: Double
    public var yx: Double
    public var xy: Double
    public var yy: Double
    public var x0: Double
    public var y0: Double

    public init(
        pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int, identity: UInt64, background: UInt32,
        xx: Double, yx: Double, xy: Double, yy: Double, x0: Double, y0: Double
    ) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        self.identity = identity
        self.background = background
        self.xx = xx
        self.yx = yx
        self.xy = xy
        self.yy = yy
        self.x0 = x0
        self.y0 = y0
    }
}

/// A scene whose next frame may have its lowest layer drawn by the X server. Read before the
/// frame is drawn, like ``ShellScene/damage``; a scene that never offers one need not conform.
@MainActor
public protocol ServerBackdropScene: ShellScene {
    /// The lowest layer of the next frame when it is a ``ServerBackdrop`` (under a window `scale`
    /// of pixels per point), else nil (the frame is drawn whole by ``draw(into:overlay:showTouches:)``).
    func serverBackdrop(scale: Double) -> ServerBackdrop?
    /// What changed above the backdrop since the last draw (either kind), window points; nil:
    /// all of it.
    var overlayDamage: [Rect]? { get }
    /// Where anything above the backdrop can be drawn, window points (the shell composites the
    /// overlay only there).
    var overlayExtent: [Rect] { get }
    /// Draws everything but the backdrop into a cairo context whose target is transparent,
    /// user space window points (as ``draw(into:overlay:showTouches:)``, which it replaces for
    /// the frame: clears `needsDisplay`).
    func drawOverlay(into cairo: OpaquePointer, overlay: [Point], showTouches: Bool)
}

/// Whether the X server resamples a moving, enlarged picture (RENDER) instead of the client.
///
/// The server's resampling pays where RENDER runs on a GPU (glamor: Xorg's modesetting driver,
/// Xwayland on a GPU): the client then sends a transform and a few composites a frame instead of
/// drawing every pixel. Where the server renders with pixman on the CPU (Xvfb, Xorg's dummy or
/// fbdev driver, Xwayland without a GPU) it costs more than the client's own resampler: at
/// 3840×2160 a turned, enlarged picture took 36–45 ms of Xvfb's CPU a frame (pixman's transformed
/// fetch, about 4 ns a pixel) against the client's 18–21 ms plus 6–8 ms of Xvfb's, so fewer frames
/// were drawn (216–237 against 337–411 in 10 s of 120 Hz input) and input waited longer (p50
/// 23–24 against 17.5–23 ms). Decision: by default the server resamples only where it offers
/// DRI3, which an X server has when a GPU renders for it (docs/performance.md).
public enum ServerResampling: String, Sendable, CaseIterable {
    /// The server where it has RENDER and DRI3 (a GPU renders for it); otherwise the client.
    case auto
    /// The server wherever it has RENDER (tests, and measuring a CPU-rendering server).
    case always
    /// Always the client.
    case never
}
