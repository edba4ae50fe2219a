/// The state of a gesture recognizer. UIKit: `UIGestureRecognizer.State` (`recognized` is an
/// alias of `ended`, as there).
///
/// ```
///                       ┌──────────── discrete (tap, swipe, shake) ───────────┐
///                       │                                                      ▼
///   ┌──────────┐  began ┌───────┐ changed ┌─────────┐  ended           ┌───────────────┐
///   │ possible ├───────▶│ began ├────────▶│ changed ├─────────────────▶│ ended         │
///   └──┬───────┘        └──┬────┘◀──┐     └──┬──────┘◀─┐ changed       │ (=recognized) │
///      │ failed            │        └────────┼─────────┘               └───────┬───────┘
///      ▼                   └───────cancelled─┴──────────▶┌───────────┐         │
///   ┌────────┐                                           │ cancelled │         │
///   │ failed │                                           └─────┬─────┘         │
///   └───┬────┘                                                 │               │
///       └──────── reset to possible once all its touches have ended ◀──────────┘
/// ```
///
/// Deviation: `changed` is only entered (and reported) when a value of the gesture changed.
///
/// A request with no arrow here (a discrete recognizer beginning, a continuous one ending or
/// changing from `possible`, anything out of `ended`, `cancelled` or `failed`, asking for
/// `possible`) is ignored, as UIKit ignores it: no subclass that follows UIKit's contract can
/// trap. (The built-in recognizers are checked: one of theirs stops a debug build with an
/// `assert`.) A subclass that names no kind (``GestureRecognizer/init(name:)``) is neither
/// discrete nor continuous until it asks: from `possible` it may ask for `began` or `ended`; and
/// `possible → cancelled` (Apple's samples cancel a discrete recognizer's touches so) is taken as
/// `failed`. A success held back by a failure requirement leaves the state `possible` until it
/// applies (see `GestureArena.Hold`).
public enum GestureState: String, Sendable, Hashable, CaseIterable {
    case possible, began, changed, ended, cancelled, failed
    /// UIKit: `.recognized`, the same state as `.ended`.
    public static let recognized = GestureState.ended

    /// True for began and changed.
    @inlinable public var isActive: Bool { self == .began || self == .changed }
    /// True for ended, cancelled and failed: the recognizer waits for its touches to end, then resets.
    @inlinable public var isFinished: Bool { self == .ended || self == .cancelled || self == .failed }

    /// Whether a recognizer may go from `self` to `next` (the reset to `possible` is not a
    /// transition of the log). Discrete recognizers never begin.
    public func canTransition(to next: GestureState, continuous: Bool) -> Bool {
        switch (self, next) {
        case (.possible, .failed): true
        case (.possible, .ended): !continuous
        case (.possible, .began): continuous
        case (.began, .changed), (.changed, .changed): continuous
        case (.began, .ended), (.changed, .ended), (.began, .cancelled), (.changed, .cancelled): continuous
        default: false
        }
    }
}

/// The kind of a recognizer, as the event log's `kind` names it. UIKit has none (a recognizer
/// is known by its class). An open set: the built-in recognizers' kinds are the static members
/// (``allCases``); a subclass that names none has its type's name
/// (`CheckmarkGestureRecognizer`).
public struct GestureKind: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let tap = GestureKind(rawValue: "tap")
    public static let longPress = GestureKind(rawValue: "longPress")
    public static let swipe = GestureKind(rawValue: "swipe")
    public static let pan = GestureKind(rawValue: "pan")
    public static let screenEdgePan = GestureKind(rawValue: "screenEdgePan")
    public static let pinch = GestureKind(rawValue: "pinch")
    public static let rotation = GestureKind(rawValue: "rotation")
    public static let shake = GestureKind(rawValue: "shake")
    /// The built-in kinds.
    public static let allCases: [GestureKind] = [
        .tap, .longPress, .swipe, .pan, .screenEdgePan, .pinch, .rotation, .shake,
    ]
    public var description: String { rawValue }
}

/// Whether a recognizer begins and changes (continuous), goes straight to recognized
/// (discrete), or has not said (a subclass that names no kind: either, as in UIKit).
enum Continuity: Sendable {
    case discrete, continuous, either
}

