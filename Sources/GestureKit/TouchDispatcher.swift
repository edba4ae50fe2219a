/// Routes input to recognizers and arbitrates between them. UIKit does this inside `UIWindow` /
/// `UIApplication`'s gesture environment; Flutter's `GestureArena` is the closest public analogue.
///
/// Per touch frame:
/// 1. timers due *before* the frame fire (input at exactly a deadline wins: thresholds are inclusive);
/// 2. new touches are hit-tested once, at touch-down, to the deepest interactive view; the touch
///    goes to the enabled recognizers of that view and of its ancestors (deepest first) whose
///    delegate lets them receive it;
/// 3. each involved recognizer gets `touchesBegan/Moved/Ended/Cancelled` with its own touches;
/// 4. the hit views get their raw touches (unless a recognizer cancelled them);
/// 5. housekeeping: a recognizer still `possible` whose touches have all ended fails (unless it
///    waits for a timer of its own or on a failure requirement); a finished one resets;
/// 6. timers due at the frame's instant fire.
///
/// Bad input never traps: non-finite locations are ignored, a `began` for an id already down is
/// taken as a move, changes for unknown ids are ignored, and time never goes backwards (an
/// earlier timestamp is taken as "now").
@MainActor
public final class TouchDispatcher {
    public let root: View
    public let scheduler = Scheduler()
    /// Called for every state transition, in order, after the recognizer's actions ran.
    @exclusivity(unchecked) public var onTransition: ((GestureTransition) -> Void)?
    /// The touches currently down.
    @exclusivity(unchecked) public private(set) var activeTouches: [Touch] = []
    /// Recognizers taking part in the current interaction, in the order they joined.
    @exclusivity(unchecked) private(set) var involved: [GestureRecognizer] = []
    @exclusivity(unchecked) private var serial: UInt64 = 0
    /// Numbers the touch frames (from 1; recognizers' scratch lists are stamped with it).
    @exclusivity(unchecked) private var frameSerial: UInt64 = 0
    @exclusivity(unchecked) private var frameTouches: [Touch] = []
    /// The number of entries of `frameTouches` that belong to the frame being built.
    @exclusivity(unchecked) private var frameCount = 0
    @exclusivity(unchecked) private var touchpadRecognizers: [GestureRecognizer] = []
    @exclusivity(unchecked) private var viewScratch: [Touch] = []
    /// Reuse of the last frame's grouping: a frame whose touch list is the last frame's (every
    /// entry kept in place), all of them moves as they all were then, with no touch list of a
    /// recognizer changed since (`groupingEpoch`, bumped at touch-down and `forget`), has the
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
        involved.reserveCapacity(16)
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
        case .shake(let t): handleShake(at: t)
        case .wait(let t): advance(to: t)
        }
    }

    /// Advances the clock to `time`, firing due timers.
    public func advance(to time: Double) {
        guard time.isFinite else { return }
        scheduler.advance(to: time, inclusive: true) { self.housekeeping() }
    }

    private func beginInstant(_ timestamp: Double) -> Double {
        let t = timestamp.isFinite ? max(timestamp, scheduler.now) : scheduler.now
        scheduler.advance(to: t, inclusive: false) { self.housekeeping() }
        return t
    }

    private func endInstant(_ t: Double) {
        if needsHousekeeping { housekeeping() }
        scheduler.advance(to: t, inclusive: true) { self.housekeeping() }
    }

    // MARK: Touch frames

    public func handle(_ frame: TouchFrame) {
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
                if change.phase == .ended && change.location.isFinite {
                    touch.previousLocationInWindow = touch.locationInWindow
                    touch.locationInWindow = change.location
                }
                touch.phase = change.phase
                touch.timestamp = t
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
        // 3. Deliver, recognizer by recognizer, in the order they joined.
        var i = 0
        while i < involved.count {
            // (Checked first on stored properties, so that one with nothing to take costs no retain.)
            if involved[i].scratchFrame == frame && involved[i].enabledStorage
                && (involved[i].stateStorage == .possible || involved[i].stateStorage.isActive)
            {
                let r = involved[i]
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
        activeTouches[index].previousLocationInWindow = activeTouches[index].locationInWindow
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
        serial &+= 1
        let s = serial
        let touch = Touch(id: id, serial: s, view: hit, location: location, timestamp: t)
        var v = hit
        while let view = v {
            for r in view.gestureRecognizers where r.isEnabled && r.acceptsTouches && !r.touchpadActive {
                if r.delegate?.gestureRecognizer(r, shouldReceive: touch) == false { continue }
                touch.gestureRecognizers.append(r)
                r.touches.append(touch)
                r.receivedSerials.append(s)
                involve(r)
            }
            v = view.superview
        }
        activeTouches.append(touch)
        addToFrame(touch)
    }

    private func involve(_ r: GestureRecognizer) {
        r.dispatcher = self
        if !r.isInvolved {
            r.isInvolved = true
            involved.append(r)
        }
    }

    // MARK: Timers and housekeeping

    func timerFired(for r: GestureRecognizer) {
        if r.acceptsInput { r.timerFired() }
    }

    /// Set when housekeeping may have something to do: a touch ended, a recognizer finished,
    /// a timer fired. Frames of plain moves skip it.
    @exclusivity(unchecked) var needsHousekeeping = false

    /// Drops ended touches, fails abandoned possible recognizers, resets finished ones.
    func housekeeping() {
        needsHousekeeping = false
        touchEpoch &+= 1
        var i = 0
        while i < involved.count {
            let r = involved[i]
            i += 1
            if !r.touches.isEmpty {
                r.lastKnownLocation = r.locationInWindow
                r.touches.removeAll { $0.phase == .ended || $0.phase == .cancelled }
            }
            let idle = r.touches.isEmpty && !r.touchpadActive
            guard idle else { continue }
            if r.stateStorage == .possible && !r.isPending && !r.hasTimer && r.isEnabled {
                r.state = .failed
            } else if r.stateStorage.isActive {
                // A continuous gesture whose touches are all gone ends (subclasses normally
                // end themselves at the last lift; this keeps the machine from sticking).
                r.state = .ended
            }
        }
        // Reset the finished ones and those that no longer take part.
        i = 0
        while i < involved.count {
            let r = involved[i]
            let idle = r.touches.isEmpty && !r.touchpadActive
            if idle && (r.stateStorage.isFinished || (r.stateStorage == .possible && !r.isPending && !r.hasTimer)) {
                r.performReset()
                r.isInvolved = false
                involved.remove(at: i)
            } else {
                i += 1
            }
        }
    }

    /// Stops delivering `touch` to `r` (UIKit: `ignore(_:for:)`): it leaves `r`'s touches, and
    /// `r` no longer competes with the other recognizers of the touch for it.
    func ignore(_ touch: Touch, by r: GestureRecognizer) {
        guard let index = r.touches.firstIndex(where: { $0 === touch }) else { return }
        groupingEpoch &+= 1
        touchEpoch &+= 1
        r.touches.remove(at: index)
        touch.gestureRecognizers.removeAll { $0 === r }
        if let k = r.receivedSerials.firstIndex(of: touch.serial) { r.receivedSerials.remove(at: k) }
    }

    /// Removes a disabled recognizer from the interaction.
    func forget(_ r: GestureRecognizer) {
        groupingEpoch &+= 1
        touchEpoch &+= 1
        for t in r.touches {
            t.gestureRecognizers.removeAll { $0 === r }
        }
        touchpadRecognizers.removeAll { $0 === r }
        r.performReset()
        if r.isInvolved {
            r.isInvolved = false
            involved.removeAll { $0 === r }
        }
    }

    // MARK: Arbitration

    /// Whether two recognizers may both be active over shared touches (either delegate says so).
    public func canRecognizeSimultaneously(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.delegate?.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) == true
            || b.delegate?.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) == true
    }

    private func share(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        for s in a.receivedSerials where b.receivedSerials.contains(s) { return true }
        return false
    }

    /// An active recognizer over shared touches that may not run alongside `r` keeps it from
    /// beginning.
    func isBlocked(_ r: GestureRecognizer) -> Bool {
        for o in involved where o !== r && o.stateStorage.isActive && share(r, o) {
            if !canRecognizeSimultaneously(r, o) { return true }
        }
        return false
    }

    enum RequirementStatus { case satisfied, waiting, violated }

    private func requires(_ r: GestureRecognizer, toFail o: GestureRecognizer) -> Bool {
        if r.failureRequirements.contains(where: { $0.value === o }) { return true }
        if r.delegate?.gestureRecognizer(r, shouldRequireFailureOf: o) == true { return true }
        if o.delegate?.gestureRecognizer(o, shouldBeRequiredToFailBy: r) == true { return true }
        return false
    }

    /// Whether `r` may succeed now as far as its failure requirements go. A required recognizer
    /// blocks while it takes part in the interaction and is still possible; its success violates.
    func requirementStatus(of r: GestureRecognizer) -> RequirementStatus {
        var waiting = false
        for o in involved where o !== r && o.isEnabled && requires(r, toFail: o) {
            switch o.stateStorage {
            case .began, .changed: return .violated
            case .ended: return .violated
            case .possible:
                if !o.touches.isEmpty || o.touchpadActive || o.isPending || o.hasTimer { waiting = true }
            case .failed, .cancelled: continue
            }
        }
        return waiting ? .waiting : .satisfied
    }

    /// After `winner` began or recognized: the others over shared touches fail (unless
    /// simultaneous), dependents fail, and the views lose the touches it took.
    func recognizerSucceeded(_ winner: GestureRecognizer) {
        var i = 0
        while i < involved.count {
            let o = involved[i]
            i += 1
            guard o !== winner, o.stateStorage == .possible else { continue }
            if requires(o, toFail: winner) && (o.isPending || !o.touches.isEmpty || o.hasTimer || o.touchpadActive) {
                o.pending = .none
                o.commit(.failed)
            } else if share(winner, o) && !canRecognizeSimultaneously(winner, o) {
                o.pending = .none
                o.commit(.failed)
            }
        }
        if winner.cancelsTouchesInView {
            var taken: [Touch] = []
            for t in winner.touches where !t.isCancelledForView {
                t.isCancelledForView = true
                taken.append(t)
            }
            // One touchesCancelled per view, views in the order their touches were taken.
            var views: [View] = []
            for t in taken {
                if let v = t.view, !views.contains(where: { $0 === v }) { views.append(v) }
            }
            for v in views { v.touchesCancelled(taken.filter { $0.view === v }) }
        }
    }

    /// After `loser` failed: recognizers pending on it re-check their requirements.
    func recognizerFailed(_ loser: GestureRecognizer) {
        var i = 0
        while i < involved.count {
            let o = involved[i]
            i += 1
            guard o !== loser, o.isPending, requires(o, toFail: loser) else { continue }
            switch requirementStatus(of: o) {
            case .satisfied: o.resolvePending()
            case .violated:
                o.pending = .none
                o.commit(.failed)
            case .waiting: continue
            }
        }
    }

    func report(_ transition: GestureTransition) {
        onTransition?(transition)
    }

    // MARK: Touchpad and motion

    /// A touchpad pinch event (XI 2.4): at `begin` it goes to the pinch and rotation recognizers
    /// of the view under the pointer and its ancestors that are not tracking touches.
    public func handle(_ event: TouchpadPinch) {
        let t = beginInstant(event.timestamp)
        var e = event
        e.timestamp = t
        if e.phase == .begin {
            for r in touchpadRecognizers where r.touchpadActive {
                // A begin without an end: finish the previous gesture first.
                var end = e
                end.phase = .cancel
                r.touchpadPinch(end)
                r.touchpadActive = false
            }
            touchpadRecognizers.removeAll()
            housekeeping()
            guard e.location.isFinite else {
                endInstant(t)
                return
            }
            serial &+= 1
            var v = root.hitTest(e.location.applying(root.localToSuperview.inverted()))
            while let view = v {
                for r in view.gestureRecognizers
                where r.isEnabled && r.acceptsTouchpadPinch && r.touches.isEmpty && r.stateStorage == .possible {
                    r.touchpadActive = true
                    r.touchpadLocation = e.location
                    r.receivedSerials.append(serial)
                    touchpadRecognizers.append(r)
                    involve(r)
                }
                v = view.superview
            }
        }
        for r in touchpadRecognizers where r.touchpadActive {
            if e.location.isFinite { r.touchpadLocation = e.location }
            if r.acceptsInput { r.touchpadPinch(e) }
        }
        if e.phase == .end || e.phase == .cancel {
            needsHousekeeping = true
            for r in touchpadRecognizers { r.touchpadActive = false }
            touchpadRecognizers.removeAll()
        }
        endInstant(t)
    }

    /// A shake: every enabled shake recognizer in the tree recognizes. UIKit:
    /// `motionEnded(.motionShake, with:)`.
    public func handleShake(at timestamp: Double) {
        let t = beginInstant(timestamp)
        var stack = [root]
        var found: [GestureRecognizer] = []
        while let v = stack.popLast() {
            for r in v.gestureRecognizers where r.kind == .shake && r.isEnabled { found.append(r) }
            stack.append(contentsOf: v.subviews.reversed())
        }
        for r in found {
            involve(r)
            r.state = .ended
        }
        endInstant(t)
    }

    /// Cancels every touch that is down (focus lost, device removed), at `timestamp`.
    public func cancelAllTouches(at timestamp: Double) {
        let changes = activeTouches.map { TouchChange(id: $0.id, phase: .cancelled, location: $0.locationInWindow) }
        if changes.isEmpty { return }
        handle(TouchFrame(timestamp: timestamp, changes: changes))
    }
}
