import GestureKit

/// Builds `TouchFrame`s from the input translator's changes, one wake-up's events at a time.
///
/// Changes that share a time form one frame. Moves also coalesce across times: a frame of moves
/// only takes later moves (a finger that moves again gets its new location, the frame the later
/// time), so the moves read in one wake-up reach the scene as one frame — UIKit's coalesced
/// touches. A begin or an end keeps its own time, and a finger's begin or end never merges with
/// another change of the same finger. (Plain loops, no closures: a main-actor closure formed
/// here would check its executor at run time on every call.)
@MainActor
public struct TouchFrameBuilder {
    /// The changes of the frame being built.
    public private(set) var pending: [TouchChange] = []
    public private(set) var time = 0.0
    /// Whether every change in `pending` is a move.
    private var onlyMoves = true

    public init() {
        pending.reserveCapacity(16)
    }

    public var isEmpty: Bool { pending.isEmpty }

    /// Whether `changes` at time `t` cannot join the pending frame: take the pending frame first.
    public func mustFlush(before changes: [TouchChange], at t: Double) -> Bool {
        !pending.isEmpty && mustStartNewFrame(changes, at: t)
    }

    /// Adds `changes` at time `t` to the pending frame (check ``mustFlush(before:at:)`` first).
    public mutating func add(_ changes: [TouchChange], at t: Double) {
        time = t
        for c in changes {
            if let i = index(of: c.id) {
                pending[i].location = c.location  // a coalesced move
            } else {
                pending.append(c)
                if c.phase != .moved { onlyMoves = false }
            }
        }
    }

    /// The pending frame, if any.
    public var frame: TouchFrame? { pending.isEmpty ? nil : TouchFrame(timestamp: time, changes: pending) }

    /// Empties the builder. Called once the frame from ``frame`` is gone, the buffer is unique
    /// again and is reused as it is (no allocation per frame).
    public mutating func clear() {
        onlyMoves = true
        pending.removeAll(keepingCapacity: true)
    }

    private func mustStartNewFrame(_ changes: [TouchChange], at t: Double) -> Bool {
        var newOnlyMoves = true
        for c in changes {
            if c.phase != .moved { newOnlyMoves = false }
            if let i = index(of: c.id), pending[i].phase != .moved || c.phase != .moved { return true }
        }
        return time != t && !(onlyMoves && newOnlyMoves)
    }

    private func index(of id: Int) -> Int? {
        var i = 0
        while i < pending.count {
            if pending[i].id == id { return i }
            i += 1
        }
        return nil
    }
}