/// The base class of every recognizer. UIKit: `UIGestureRecognizer` (with the subclass API of
/// `UIGestureRecognizerSubclass`: the `touches…` overrides, `reset()`, and setting `state`).
///
/// Subclasses only *ask* for a state by assigning `state` (see ``GestureState`` for the state
/// machine). The request goes to the dispatcher's `GestureArena`, the one place that decides:
/// it checks that the transition is legal (an illegal request is ignored, as UIKit ignores it),
/// asks the delegate (`shouldBegin`), holds a success back while a
/// failure requirement is pending, and settles the other recognizers of the same touches. The
/// recognizer itself only *performs* a decided transition: it fires the actions and reports the
/// transition to the log.
///
/// A subclass is written as for UIKit (see the article "Coming from UIKit: recognizers"): no
/// initializer of its own is needed (``init(name:)``, UIKit's `init(target:action:)`), it
/// overrides `touchesBegan(_:with:)` and its siblings (`Set<Touch>`, ``TouchEvent``), `reset()`,
/// and assigns `state`; its log lines carry its name, kind and state (``logValues`` is
/// ``GestureValues/stateOnly``). The built-in recognizers override the array forms
/// (`touchesBegan(_: [Touch])`), which allocate nothing; their defaults call the set forms.
///
/// Deviations from UIKit: actions are closures (``GestureRecognizer/addTarget(_:)`` with the recognizer's own
/// type, or ``addAction(_:)``), not target/selector pairs; time comes from the input and the
/// dispatcher's ``Scheduler`` only; a subclass that declares a designated initializer of its
/// own must also provide the `required` ``init(name:)`` (Swift's rule for
/// ``GestureRecognizer/init(name:action:)``, which every recognizer type has).
@MainActor
open class GestureRecognizer {
    /// Name in the event log (UIKit: `name`); by default the kind's.
    @exclusivity(unchecked) public var name: String
    /// The kind in the event log: the built-in recognizer's, or the subclass's type name.
    public var kind: GestureKind { kindStorage ?? GestureKind(rawValue: String(describing: type(of: self))) }
    private let kindStorage: GestureKind?
    /// Continuous recognizers (pan, pinch…) begin, change and end; discrete ones (tap, swipe,
    /// shake) go straight to `ended` (recognized). A subclass that names no kind reads false
    /// until it has begun.
    public var isContinuous: Bool {
        continuity == .continuous || (continuity == .either && (stateStorage.isActive || lastBegan))
    }
    let continuity: Continuity
    /// An instance of a built-in recognizer class (not of a subclass of one): an illegal request
    /// of theirs is a bug of this library, which a debug build stops at.
    @exclusivity(unchecked) private(set) var isBuiltIn = false
    /// A recognizer of either continuity that began in this gesture (its `ended` and
    /// `cancelled` are then a continuous gesture's).
    @exclusivity(unchecked) var lastBegan = false
    @exclusivity(unchecked) public weak var delegate: (any GestureRecognizerDelegate)?
    /// The view the recognizer is attached to. UIKit: `view`.
    @exclusivity(unchecked) public internal(set) weak var view: View?
    /// UIKit: `cancelsTouchesInView` (default true).
    @exclusivity(unchecked) public var cancelsTouchesInView = true
    /// UIKit: `isEnabled`. Turning it off cancels an active gesture and drops a possible one
    /// (silently); recognizers waiting for it to fail (`require(toFail:)`) go on as if it had.
    public var isEnabled: Bool {
        get { enabledStorage }
        set {
            let oldValue = enabledStorage
            enabledStorage = newValue
            if oldValue && !newValue { disable() }
        }
    }
    /// The storage of `isEnabled` (a stored property with an observer would be checked for
    /// exclusive access at run time on every read).
    @exclusivity(unchecked) private(set) var enabledStorage = true

    /// The touches this recognizer tracks: those delivered to it since it last reset and still
    /// down, plus those ending in the current frame (removed after the frame).
    @exclusivity(unchecked) public internal(set) var touches: [Touch] = []
    /// UIKit: `numberOfTouches`.
    open var numberOfTouches: Int { touchpadActive ? 2 : touches.count }

