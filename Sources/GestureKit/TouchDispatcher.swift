// Over 400 lines: one frame's route (timers, hit test, delivery to recognizers and views,
// housekeeping) works on the dispatcher's stored touch state, which must live in this class;
// arbitration itself is GestureArena's.

/// Routes input to recognizers; its `GestureArena` arbitrates between them. UIKit does this
/// inside `UIWindow` / `UIApplication`'s gesture environment.
///
/// Per touch frame:
/// 1. timers due *before* the frame fire (input at exactly a deadline wins: thresholds are inclusive);
/// 2. new touches are hit-tested once, at touch-down, to the deepest interactive view; the touch
///    goes to the enabled recognizers of that view and of its ancestors (deepest first) whose
///    delegate lets them receive it;
/// 3. each recognizer taking part (an arena member) gets `touchesBegan/Moved/Ended/Cancelled` with its own touches;
/// 4. the hit views get their raw touches (unless a recognizer cancelled them);
/// 5. housekeeping: the arena's sweep (a recognizer still `possible` whose touches have all
///    ended fails unless it waits for a timer of its own or on a failure requirement; a finished
///    one resets);
/// 6. timers due at the frame's instant fire.
///
/// Bad input never traps: non-finite locations are ignored, a `began` for an id already down is
/// taken as a move, changes for unknown ids are ignored, and time never goes backwards (an
/// earlier timestamp is taken as "now").
@MainActor
public final class TouchDispatcher {
    /// Helpers that act once per input instant, after every recognizer has seen it
    /// (``TransformGestures`` moves its view there).
    @exclusivity(unchecked) var instantObservers: [any InputInstantObserver] = []

    public let root: View
    public let scheduler = Scheduler()
    /// Called for every state transition, in order, after the recognizer's actions ran.
    @exclusivity(unchecked) public var onTransition: ((GestureTransition) -> Void)?
    /// Called when a recognizer fails, before its `failed` transition is reported (so what the
    /// callback changes shows in that log line). UIKit has no such callback (an app observes
    /// `state`, and failures fire no actions): this is how an app says why a gesture did not
    /// happen ("Swipe faster"). Cheap: nothing is built for it.
    @exclusivity(unchecked) public var onFailure: ((GestureRecognizer) -> Void)?
    /// The touches currently down.
    @exclusivity(unchecked) public private(set) var activeTouches: [Touch] = []
    /// Decides every state transition and who wins; its members are the recognizers taking part
    /// in the current interaction, in the order they joined (the delivery order).
    let arena = GestureArena()
    @exclusivity(unchecked) private var serial: UInt64 = 0
    /// Numbers the touch frames (from 1; recognizers' scratch lists are stamped with it).
    @exclusivity(unchecked) private var frameSerial: UInt64 = 0
    @exclusivity(unchecked) private var frameTouches: [Touch] = []
    /// The number of entries of `frameTouches` that belong to the frame being built.
    @exclusivity(unchecked) private var frameCount = 0
    /// The recognizers taking the current touchpad gesture (TouchDispatcher+Motion.swift).
    @exclusivity(unchecked) var touchpadRecognizers: [GestureRecognizer] = []
    /// The pan recognizers taking the current scroll sequence, and its end timer
    /// (TouchDispatcher+Scroll.swift).
    @exclusivity(unchecked) var scrollRecognizers: [PanGestureRecognizer] = []
    @exclusivity(unchecked) var scrollEnd: Scheduler.Token?
    /// The current scroll-zoom: its accumulated scale, and its end timer.
    @exclusivity(unchecked) var scrollZoomScale: Double?
    @exclusivity(unchecked) var scrollZoomEnd: Scheduler.Token?
    @exclusivity(unchecked) private var viewScratch: [Touch] = []
    /// Reuse of the last frame's grouping: a frame whose touch list is the last frame's (every
    /// entry kept in place), all of them moves as they all were then, with no touch list of a
    /// recognizer changed since (`groupingEpoch`, bumped at touch-down, `ignore` and `unroute`), has the
    /// same scratch lists: it keeps the last frame's number and skips the sorting.
    @exclusivity(unchecked) private var frameListUnchanged = false
    @exclusivity(unchecked) private var lastFrameAllMoved = false
    @exclusivity(unchecked) private var groupingEpoch: UInt64 = 0
    @exclusivity(unchecked) private var collectedEpoch: UInt64 = 0
    /// Changes whenever a touch's location or phase, or a recognizer's touch list, may have
    /// changed (never 0): recognizers cache values computed from their touches under it.
    @exclusivity(unchecked) private(set) var touchEpoch: UInt64 = 1

