import GestureKit
import GestureShellCore

/// The kiosk's policy, as a scene around the demo scene (it left the X11 shell, which knows only
/// windows and input): after ``resetDelay`` seconds without anyone there the picture goes back
/// to its place; after ``tourDelay`` the attract tour plays, again ``tourGap`` seconds after it
/// ends, until someone touches — that stops it at once (its touches cancelled) and puts the scene
/// back.
///
/// "Someone there" is what the shell reports through ``noteActivity(at:)``: real input (not a
/// replay, not the tour), hover motion, and fingers held down. Its timers are the scene's timers
/// (``nextDeadline``/``advance(to:)``), so the shell sleeps until the next one, and a headless
/// test drives them on a virtual clock.
@MainActor
public final class KioskDirector: ShellScene {
    /// The demo scene everything else is passed to (``replace(scene:at:)`` swaps it).
    public private(set) var scene: DemoScene
    /// Seconds without activity before the picture is put back (default 60).
    public var resetDelay = 60.0
    /// Seconds without activity before the tour plays (default 90).
    public var tourDelay = 90.0
    /// The pause between two plays of the tour (default 30).
    public var tourGap = 30.0
    /// The tour for the window's current size in points (nil: no tour).
    /// Each play of the tour opens it again (a tour streamed from its file is read anew).
    public var tour: ((Size) -> ReplayEvents)?
    /// The operator log's kiosk events, with the scene time: `reset` (the idle reset),
    /// `tourStart`, `tourEnd` (it played to its end), `tourStop` (a visitor stopped it).
    public var onEvent: ((String, Double) -> Void)?
    /// Whether the scene's input comes from the tour now: while it plays and while a visitor's
    /// arrival cancels its touches (the operator log's `"source":"tour"`).
    public var tourDrivesInput: Bool { isTouring || stoppingTour }
    private var stoppingTour = false

    private var size = Size.zero
    private var lastFed = 0.0
    private var lastActivity = 0.0
    private var resetDone = true
    private var nextTourAt = Double.infinity
    private var player: ReplayPlayer?

    public init(scene: DemoScene) {
        self.scene = scene
    }

    /// Whether the tour is playing now.
    public var isTouring: Bool { player?.isPlaying == true }

    public func resize(to size: Size, at time: Double) {
        if self.size == .zero {
            // The first layout: the kiosk's timers start now.
            lastActivity = time
            nextTourAt = time + tourDelay
        }
        self.size = size
        note(time)
        scene.resize(to: size, at: time)
    }

    public func handle(_ event: InputEvent) {
        note(event.timestamp)
        scene.handle(event)
    }

    public func noteActivity(at time: Double) {
        note(time)
        if let p = player, p.isPlaying {
            stoppingTour = true
            for e in p.stop(at: lastFed) { scene.handle(e) }
            scene.resetAfterIdle(at: lastFed)
            stoppingTour = false
            onEvent?("tourStop", lastFed)
        }
        lastActivity = time
        resetDone = false
        nextTourAt = time + tourDelay
    }

    public var nextDeadline: Double? {
        var d = scene.nextDeadline ?? .infinity
        if let p = player?.nextDeadline { d = min(d, p) }
        if !resetDone { d = min(d, lastActivity + resetDelay) }
        if tour != nil && !isTouring { d = min(d, nextTourAt) }
        return d.isFinite ? d : nil
    }

    public func advance(to time: Double) {
        note(time)
        scene.advance(to: lastFed)
        if let p = player, p.isPlaying {
            for e in p.due(at: time, notBefore: lastFed) {
                note(e.timestamp)
                scene.handle(e)
            }
            if p.isFinished {
                nextTourAt = time + tourGap
                onEvent?("tourEnd", lastFed)
            }
        }
        if !resetDone && time >= lastActivity + resetDelay {
            resetDone = true
            scene.resetAfterIdle(at: lastFed)
            onEvent?("reset", lastFed)
        }
        if let tour, !isTouring, time >= nextTourAt {
            // A new player each time: the window may have changed size since the last tour.
            let p = ReplayPlayer(source: tour(size), idOffset: 2_000_000)
            player = p
            scene.resetAfterIdle(at: lastFed)
            p.begin(at: lastFed)
            nextTourAt = .infinity
            onEvent?("tourStart", lastFed)
        }
    }

