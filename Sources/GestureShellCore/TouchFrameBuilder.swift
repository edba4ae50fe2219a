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
/// complete and goes at once.
///
/// **A still finger is not waited for.** A touchscreen reports only the fingers that moved
/// (evdev's slots, `wl_touch.motion`), so a finger that stays still is missing from every frame,
/// and waiting for it would cost every frame of a pinch or rotation about one held finger the
/// whole wait (and more, where the wait ends past a display frame). So a frame waits only for
/// the fingers that changed in the device's previous frame (``expects(_:)``; the halves of a
/// device frame delivered apart, which share its time, count as one): a finger that stops costs
/// one wait, the frame after it stopped, and none after that. When it moves again its first
/// change may come in a read after its device frame's others: that one device frame then goes
/// as two frames (the still finger's first step a frame of its own), and from the next one on it
/// is waited for again. The wait costs latency when a finger goes down or stops, never while it
/// stays still.
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
    /// The last device frames delivered of one touchscreen, for ``expects(_:)``: the latest
    /// (`recentTime`, the fingers that changed in it, over every frame delivered at that time)
    /// and the one before it.
    private var historyDevice: Int32?
    private var recentTime = -Double.infinity
    private var recentIDs: [Int] = []
    private var earlierIDs: [Int] = []
    /// Whether every change in `pending` is a move.
    private var onlyMoves = true
    /// Whether `pending` holds changes from something other than `touchDevice`.
    private var mixed = false

    public init() {
        pending.reserveCapacity(16)
        recentIDs.reserveCapacity(16)
        earlierIDs.reserveCapacity(16)
    }

    /// Whether the pending frame (of ``touchDevice``) waits for finger `id` of its device when it
    /// has no change of it: true when `id` changed in the device's previous device frame (the
    /// last one delivered with an earlier time; when the pending frame shares the time of the
    /// last delivered one, the frame before that, less the fingers already delivered at this
    /// time), or when there is no such frame (a frame of another device came between). A finger
    /// that had no change in the previous device frame is still, and the frame goes without it.
    public func expects(_ id: Int) -> Bool {
        guard let device = touchDevice, device == historyDevice else { return true }
        if time == recentTime { return contains(id, in: earlierIDs) && !contains(id, in: recentIDs) }
        return contains(id, in: recentIDs)
    }

    private func contains(_ id: Int, in ids: [Int]) -> Bool {
        var i = 0
        while i < ids.count {
            if ids[i] == id { return true }
            i += 1
        }
        return false
    }

    /// Notes the fingers of the frame being delivered (one touchscreen's only) for ``expects(_:)``.
    private mutating func remember() {
        guard let device = touchDevice, !mixed, !pending.isEmpty else { return }
        if device != historyDevice {
            historyDevice = device
            earlierIDs.removeAll(keepingCapacity: true)
            recentIDs.removeAll(keepingCapacity: true)
        } else if time != recentTime {
            swap(&earlierIDs, &recentIDs)
            recentIDs.removeAll(keepingCapacity: true)
        }
        recentTime = time
        var i = 0
        while i < pending.count {
            let c = pending[i]
            if c.phase == .began || c.phase == .moved, !contains(c.id, in: recentIDs) { recentIDs.append(c.id) }
            i += 1
        }
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
        remember()
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