    public init(root: View) {
        self.root = root
        activeTouches.reserveCapacity(16)
        frameTouches.reserveCapacity(16)
        viewScratch.reserveCapacity(16)
    }

    /// The current time.
    public var now: Double { scheduler.now }
    /// The next timer deadline (the X shell's poll timeout).
    public var nextDeadline: Double? { scheduler.nextDeadline }

    /// Feeds one input event.
    public func handle(_ event: InputEvent) {
        switch event {
        case .touches(let frame): handle(frame)
        case .touchpadPinch(let p): handle(p)
        case .scroll(let e): handle(e)
        case .shake(let t): handleShake(at: t)
        case .wait(let t): advance(to: t)
        }
    }

    /// Advances the clock to `time`, firing due timers.
    public func advance(to time: Double) {
        guard time.isFinite else { return }
        if needsHousekeeping { housekeeping() }
        if scheduler.advance(to: time, inclusive: true, afterEach: { self.housekeeping() }) {
            // What the timers changed is an instant of its own (a scroll sequence ending moves
            // a TransformGestures view).
            notifyInstantObservers()
        }
    }

    /// Starts an input instant: the time it happens at (never earlier than now), after the
    /// timers due before it fired.
    func beginInstant(_ timestamp: Double) -> Double {
        // A transition made between inputs (a recognizer disabled by the app released another
        // from its hold) is swept before anything else happens.
        if needsHousekeeping { housekeeping() }
        let t = timestamp.isFinite ? max(timestamp, scheduler.now) : scheduler.now
        if scheduler.advance(to: t, inclusive: false, afterEach: { self.housekeeping() }) {
            // What those timers changed is done before the new input is seen.
            notifyInstantObservers()
        }
        return t
    }

    /// Ends an input instant: housekeeping, then the timers due at `t`.
    func endInstant(_ t: Double) {
        if needsHousekeeping { housekeeping() }
        scheduler.advance(to: t, inclusive: true) { self.housekeeping() }
        notifyInstantObservers()
    }

    private func notifyInstantObservers() {
        var i = 0
        while i < instantObservers.count {
            instantObservers[i].inputInstantEnded()
            i += 1
        }
    }

    // MARK: Touch frames

    /// Handles one frame. A frame that carries a touch's move (or touch-down) and its lift or
    /// cancel — real Android and evemu recordings put the lift at the time of the last move —
    /// is handled as two at its time: first everything but those ends, then the ends. Every
    /// recognizer thus sees the last move as a move (a pan's translation and velocity, a
    /// pinch's scale) and then the lift, as if they had come a moment apart; UIKit never
    /// delivers one touch twice in an event.
    public func handle(_ frame: TouchFrame) {
        if let (moves, ends) = Self.splitEndsAfterMoves(frame) {
            handleFrame(moves)
            handleFrame(ends)
        } else {
            handleFrame(frame)
        }
    }

