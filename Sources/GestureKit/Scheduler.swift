/// Time for recognizers, injected: the dispatcher owns one, the X shell advances it from its
/// event loop (the next deadline is its `poll()` timeout) and a replay advances it from the trace
/// timestamps, so replays are exactly repeatable. UIKit has no public counterpart (recognizers
/// there read the wall clock); Flutter's `GestureArenaManager` timers play the same role.
///
/// Timers due at the same instant fire in the order they were scheduled.
@MainActor
public final class Scheduler {
    public struct Token: Hashable, Sendable {
        fileprivate let value: UInt64
    }
    private struct Entry {
        var deadline: Double
        var token: Token
        var action: @MainActor () -> Void
    }
    /// The current time, seconds. Never goes backwards.
    @exclusivity(unchecked) public private(set) var now: Double = 0
    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var nextToken: UInt64 = 0

    public init() {
        entries.reserveCapacity(16)
    }

    /// The earliest pending deadline, if any.
    public var nextDeadline: Double? { entries.first?.deadline }

    /// Runs `action` once when the clock reaches `deadline` (immediately at the next advance if it
    /// is already past).
    @discardableResult
    public func schedule(at deadline: Double, _ action: @escaping @MainActor () -> Void) -> Token {
        nextToken &+= 1
        let token = Token(value: nextToken)
        let d = deadline.isNaN ? now : deadline
        // Keep entries sorted by deadline, FIFO among equals.
        var i = entries.count
        while i > 0 && entries[i - 1].deadline > d { i -= 1 }
        entries.insert(Entry(deadline: d, token: token, action: action), at: i)
        return token
    }

    public func cancel(_ token: Token?) {
        guard let token else { return }
        if let i = entries.firstIndex(where: { $0.token == token }) { entries.remove(at: i) }
    }

    /// Moves the clock to `time` (ignored if earlier than now) and fires every timer whose
    /// deadline is before `time` — or at `time` too when `inclusive`. Timers fire with `now` set
    /// to their own deadline; `afterEach` runs after each. Returns whether any fired.
    @discardableResult
    public func advance(to time: Double, inclusive: Bool = true, afterEach: () -> Void = {}) -> Bool {
        var fired = false
        while let first = entries.first, inclusive ? first.deadline <= time : first.deadline < time {
            entries.removeFirst()
            if first.deadline > now { now = first.deadline }
            first.action()
            afterEach()
            fired = true
        }
        if time > now { now = time }
        return fired
    }
}