    /// Puts `newScene` (made for the current size) in place of the scene — a reload with another
    /// picture: a playing tour stops (its touches cancelled in the old scene), and the idle
    /// timers start again from `time`.
    public func replace(scene newScene: DemoScene, at time: Double) {
        note(time)
        if let p = player, p.isPlaying {
            for e in p.stop(at: lastFed) { scene.handle(e) }
            onEvent?("tourStop", lastFed)
        }
        scene = newScene
        newScene.resize(to: size, at: lastFed)
        restartTimers(at: lastFed)
    }

    /// Starts the idle timers again from `time` with the current delays (after a reload); a
    /// playing tour plays on.
    public func restartTimers(at time: Double) {
        note(time)
        lastActivity = lastFed
        resetDone = true
        if !isTouring { nextTourAt = lastFed + tourDelay }
    }

    private func note(_ time: Double) {
        if time > lastFed { lastFed = time }
    }

    // Everything else is the demo scene's.
    public func perform(_ command: KeyCommand, at time: Double) { scene.perform(command, at: time) }
    public func resetAfterIdle(at time: Double) { scene.resetAfterIdle(at: time) }
    public func mirrorCenter(for point: Point) -> Point { scene.mirrorCenter(for: point) }
    public var needsDisplay: Bool { scene.needsDisplay || padChanged || isTouring != tourTouchesDrawn }
    /// The tour shows its fingers (drawn as `--show-touches` draws touches): visitors see how
    /// the gestures are made.
    public func draw(into cairo: OpaquePointer, overlay: [Point], showTouches: Bool) {
        scene.draw(into: cairo, overlay: overlay, showTouches: showTouches || isTouring)
        if let pad { DemoRenderer.drawPinPad(pad, size: size, into: cairo) }
        padChanged = false
        tourTouchesDrawn = isTouring
    }
    /// The whole window while the PIN pad is up or was just taken down, and when the tour's
    /// fingers start or stop being shown (the scene's damage covers touches only once shown).
    public var damage: [Rect]? {
        pad != nil || padChanged || isTouring != tourTouchesDrawn ? nil : scene.damage
    }
    /// Whether the last frame showed the tour's fingers.
    private var tourTouchesDrawn = false
    /// The admin exit's PIN pad, drawn over the scene while it is up.
    public private(set) var pad: PinPad?
    private var padChanged = false
    public func showPinPad(_ pad: PinPad?) {
        guard pad != self.pad else { return }
        self.pad = pad
        padChanged = true
    }
    public var hasLiveGestures: Bool { isTouring || scene.hasLiveGestures }
}

/// The kiosk's motion frames drawn by the X server as the demo's are (`DemoScene`'s
/// `ServerBackdropScene`): passed on while no PIN pad is up or was just taken down and the tour's
/// fingers are shown as the last frame showed them (those frames are drawn whole, see
/// ``damage``).
extension KioskDirector: ServerBackdropScene {
    public func serverBackdrop(scale: Double) -> ServerBackdrop? {
        pad == nil && !padChanged && isTouring == tourTouchesDrawn ? scene.serverBackdrop(scale: scale) : nil
    }
    public var overlayDamage: [Rect]? { scene.overlayDamage }
    public var overlayExtent: [Rect] { scene.overlayExtent }
    public func drawOverlay(into cairo: OpaquePointer, overlay: [Point], showTouches: Bool) {
        scene.drawOverlay(into: cairo, overlay: overlay, showTouches: showTouches || isTouring)
        padChanged = false
        tourTouchesDrawn = isTouring
    }
}
