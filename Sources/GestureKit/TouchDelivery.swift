/// Delivery of one frame's touches to a recognizer, phase by phase, without allocating: the
/// dispatcher sorts each touch of a frame into the scratch list of its phase on every recognizer
/// that receives it (`collect`), then has each recognizer hand its lists to the subclass
/// (`deliverCollected`). The lists live on the recognizer (see its stored `scratch…` properties)
/// and keep their content between frames, so a steady stream of moves rewrites nothing.
extension GestureRecognizer {
    /// Empties the scratch lists (their counts) when `frame` is a new frame.
    @inline(__always)
    final func startScratch(frame: UInt64) {
        guard scratchFrame != frame else { return }
        scratchFrame = frame
        scratchBeganCount = 0
        scratchMovedCount = 0
        scratchEndedCount = 0
        scratchCancelledCount = 0
    }

    /// Sorts one touch of frame `frame` into the scratch list of its phase.
    @inline(__always)
    final func collect(_ touch: Touch, frame: UInt64) {
        startScratch(frame: frame)
        switch touch.phase {
        case .began: Self.place(touch, in: &scratchBegan, count: &scratchBeganCount)
        case .moved: Self.place(touch, in: &scratchMoved, count: &scratchMovedCount)
        case .ended: Self.place(touch, in: &scratchEnded, count: &scratchEndedCount)
        case .cancelled: Self.place(touch, in: &scratchCancelled, count: &scratchCancelledCount)
        }
    }

    /// As `collect` when the scratch list already holds `touch` at its place; else false.
    /// Writes no reference.
    @inline(__always)
    final func collectUnchanged(_ touch: Touch, frame: UInt64) -> Bool {
        startScratch(frame: frame)
        switch touch.phase {
        case .began:
            guard scratchBeganCount < scratchBegan.count, scratchBegan[scratchBeganCount] === touch else {
                return false
            }
            scratchBeganCount += 1
        case .moved:
            guard scratchMovedCount < scratchMoved.count, scratchMoved[scratchMovedCount] === touch else {
                return false
            }
            scratchMovedCount += 1
        case .ended:
            guard scratchEndedCount < scratchEnded.count, scratchEnded[scratchEndedCount] === touch else {
                return false
            }
            scratchEndedCount += 1
        case .cancelled:
            guard scratchCancelledCount < scratchCancelled.count, scratchCancelled[scratchCancelledCount] === touch
            else { return false }
            scratchCancelledCount += 1
        }
        return true
    }

    @inline(__always)
    private static func place(_ touch: Touch, in list: inout [Touch], count: inout Int) {
        if count < list.count {
            if list[count] !== touch { list[count] = touch }
        } else {
            list.append(touch)
        }
        count += 1
    }

    /// Drops the entries of a scratch list beyond this frame's.
    @inline(__always)
    private static func trim(_ list: inout [Touch], to count: Int) {
        if list.count > count { list.removeLast(list.count - count) }
    }

    /// Hands the touches collected for frame `frame` to the subclass, phase by phase.
    final func deliverCollected(frame: UInt64) {
        guard scratchFrame == frame else { return }
        if scratchBeganCount > 0 {
            Self.trim(&scratchBegan, to: scratchBeganCount)
            if acceptsInput { touchesBegan(scratchBegan) }
        }
        if scratchMovedCount > 0 {
            Self.trim(&scratchMoved, to: scratchMovedCount)
            if acceptsInput { touchesMoved(scratchMoved) }
        }
        if scratchEndedCount > 0 {
            Self.trim(&scratchEnded, to: scratchEndedCount)
            if acceptsInput { touchesEnded(scratchEnded) }
        }
        if scratchCancelledCount > 0 {
            Self.trim(&scratchCancelled, to: scratchCancelledCount)
            if acceptsInput {
                touchesCancelled(scratchCancelled)
                // The built-in recognizers give up with their touches (UIKit's do the same);
                // a subclass decides for itself (see `touchesCancelled(_:with:)`).
                if isBuiltIn && acceptsInput {
                    if stateStorage.isActive {
                        state = .cancelled
                    } else if stateStorage == .possible {
                        state = .failed
                    }
                }
            }
        }
    }

    /// Empties the scratch lists (they would otherwise keep the last touches, and through them
    /// their views and recognizers, alive).
    final func clearScratch() {
        scratchBegan.removeAll(keepingCapacity: true)
        scratchMoved.removeAll(keepingCapacity: true)
        scratchEnded.removeAll(keepingCapacity: true)
        scratchCancelled.removeAll(keepingCapacity: true)
        scratchFrame = 0
    }
}