    /// Written only by `perform`, which the arena calls.
    @exclusivity(unchecked) var stateStorage: GestureState = .possible
    /// The recognizer's place in the arena (membership, held success, claimed touches, failure
    /// requirements): read and written by `GestureArena` only.
    @exclusivity(unchecked) var seat = GestureArena.Seat()
    @exclusivity(unchecked) private var actions: [(GestureRecognizer) -> Void] = []
    /// Strong while the recognizer takes part in an interaction (the dispatcher sets it when it
    /// delivers the first touch and drops it at reset). Not weak: a weak reference gives the
    /// object a side table and makes every retain/release on the hot path take the slow path.
    @exclusivity(unchecked) var dispatcher: TouchDispatcher?
    @exclusivity(unchecked) var touchpadActive = false
    /// False while `perform` builds values for no listener: subclasses then report zero velocity.
    @exclusivity(unchecked) var velocityForLog = true
    /// The pointer of the touchpad gesture; setting it also makes it the last known location.
    @exclusivity(unchecked) var touchpadLocation = Point.zero {
        didSet { lastKnownLocation = touchpadLocation }
    }
    /// Where the gesture last was (window points): kept when the touches are dropped, so that a
    /// failure logged after the last lift (housekeeping, a timer) still says where it happened.
    @exclusivity(unchecked) var lastKnownLocation = Point.zero
    @exclusivity(unchecked) var timerToken: Scheduler.Token?
    @exclusivity(unchecked) var lastReported: (location: Point, touches: Int, values: GestureValues)?
    // Scratch lists, reused every frame so that steady-state delivery does not allocate. They
    // keep their content between frames: a frame that delivers the same touches as the last one
    // (a steady move) rewrites nothing, so it costs no retain, release or uniqueness check.
    // Only the first `scratchCounts` entries belong to the frame `scratchFrame`.
    @exclusivity(unchecked) var scratchBegan: [Touch] = []
    @exclusivity(unchecked) var scratchMoved: [Touch] = []
    @exclusivity(unchecked) var scratchEnded: [Touch] = []
    @exclusivity(unchecked) var scratchCancelled: [Touch] = []
    @exclusivity(unchecked) var scratchFrame: UInt64 = 0
    @exclusivity(unchecked) var scratchBeganCount = 0
    @exclusivity(unchecked) var scratchMovedCount = 0
    @exclusivity(unchecked) var scratchEndedCount = 0
    @exclusivity(unchecked) var scratchCancelledCount = 0

    /// A recognizer of a kind of its own, discrete or continuous as said: illegal requests for
    /// that continuity are ignored.
    public init(kind: GestureKind, name: String? = nil, continuous: Bool) {
        self.kindStorage = kind
        self.name = name ?? kind.rawValue
        self.continuity = continuous ? .continuous : .discrete
        reserveScratch()
    }

    /// The built-in recognizers' initializer.
    init(builtIn kind: GestureKind, name: String?, continuous: Bool) {
        self.kindStorage = kind
        self.name = name ?? kind.rawValue
        self.continuity = continuous ? .continuous : .discrete
        reserveScratch()
        // A subclass of a built-in recognizer is an app's: held to UIKit's contract only.
        isBuiltIn = String(reflecting: type(of: self)).hasPrefix("GestureKit.")
    }

    /// UIKit: `init(target:action:)` (add the action with ``GestureRecognizer/addTarget(_:)``, or use
    /// ``GestureRecognizer/init(name:action:)``). The designated initializer a subclass inherits: its kind is its
    /// type's name, as is its name unless one is given; it may be discrete or continuous (see
    /// ``GestureState``).
    public required init(name: String? = nil) {
        self.kindStorage = nil
        self.name = name ?? ""
        self.continuity = .either
        reserveScratch()
        if name == nil { self.name = kind.rawValue }
    }

    private func reserveScratch() {
        touches.reserveCapacity(4)
        seat.claims.reserveCapacity(8)
        scratchBegan.reserveCapacity(4)
        scratchMoved.reserveCapacity(4)
        scratchEnded.reserveCapacity(4)
        scratchCancelled.reserveCapacity(4)
    }

    /// The current state. Subclasses assign it to ask for a transition (UIKit's
    /// `UIGestureRecognizerSubclass`); the `GestureArena` decides. An illegal request (one the
    /// state machine of ``GestureState`` has no arrow for) is a programming error: it trips an
    /// `assert` in debug builds and is ignored in release builds.
    public var state: GestureState {
        get { stateStorage }
        set { GestureArena.request(newValue, for: self) }
    }

    /// UIKit: `addTarget(_:action:)`, as a closure taking the base type (``GestureRecognizer/addTarget(_:)``
    /// passes the recognizer's own). Fired on began, changed, ended (recognized) and cancelled,
    /// never on failed.
    public func addAction(_ action: @escaping (GestureRecognizer) -> Void) {
        actions.append(action)
    }