    /// The frame without the ends (`ended`, `cancelled`) of touches that began or moved earlier
    /// in it, and those ends; nil when there are none (every frame of moves only: one pass).
    static func splitEndsAfterMoves(_ frame: TouchFrame) -> (TouchFrame, TouchFrame)? {
        var i = 0
        var split = false
        while i < frame.changes.count {
            if !frame.changes[i].phase.isDown {
                let id = frame.changes[i].id
                var j = 0
                while j < i {
                    if frame.changes[j].id == id && frame.changes[j].phase.isDown {
                        split = true
                        break
                    }
                    j += 1
                }
                if split { break }
            }
            i += 1
        }
        guard split else { return nil }
        let changes = frame.changes
        var moves: [TouchChange] = []
        var ends: [TouchChange] = []
        for (k, c) in changes.enumerated() {
            if !c.phase.isDown && changes[..<k].contains(where: { $0.id == c.id && $0.phase.isDown }) {
                ends.append(c)
            } else {
                moves.append(c)
            }
        }
        return (
            TouchFrame(timestamp: frame.timestamp, changes: moves),
            TouchFrame(timestamp: frame.timestamp, changes: ends)
        )
    }

    private func handleFrame(_ frame: TouchFrame) {
        let t = beginInstant(frame.timestamp)
        frameCount = 0
        frameListUnchanged = true
        touchEpoch &+= 1
        // 1. Update the touches.
        for change in frame.changes {
            let index = activeIndex(ofID: change.id)
            if change.phase == .moved {
                // The common case, by index into the active list: it retains nothing.
                if let index { moveActive(at: index, to: change.location, at: t) }
                continue
            }
            let existing = index.map { activeTouches[$0] }
            switch change.phase {
            case .began:
                if let touch = existing {
                    move(touch, to: change.location, at: t)
                    continue
                }
                guard change.location.isFinite else { continue }
                beginTouch(id: change.id, at: change.location, time: t)
            case .moved:
                continue
            case .ended, .cancelled:
                guard let touch = existing, touch.phase == .began || touch.phase == .moved else { continue }
                // A lift may share its frame with the touch's last move (real recordings put it
                // at the time of that move): the touch then ends where that move took it, and
                // its previous location stays the one before this frame, as UIKit reports it.
                if change.phase == .ended && change.location.isFinite {
                    if !touch.isInFrame { touch.previousLocationInWindow = touch.locationInWindow }
                    touch.locationInWindow = change.location
                }
                touch.phase = change.phase
                touch.timestamp = t
                // Its phase is no longer the one the last frame's grouping holds it under.
                frameListUnchanged = false
                addToFrame(touch)
            }
        }
        if frameTouches.count > frameCount {
            frameTouches.removeLast(frameTouches.count - frameCount)
            frameListUnchanged = false
        }
        touchEpoch &+= 1
        // 2. Sort each touch into its recognizers' scratch lists. A steady stream of moves of the
        // same touches has the last frame's lists: keep its number. Else first the common case
        // where every list already holds this frame's touches (the last frame's were the same),
        // which writes no reference and so needs no retain; else the general way.
        var frame = frameSerial
        if !(frameListUnchanged && frameCount > 0 && lastFrameAllMoved && collectedEpoch == groupingEpoch) {
            collectedEpoch = groupingEpoch
            frameSerial &+= 1
            frame = frameSerial
            if !collectUnchanged(frame: frame) {
                frameSerial &+= 1
                frame = frameSerial
                for touch in frameTouches {
                    for r in touch.gestureRecognizers {
                        r.collect(touch, frame: frame)
                    }
                }
            }
        }
        // 3. Deliver, recognizer by recognizer, in the order they joined the arena.
        var i = 0
        while i < arena.members.count {
            // (Checked first on stored properties, so that one with nothing to take costs no retain.)
            if arena.members[i].scratchFrame == frame && arena.members[i].enabledStorage
                && (arena.members[i].stateStorage == .possible || arena.members[i].stateStorage.isActive)
            {
                let r = arena.members[i]
                r.deliverCollected(frame: frame)
            }
            i += 1
        }
        // 4. Raw touches to the views.
        deliverToViews()
        // 5. Touches that ended leave the active list; recognizers drop them in housekeeping.
        var i2 = 0
        var anyEnded = false
        var allMoved = true
        while i2 < frameTouches.count {
            unowned(unsafe) let touch = frameTouches[i2]
            touch.isInFrame = false
            if touch.phase != .moved {
                allMoved = false
                if touch.phase == .ended || touch.phase == .cancelled { anyEnded = true }
            }
            i2 += 1
        }
        lastFrameAllMoved = allMoved
        if anyEnded {
            // Do not keep ended touches (and through them their views and recognizers) alive.
            frameTouches.removeAll(keepingCapacity: true)
            activeTouches.removeAll { $0.phase == .ended || $0.phase == .cancelled }
            needsHousekeeping = true
        }
        endInstant(t)
    }

