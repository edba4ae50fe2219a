import GestureKit

/// Builds `TouchFrame`s from the input translator's changes, one wake-up's events at a time.
///
/// Changes that share a time form one frame. Moves also coalesce across times: a frame of moves
/// only takes later moves (a finger that moves again gets its new location, the frame the later
/// time), so the moves read in one wake-up reach the scene as one frame — UIKit's coalesced
/// touches. A begin or an end keeps its own time, and a finger's begin or end never merges with
/// another change of the same finger. (Plain loops, no closures: a main-actor closure formed
/// here would check its executor at run time on every call.)
///
/// **One frame per device frame.** A touchscreen reports the fingers that changed in one device
/// frame (evdev's `SYN_REPORT`, a Wayland `wl_touch.frame`) as one XI2 event per finger, and
/// the server can hand them to the client in different reads: Xwayland writes each `TouchUpdate`
/// of a `wl_touch` frame on its own, and Xorg's input thread can post a frame's fingers while
/// the main thread is already sending the first ones. Made into a frame each, a two-finger pinch
/// sees one finger move and then the other: its centre wobbles by half a finger step and a twist
/// about a fixed point looks like a pan. So a frame made only of one touchscreen's touches is
/// held (``hold(missingFinger:now:)``) while it lacks a finger of that device which is down, or
/// holds a finger going down (another may go down in the same device frame: nothing tells), until
/// the rest arrives — a change of a later time closes it too — or ``deviceFrameWait`` has passed
/// since it was first held. A frame of moves in which every finger of the device has a change is
/// complete and goes at once: the wait costs latency only when a finger goes down or stays still.
@MainActor
public struct TouchFrameBuilder {
    /// How long a touchscreen frame that lacks some of its device's fingers waits for them, in
    /// seconds: 4 ms. The events of one device frame follow each other within the server's time to
    /// process one event (tens of microseconds; a millisecond or two on a loaded machine), so 4 ms
    /// takes in the whole frame with room to spare while staying well under a display frame
    /// (16.7 ms at 60 Hz, 8.3 ms at 120 Hz): the frame the changes show in is rarely the later
    /// for it. The wait is a deadline of the event loop (the loop polls the socket until then),
    /// never a sleep.
    public static let deviceFrameWait = 0.004

    /// The changes of the frame being built.
    public private(set) var pending: [TouchChange] = []
    public private(set) var time = 0.0
    /// The touchscreen (XInput master device) whose touches are all of `pending`, or nil when
    /// `pending` is empty or holds other changes (a pointer's, a touchpad swipe's).
    public private(set) var touchDevice: Int32?
    /// When a held frame goes, whatever is missing (nil: not held).
    public private(set) var holdDeadline: Double?
    /// Whether every change in `pending` is a move.
    private var onlyMoves = true
    /// Whether `pending` holds changes from something other than `touchDevice`.
    private var mixed = false

    public init() {
        pending.reserveCapacity(16)
    }

    public var isEmpty: Bool { pending.isEmpty }

    /// Whether `changes` at time `t` cannot join the pending frame: take the pending frame first.
    public func mustFlush(before changes: [TouchChange], at t: Double) -> Bool {
        !pending.isEmpty && mustStartNewFrame(changes, at: t)
    }

    /// Adds `changes` at time `t` to the pending frame (check ``mustFlush(before:at:)`` first).
    /// `touchDevice` names the touchscreen whose touches the changes are, nil for anything else.
    public mutating func add(_ changes: [TouchChange], at t: Double, touchDevice device: Int32? = nil) {
        if pending.isEmpty {
            touchDevice = device
            mixed = device == nil
        } else if device == nil || device != touchDevice {
            mixed = true
            touchDevice = nil
        }
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

    /// Whether the pending frame waits for the rest of its device frame: true when it is made
    /// only of one touchscreen's touches, `missingFinger` (a finger of that device is down and
    /// has no change in it) or a finger goes down in it, and less than ``deviceFrameWait`` has
    /// passed since the frame was first held (`now`, the time of the read that brought it).
    /// False: deliver it now.
    public mutating func hold(missingFinger: Bool, now: Double) -> Bool {
        guard touchDevice != nil, !mixed, !pending.isEmpty, missingFinger || hasBegin else {
            holdDeadline = nil
            return false
        }
        let deadline = holdDeadline ?? now + Self.deviceFrameWait
        guard now < deadline else {
            holdDeadline = nil
            return false
        }
        holdDeadline = deadline
        return true
    }

    /// Whether a finger goes down in the pending frame.
    private var hasBegin: Bool {
        var i = 0
        while i < pending.count {
            if pending[i].phase == .began { return true }
            i += 1
        }
        return false
    }

    /// Whether the finger `id` has a change in the pending frame.
    public func contains(_ id: Int) -> Bool { index(of: id) != nil }

    /// The pending frame, if any.
    public var frame: TouchFrame? { pending.isEmpty ? nil : TouchFrame(timestamp: time, changes: pending) }

    /// Empties the builder. Called once the frame from ``frame`` is gone, the buffer is unique
    /// again and is reused as it is (no allocation per frame).
    public mutating func clear() {
        onlyMoves = true
        mixed = false
        touchDevice = nil
        holdDeadline = nil
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
