/// The one place where recognizers compete for touches (docs/DESIGN.md §3, "Arbitration"): every
/// state a recognizer asks for comes here, and only here is it decided who wins, who fails and
/// who waits. UIKit keeps this inside its private gesture environment; Flutter's
/// `GestureArenaManager` (members, claims, holds, a sweep when the pointers are gone) is the
/// closest public design. This one follows UIKit's rules instead of Flutter's (the first to
/// begin wins at once; no "last member standing wins"). Each dispatcher owns one arena; a
/// recognizer outside any interaction has no one to compete with (see the static entry points).
///
/// Vocabulary:
/// - A *member* takes part in the current interaction: it joined when the dispatcher delivered
///   it its first touch (or a touchpad gesture, or a shake), and leaves when it resets.
/// - Its *claims* are the serial numbers of the touches (and touchpad gestures) delivered to it
///   since it joined, minus those it ignores: two members *compete* when their claims meet.
/// - A *hold* is a success the member asked for that waits on a failure requirement
///   (`require(toFail:)`, or the delegate's `shouldRequireFailureOf` / `shouldBeRequiredToFailBy`);
///   see ``Hold``. A member is *waiting* while it is possible and holds a success or has a timer
///   of its own (a multi-tap between taps): then the sweep leaves it alone.
///
/// Rules:
/// 1. Only the transitions of ``GestureState``'s state machine pass: an illegal request trips an
///    `assert` in debug builds and is ignored in release builds.
/// 2. *Decide*: a member asking to leave `possible` for success (`began`, or `ended` for a
///    discrete one) fails if its delegate's `shouldBegin` says no, if an active member competing
///    with it may not run alongside it, or if one of its required recognizers (a member) has
///    succeeded; it is *held* if one of them is still possible and taking part (touches, a hold or
///    a timer); else it *wins*.
/// 3. *Win* (began or recognized): every other possible member competing with it fails, unless
///    either delegate allows simultaneous recognition; every possible member that requires it to
///    fail and is still taking part fails; if it `cancelsTouchesInView`, the views of its touches
///    get `touchesCancelled` and nothing more of them.
/// 4. *Fail*: each member holding a success on the loser re-checks its requirements: all failed →
///    its held success applies (unless an active member now blocks it: then it fails); one
///    succeeded → it fails; one still possible → it keeps waiting.
/// 5. *Sweep* (after a lift, a finished recognizer or a timer): ended touches leave the members'
///    lists; a member with no touches left fails if it is possible and not waiting, ends if it is
///    active; then every member with no touches that is finished, or possible and not waiting,
///    resets and leaves.
/// 6. *Withdraw* (disabled, removed from its view): an active member is cancelled, its hold
///    dropped, and it leaves at once; members holding a success on it re-check as after a failure.
///
/// A member's life (its state is the recognizer's; "held" is a hold in its seat):
///
/// ```
///   ┌──────────────┐  join: its first touch is delivered
///   │ not a member ├────────────────────────────────────┐
///   └─▲───▲────▲───┘                                    ▼
///     │   │    │                            ┌──────────────────────┐
///     │   │    └────────────────────────────┤ competing (possible) │
///     │   │      sweep: no touches,         └──┬───────┬────────┬──┘
///     │   │      not waiting                   │       │asks    │ asks success; a
///     │   │                                    │       │success │ requirement is
///     │   │                   asks failed,     │       │and wins│ still taking
///     │   │                   a rival won,     │       │(rule 2)│ part (rule 2)
///     │   │                   or it lost       │       │        ▼
///     │   │                   (rule 2, 3)      │       │   ┌─────────────────┐
///     │   │                                    ▼       │   │ held (possible) │
///     │   │                               ┌────────┐   │   └──┬───────────┬──┘
///     │   └───────────────────────────────┤ failed │◀──┼──────┘           │ all its
///     │         sweep: no touches         └────────┘   │                  │ requirements
///     │                                                │ a requirement    │ failed
///     │                                                │ succeeded, or    │ (rule 4)
///     │                                                │ blocked          │
///     │                                                ▼                  ▼
///     │                             ┌────────────────────────────────────────────┐
///     └─────────────────────────────┤ won: began → changed* → ended | cancelled, │
///        sweep: no touches,         │ or (discrete) ended; rivals fail (rule 3)  │
///        finished                   └────────────────────────────────────────────┘
///   withdraw (disabled, removed from its view), from any state: cancelled if active; leaves.
/// ```
@MainActor
final class GestureArena {
    /// A recognizer's place in the arena, stored on the recognizer (`seat`) and touched only by
    /// the arena: no search of a side table on the hot path.
    struct Seat {
        var isMember = false
        var hold: Hold = .none
        /// Serial numbers of the touches and touchpad gestures received since the last reset.
        var claims: [UInt64] = []
        /// `require(toFail:)`, kept across resets.
        var requirements: [WeakRecognizer] = []
    }