    /// UIKit: `require(toFail:)`: this recognizer's success waits until `other` fails, and it
    /// fails if `other` succeeds.
    public func require(toFail other: GestureRecognizer) {
        seat.requirements.append(WeakRecognizer(other))
    }

    /// The current time (the dispatcher's clock).
    public var now: Double { dispatcher?.scheduler.now ?? 0 }

    /// UIKit: `location(in:)`: the centroid of the tracked touches (subclasses may refine it).
    open func location(in view: View?) -> Point {
        let w = locationInWindow
        guard let view else { return w }
        return view.convert(w, from: nil)
    }

    /// The location in window points.
    open var locationInWindow: Point {
        if touchpadActive { return touchpadLocation }
        if touches.isEmpty { return lastKnownLocation }
        return centroid(of: touches)
    }

    /// UIKit: `location(ofTouch:in:)`.
    public func location(ofTouch index: Int, in view: View?) -> Point {
        touches[index].location(in: view)
    }

    /// The values reported in the event log at a transition: none by default (the line then
    /// carries the name, kind, state, location and touches).
    open var logValues: GestureValues { .stateOnly }

    // MARK: Subclass API

    /// The frame's touches that began, as an array (no allocation): the built-in recognizers
    /// override these. By default each calls its UIKit-shaped sibling with a set and the event.
    open func touchesBegan(_ touches: [Touch]) { touchesBegan(Set(touches), with: currentEvent) }
    open func touchesMoved(_ touches: [Touch]) { touchesMoved(Set(touches), with: currentEvent) }
    open func touchesEnded(_ touches: [Touch]) { touchesEnded(Set(touches), with: currentEvent) }
    /// The built-in recognizers cancel an active gesture and fail a possible one after this
    /// (the dispatcher does it); a subclass decides for itself.
    open func touchesCancelled(_ touches: [Touch]) { touchesCancelled(Set(touches), with: currentEvent) }

    /// UIKit: `touchesBegan(_:with:)`: the touches of this recognizer that began in `event`.
    open func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {}
    /// UIKit: `touchesMoved(_:with:)`.
    open func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {}
    /// UIKit: `touchesEnded(_:with:)`.
    open func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {}
    /// UIKit: `touchesCancelled(_:with:)`. As in UIKit it leaves the state alone: the subclass
    /// sets it (`cancelled` or `failed`). One that does not is failed (possible) or cancelled
    /// (active) once its touches are gone.
    open func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {}

    /// The event of the frame being delivered.
    var currentEvent: TouchEvent { TouchEvent(timestamp: now, dispatcher: dispatcher) }
    /// Whether the recognizer takes touchpad pinch gestures (pinch and rotation do).
    open var acceptsTouchpadPinch: Bool { false }
    /// Whether the recognizer takes touches (shake does not).
    open var acceptsTouches: Bool { true }
    /// A touchpad pinch event, for recognizers that accept them.
    open func touchpadPinch(_ event: TouchpadPinch) {}
    /// Called when a timer set with `setTimer(at:)` fires.
    open func timerFired() {}
    /// UIKit: `reset()`: back to `possible` after the gesture; clear per-gesture state here.
    open func reset() {}

    /// Sets the recognizer's one timer (replacing any), on the dispatcher's clock. While a
    /// timer is set, a possible recognizer whose touches have all ended does not fail: it is
    /// waiting for something of its own (a multi-tap between taps).
    public func setTimer(at deadline: Double) {
        cancelTimer()
        guard let d = dispatcher else { return }
        // The scheduler belongs to the dispatcher, and an involved recognizer cannot go away
        // before its timer is cancelled at reset: neither capture can dangle.
        timerToken = d.scheduler.schedule(at: deadline) { [unowned(unsafe) self, unowned(unsafe) d] in
            self.timerToken = nil
            d.timerFired(for: self)
        }
    }

    public func cancelTimer() {
        if let t = timerToken { dispatcher?.scheduler.cancel(t) }
        timerToken = nil
    }

    public var hasTimer: Bool { timerToken != nil }

    /// UIKit: `ignore(_:for:)` (without the event: a touch belongs to one frame at a time here):
    /// `touch` is no longer delivered to this recognizer, leaves
    /// ``touches`` (so it counts nowhere: not in the centroid, not in ``numberOfTouches``, not
    /// among the touches that must end before the recognizer fails or resets) and no longer
    /// makes this recognizer compete with the others that received it. The state is unchanged.
    public func ignore(_ touch: Touch) {
        dispatcher?.ignore(touch, by: self)
    }