    /// Sorts the frame's touches into scratch lists that already hold them; false as soon as
    /// one does not (the counts are then partial: the caller starts again with a new frame).
    private func collectUnchanged(frame: UInt64) -> Bool {
        var k = 0
        while k < frameTouches.count {
            let touch = frameTouches[k]
            k += 1
            var j = 0
            while j < touch.gestureRecognizers.count {
                let r = touch.gestureRecognizers[j]
                j += 1
                if !r.collectUnchanged(touch, frame: frame) { return false }
            }
        }
        return true
    }

    private func deliverToViews() {
        // Group by view without allocating in the common single-view case.
        var index = 0
        while index < frameTouches.count {
            let first = frameTouches[index]
            index += 1
            guard let view = first.view, !first.isCancelledForView else { continue }
            // Skip if an earlier touch of the same view already handled this group.
            if frameTouches[0..<(index - 1)].contains(where: { $0.view === view && !$0.isCancelledForView }) {
                continue
            }
            for phase in TouchPhase.allCases {
                viewScratch.removeAll(keepingCapacity: true)
                for touch in frameTouches[(index - 1)...]
                where touch.view === view && touch.phase == phase && !touch.isCancelledForView {
                    viewScratch.append(touch)
                }
                if viewScratch.isEmpty { continue }
                switch phase {
                case .began: view.touchesBegan(viewScratch)
                case .moved: view.touchesMoved(viewScratch)
                case .ended: view.touchesEnded(viewScratch)
                case .cancelled: view.touchesCancelled(viewScratch)
                }
            }
        }
    }

    private func activeIndex(ofID id: Int) -> Int? {
        var i = 0
        while i < activeTouches.count {
            if activeTouches[i].id == id { return i }
            i += 1
        }
        return nil
    }

    /// `move` for `activeTouches[index]`.
    private func moveActive(at index: Int, to location: Point, at t: Double) {
        guard location.isFinite else { return }
        if activeTouches[index].isInFrame {
            // A move after the touch's lift in the same frame is ignored: it has ended.
            if !activeTouches[index].phase.isDown { return }
        } else {
            // (A second move in one frame keeps the location before the frame as the previous.)
            activeTouches[index].previousLocationInWindow = activeTouches[index].locationInWindow
        }
        activeTouches[index].locationInWindow = location
        activeTouches[index].timestamp = t
        if activeTouches[index].phase == .began && !activeTouches[index].isInFrame {
            activeTouches[index].phase = .moved
        }
        if activeTouches[index].isInFrame { return }
        activeTouches[index].isInFrame = true
        if frameCount < frameTouches.count && frameTouches[frameCount] === activeTouches[index] {
            frameCount += 1
        } else {
            addToFrameSlowly(activeTouches[index])
        }
    }

    /// Adds a touch to this frame's list. The list keeps the last frame's touches (up to the
    /// first frame with a lift): rewriting an entry with the same touch is skipped, so a steady
    /// stream of moves costs no retain, release or uniqueness check.
    private func addToFrame(_ touch: Touch) {
        if touch.isInFrame { return }
        touch.isInFrame = true
        addToFrameSlowly(touch)
    }

    private func addToFrameSlowly(_ touch: Touch) {
        frameListUnchanged = false
        if frameCount < frameTouches.count {
            if frameTouches[frameCount] !== touch { frameTouches[frameCount] = touch }
        } else {
            frameTouches.append(touch)
        }
        frameCount += 1
    }

    private func move(_ touch: Touch, to location: Point, at t: Double) {
        guard location.isFinite else { return }
        touch.previousLocationInWindow = touch.locationInWindow
        touch.locationInWindow = location
        touch.timestamp = t
        if touch.phase == .began && !touch.isInFrame { touch.phase = .moved }
        addToFrame(touch)
    }