    /// A success held back while a failure requirement is pending. The recognizer's state stays
    /// `possible` meanwhile (its subclass sees `possible`); what it asks for is folded in:
    ///
    /// ```
    ///   ┌──────┐ asks began (continuous) ┌───────┐ asks ended     ┌────────────────┐
    ///   │ none ├────────────────────────▶│ began ├───────────────▶│ beganThenEnded │
    ///   └──┬───┘                         └───┬───┘                └────────────────┘
    ///      │ asks ended (discrete)           │ asks cancelled     ┌────────────────────┐
    ///      ▼                                 └───────────────────▶│ beganThenCancelled │
    ///   ┌────────────┐                                            └────────────────────┘
    ///   │ recognized │
    ///   └────────────┘
    ///   (Asking again for what is held changes nothing.)
    ///   any hold ─▶ none: its requirements all failed → applied: `ended`, or `began` then
    ///                `ended` / `cancelled` as asked meanwhile (rule 4);
    ///                a requirement succeeded, an active member blocks it, or it asks `failed`
    ///                → `failed`; withdrawn → dropped.
    /// ```
    enum Hold { case none, recognized, began, beganThenEnded, beganThenCancelled }

    /// The members, in the order they joined (the order the dispatcher delivers input in).
    @exclusivity(unchecked) private(set) var members: [GestureRecognizer] = []

    init() {
        members.reserveCapacity(16)
    }

    // MARK: Membership and claims

    func join(_ r: GestureRecognizer) {
        if r.seat.isMember { return }
        r.seat.isMember = true
        members.append(r)
    }

    func claim(_ serial: UInt64, for r: GestureRecognizer) {
        r.seat.claims.append(serial)
    }

    /// `r` ignores the touch with this serial: it no longer competes for it.
    func unclaim(_ serial: UInt64, for r: GestureRecognizer) {
        if let k = r.seat.claims.firstIndex(of: serial) { r.seat.claims.remove(at: k) }
    }

    /// Resets `r` and clears its seat (the caller has taken it out of `members`).
    private func dismiss(_ r: GestureRecognizer) {
        r.seat.isMember = false
        r.seat.hold = .none
        r.seat.claims.removeAll(keepingCapacity: true)
        r.performReset()
    }

    // MARK: Requests (rule 1)

    /// `r.state = next`: to `r`'s arena, or, outside any interaction, decided alone (legal
    /// transitions only; `shouldBegin` still asked).
    @inline(__always)
    static func request(_ next: GestureState, for r: GestureRecognizer) {
        // The hot path (every frame of a pinch): an active gesture changes. Nothing to decide,
        // so it does not even look the arena up (that would cost a retain and a release).
        if next == .changed && r.stateStorage.isActive {
            r.perform(.changed)
        } else {
            requestOffTheHotPath(next, for: r)
        }
    }

    private static func requestOffTheHotPath(_ requested: GestureState, for r: GestureRecognizer) {
        if let arena = r.dispatcher?.arena {
            arena.request(requested, for: r)
            return
        }
        let next = adjusted(requested, for: r)
        guard isLegal(next, for: r) else { return }
        if r.stateStorage == .possible && next != .failed && r.delegate?.gestureRecognizerShouldBegin(r) == false {
            r.perform(.failed)
        } else {
            r.perform(next)
        }
    }

    /// `r.isEnabled = false` or `r` removed from its view (rule 6).
    static func withdraw(_ r: GestureRecognizer) {
        if let arena = r.dispatcher?.arena {
            arena.withdraw(r)
        } else if r.stateStorage.isActive {
            r.perform(.cancelled)
        }
    }

    /// Whether `r` may ask for `next` now. An illegal request is ignored, as UIKit ignores it;
    /// one of a built-in recognizer is a bug of this library, which a debug build stops at.
    private static func isLegal(_ next: GestureState, for r: GestureRecognizer) -> Bool {
        if r.canPerform(next) { return true }
        if r.isBuiltIn {
            assertionFailure("GestureKit: \(r.name) asked for the illegal transition \(r.stateStorage) → \(next)")
        }
        return false
    }