    /// UIKit: `ignore(_:for:)`: as ``ignore(_:)`` (the event is the frame being delivered).
    public func ignore(_ touch: Touch, for event: TouchEvent) {
        ignore(touch)
    }

    // MARK: Helpers for subclasses

    /// The centroid of the given touches, window points (no allocation).
    public func centroid(of list: [Touch]) -> Point {
        if list.isEmpty { return .zero }
        var x = 0.0
        var y = 0.0
        // Indexing, not `for … in`: the loop then needs no retain of the list or its touches.
        var i = 0
        while i < list.count {
            let p = list[i].locationInWindow
            x += p.x
            y += p.y
            i += 1
        }
        let n = Double(list.count)
        return Point(x: x / n, y: y / n)
    }

    /// The number of tracked touches that are still down (not ending in this frame).
    /// True while a move of the touches it holds cannot change its state until more touches
    /// land (a pinch or rotation holding one). Subclasses that need several touches override it.
    open var waitsForMoreTouches: Bool { false }

    public var numberOfDownTouches: Int {
        var n = 0
        var i = 0
        while i < touches.count {
            if touches[i].phase.isDown { n += 1 }
            i += 1
        }
        return n
    }

    /// The window coordinate space's view (the root), for converting.
    public var windowView: View? { view?.window }

    // MARK: Performing a transition the arena decided

    /// Sets the state and reports it: actions (not on failed), then the log. Only the arena
    /// calls it, with a transition it has checked; a `changed` whose values did not change is
    /// not entered (nor reported).
    func perform(_ next: GestureState) {
        assert(
            canPerform(next),
            "GestureKit: \(name) performed the illegal transition \(stateStorage) → \(next)")
        let loc = locationInWindow
        let n = numberOfTouches
        // Velocities only matter to the log: without a listener, skip the least-squares fits
        // (the changed-suppression below ignores velocities anyway).
        velocityForLog = dispatcher?.onTransition != nil
        let values = logValues
        velocityForLog = true
        if next == .changed, let last = lastReported, last.touches == n,
            last.location == loc || (!loc.isFinite && !last.location.isFinite),
            last.values.sameIgnoringVelocity(values)
        {
            return
        }
        stateStorage = next
        if next == .began { lastBegan = true }
        lastReported = (loc, n, values)
        if next.isFinished { dispatcher?.needsHousekeeping = true }
        if next != .failed {
            // The actions present now (one may add another).
            let count = actions.count
            var i = 0
            while i < count {
                actions[i](self)
                i += 1
            }
        }
        if next == .failed, let d = dispatcher, let hook = d.onFailure { hook(self) }
        // Built only for a listener (it holds the recognizer: building it costs a retain).
        if let d = dispatcher, d.onTransition != nil {
            d.report(
                GestureTransition(
                    time: now, recognizer: self, state: next, location: loc, numberOfTouches: n, values: values))
        }
        if next == .failed || next == .cancelled { cancelTimer() }
    }

    /// Back to `possible`, silently, dropping every touch and the dispatcher. Called by the
    /// arena when the recognizer leaves it.
    func performReset() {
        cancelTimer()
        stateStorage = .possible
        lastBegan = false
        touches.removeAll(keepingCapacity: true)
        touchpadActive = false
        lastReported = nil
        clearScratch()
        reset()
        dispatcher = nil
    }

    /// Whether the state machine has an arrow from the current state to `next` for this
    /// recognizer's continuity.
    func canPerform(_ next: GestureState) -> Bool {
        switch continuity {
        case .discrete: stateStorage.canTransition(to: next, continuous: false)
        case .continuous: stateStorage.canTransition(to: next, continuous: true)
        case .either:
            stateStorage == .possible
                ? stateStorage.canTransition(to: next, continuous: next == .began)
                : stateStorage.canTransition(to: next, continuous: true)
        }
    }

    private func disable() {
        GestureArena.withdraw(self)
    }

    /// Removed from its view: an active gesture is cancelled and the interaction dropped, as
    /// when it is disabled (it stays enabled).
    func detachedFromView() {
        if isEnabled { disable() }
    }

    /// Whether input and timers reach the subclass: enabled, possible or active, and not holding
    /// a discrete success back (a held continuous success still follows its touches).
    var acceptsInput: Bool {
        isEnabled && (stateStorage == .possible || stateStorage.isActive) && seat.hold != .recognized
    }
}