    private func beginTouch(id: Int, at location: Point, time t: Double) {
        let hit = root.hitTest(location.applying(root.localToSuperview.inverted()))
        groupingEpoch &+= 1
        let s = nextSerial()
        let touch = Touch(id: id, serial: s, view: hit, location: location, timestamp: t)
        var v = hit
        while let view = v {
            for r in view.gestureRecognizers where r.isEnabled && r.acceptsTouches && !r.touchpadActive {
                if r.delegate?.gestureRecognizer(r, shouldReceive: touch) == false { continue }
                touch.gestureRecognizers.append(r)
                r.touches.append(touch)
                involve(r)
                arena.claim(s, for: r)
            }
            v = view.superview
        }
        activeTouches.append(touch)
        addToFrame(touch)
    }

    /// A new serial number for a touch or a touchpad gesture (what recognizers claim).
    func nextSerial() -> UInt64 {
        serial &+= 1
        return serial
    }

    /// `r` takes part in the interaction: it joins the arena.
    func involve(_ r: GestureRecognizer) {
        r.dispatcher = self
        arena.join(r)
    }

    // MARK: Timers and housekeeping

    func timerFired(for r: GestureRecognizer) {
        if r.acceptsInput { r.timerFired() }
    }

    /// Set when housekeeping may have something to do: a touch ended, a recognizer finished,
    /// a timer fired. Frames of plain moves skip it.
    @exclusivity(unchecked) var needsHousekeeping = false

    /// Drops ended touches, fails abandoned possible recognizers, resets finished ones: the
    /// arena's sweep.
    func housekeeping() {
        needsHousekeeping = false
        touchEpoch &+= 1
        arena.sweep()
    }

    /// Stops delivering `touch` to `r` (UIKit: `ignore(_:for:)`): it leaves `r`'s touches, and
    /// `r` no longer competes with the other recognizers of the touch for it.
    func ignore(_ touch: Touch, by r: GestureRecognizer) {
        guard let index = r.touches.firstIndex(where: { $0 === touch }) else { return }
        groupingEpoch &+= 1
        touchEpoch &+= 1
        r.touches.remove(at: index)
        touch.gestureRecognizers.removeAll { $0 === r }
        arena.unclaim(touch.serial, for: r)
    }

    /// Stops routing input to a recognizer the arena withdraws (disabled, removed from its view).
    func unroute(_ r: GestureRecognizer) {
        groupingEpoch &+= 1
        touchEpoch &+= 1
        for t in r.touches {
            t.gestureRecognizers.removeAll { $0 === r }
        }
        touchpadRecognizers.removeAll { $0 === r }
    }

    /// Whether two recognizers may both be active over shared touches (either delegate says so).
    public func canRecognizeSimultaneously(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        arena.canRecognizeSimultaneously(a, b)
    }

    func report(_ transition: GestureTransition) {
        onTransition?(transition)
    }

    /// Cancels every touch that is down (focus lost, device removed), at `timestamp`.
    public func cancelAllTouches(at timestamp: Double) {
        let changes = activeTouches.map { TouchChange(id: $0.id, phase: .cancelled, location: $0.locationInWindow) }
        if changes.isEmpty { return }
        handle(TouchFrame(timestamp: timestamp, changes: changes))
    }

    /// Whether the next move of the touches down could change a recognizer's state: one has
    /// begun, or one is still `possible` with touches down and does not wait for more of them
    /// (``GestureRecognizer/waitsForMoreTouches``). A shell may read a drag that is not live in
    /// batches: no transition, and so no frame, can come of it. (No UIKit counterpart.)
    public var hasLiveGestures: Bool {
        var i = 0
        while i < arena.members.count {
            let r = arena.members[i]
            if r.stateStorage.isActive { return true }
            if r.stateStorage == .possible && !r.waitsForMoreTouches && r.numberOfDownTouches > 0 { return true }
            i += 1
        }
        return false
    }
}