    /// A subclass's `cancelled` while still possible (Apple's discrete samples do this when
    /// their touches are cancelled) is taken as `failed`.
    private static func adjusted(_ next: GestureState, for r: GestureRecognizer) -> GestureState {
        if next == .cancelled && r.stateStorage == .possible && !r.isBuiltIn && r.seat.hold != .began {
            return .failed
        }
        return next
    }

    func request(_ requested: GestureState, for r: GestureRecognizer) {
        let next = Self.adjusted(requested, for: r)
        let current = r.stateStorage
        if next == .changed && current.isActive {
            r.perform(.changed)
            return
        }
        if r.seat.hold != .none {
            requestWhileHeld(next, for: r)
            return
        }
        guard Self.isLegal(next, for: r) else { return }
        if next == .failed {
            fail(r)
        } else if current == .possible {
            decide(r, asking: next)
        } else {
            r.perform(next)
        }
    }

    private func requestWhileHeld(_ next: GestureState, for r: GestureRecognizer) {
        switch (r.seat.hold, next) {
        case (_, .failed):
            r.seat.hold = .none
            fail(r)
        case (.recognized, .ended), (.began, .began), (.beganThenEnded, .ended), (.beganThenCancelled, .cancelled):
            break
        case (.began, .ended): r.seat.hold = .beganThenEnded
        case (.began, .cancelled): r.seat.hold = .beganThenCancelled
        default:
            // Ignored (UIKit ignores it); a built-in recognizer's is a bug of this library.
            assert(
                !r.isBuiltIn,
                "GestureKit: \(r.name) asked for \(next) while its success (\(r.seat.hold)) waits on a requirement")
        }
    }

    // MARK: Deciding (rules 2–4)

    private func decide(_ r: GestureRecognizer, asking next: GestureState) {
        if r.delegate?.gestureRecognizerShouldBegin(r) == false || isBlocked(r) {
            fail(r)
            return
        }
        switch requirementStatus(of: r) {
        case .satisfied: win(r, next)
        case .waiting: r.seat.hold = next == .began ? .began : .recognized
        case .violated: fail(r)
        }
    }

    /// Applies a held success once its requirements have all failed.
    private func resolve(_ r: GestureRecognizer) {
        let hold = r.seat.hold
        r.seat.hold = .none
        if hold == .none { return }
        if isBlocked(r) {
            fail(r)
            return
        }
        if hold == .recognized {
            win(r, .ended)
            return
        }
        win(r, .began)
        if hold == .beganThenEnded && r.stateStorage.isActive { r.perform(.ended) }
        if hold == .beganThenCancelled && r.stateStorage.isActive { r.perform(.cancelled) }
    }

    private func win(_ winner: GestureRecognizer, _ next: GestureState) {
        winner.perform(next)
        var i = 0
        while i < members.count {
            let o = members[i]
            i += 1
            guard o !== winner, o.stateStorage == .possible else { continue }
            if requires(o, toFail: winner) && (o.seat.hold != .none || isTakingPart(o))
                || competes(winner, o) && !canRecognizeSimultaneously(winner, o)
            {
                o.seat.hold = .none
                fail(o)
            }
        }
        if winner.cancelsTouchesInView { takeTouchesFromViews(winner) }
    }

    private func fail(_ loser: GestureRecognizer) {
        loser.perform(.failed)
        releaseHolds(on: loser)
    }

    /// Members holding a success on `loser` (failed or withdrawn) re-check their requirements.
    private func releaseHolds(on loser: GestureRecognizer) {
        var i = 0
        while i < members.count {
            let o = members[i]
            i += 1
            guard o !== loser, o.seat.hold != .none, requires(o, toFail: loser) else { continue }
            switch requirementStatus(of: o) {
            case .satisfied: resolve(o)
            case .violated:
                o.seat.hold = .none
                fail(o)
            case .waiting: continue
            }
        }
    }

    /// The views lose the touches `winner` took: one `touchesCancelled` per view, views in the
    /// order their touches were taken.
    private func takeTouchesFromViews(_ winner: GestureRecognizer) {
        var taken: [Touch] = []
        for t in winner.touches where !t.isCancelledForView {
            t.isCancelledForView = true
            taken.append(t)
        }
        var views: [View] = []
        for t in taken {
            if let v = t.view, !views.contains(where: { $0 === v }) { views.append(v) }
        }
        for v in views { v.touchesCancelled(taken.filter { $0.view === v }) }
    }

    /// Whether two recognizers may both be active over shared touches (either delegate says so).
    func canRecognizeSimultaneously(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        a.delegate?.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) == true
            || b.delegate?.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) == true
    }

    private func competes(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        for s in a.seat.claims where b.seat.claims.contains(s) { return true }
        return false
    }

    /// An active member competing with `r` that may not run alongside it keeps it from winning.
    private func isBlocked(_ r: GestureRecognizer) -> Bool {
        for o in members where o !== r && o.stateStorage.isActive && competes(r, o) {
            if !canRecognizeSimultaneously(r, o) { return true }
        }
        return false
    }

    private func requires(_ r: GestureRecognizer, toFail o: GestureRecognizer) -> Bool {
        if r.seat.requirements.contains(where: { $0.value === o }) { return true }
        if r.delegate?.gestureRecognizer(r, shouldRequireFailureOf: o) == true { return true }
        if o.delegate?.gestureRecognizer(o, shouldBeRequiredToFailBy: r) == true { return true }
        return false
    }

    /// Still in the running: touches (or a touchpad gesture) down, a held success, or a timer.
    private func isTakingPart(_ r: GestureRecognizer) -> Bool {
        !r.touches.isEmpty || r.touchpadActive || r.seat.hold != .none || r.hasTimer
    }

    /// Possible with a reason to stay so once its touches are gone: a held success or a timer.
    private func isWaiting(_ r: GestureRecognizer) -> Bool {
        r.seat.hold != .none || r.hasTimer
    }

    private enum RequirementStatus { case satisfied, waiting, violated }

    /// Whether `r` may succeed now as far as its failure requirements go: only members count; a
    /// required member that succeeded violates, one still possible and taking part keeps it waiting.
    private func requirementStatus(of r: GestureRecognizer) -> RequirementStatus {
        var waiting = false
        for o in members where o !== r && o.isEnabled && requires(r, toFail: o) {
            switch o.stateStorage {
            case .began, .changed, .ended: return .violated
            case .possible: if isTakingPart(o) { waiting = true }
            case .failed, .cancelled: continue
            }
        }
        return waiting ? .waiting : .satisfied
    }

    // MARK: Sweep and withdraw (rules 5, 6)

    func sweep() {
        var i = 0
        while i < members.count {
            let r = members[i]
            i += 1
            var cancelled = false
            if !r.touches.isEmpty {
                r.lastKnownLocation = r.locationInWindow
                cancelled = r.touches.contains { $0.phase == .cancelled }
                r.touches.removeAll { $0.phase == .ended || $0.phase == .cancelled }
            }
            guard r.touches.isEmpty && !r.touchpadActive else { continue }
            if r.stateStorage == .possible && !isWaiting(r) && r.isEnabled {
                fail(r)
            } else if r.stateStorage.isActive {
                // Subclasses end at their last lift (or cancel when their touches are
                // cancelled); this keeps the machine from sticking.
                r.perform(cancelled ? .cancelled : .ended)
            }
        }
        i = 0
        while i < members.count {
            let r = members[i]
            let idle = r.touches.isEmpty && !r.touchpadActive
            if idle && (r.stateStorage.isFinished || (r.stateStorage == .possible && !isWaiting(r))) {
                members.remove(at: i)
                dismiss(r)
            } else {
                i += 1
            }
        }
    }

    func withdraw(_ r: GestureRecognizer) {
        if r.stateStorage.isActive { r.perform(.cancelled) }
        r.seat.hold = .none
        r.dispatcher?.unroute(r)
        if r.seat.isMember, let i = members.firstIndex(where: { $0 === r }) { members.remove(at: i) }
        dismiss(r)
        releaseHolds(on: r)
    }
}

/// A failure requirement: weak, as UIKit's (a recognizer does not keep the ones it waits on).
struct WeakRecognizer {
    weak var value: GestureRecognizer?
    init(_ value: GestureRecognizer) { self.value = value }
}

extension GestureRecognizer {
    /// Whether a success of this recognizer is held back by a failure requirement (its state
    /// then still reads `possible`).
    var isPending: Bool { seat.hold != .none }
}
