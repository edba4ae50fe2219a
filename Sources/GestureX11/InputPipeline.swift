import GestureKit
import GestureShellCore

/// The shell's input state, from the X event to the scene (docs/DESIGN.md §2): what XInput
/// offers, the translator that turns events into touch changes, the frame builder that joins a
/// device frame, the server-time mapping, the read's batching marks, and the time of the last
/// input fed. `X11Shell` holds one; the events, scroll and timer parts of the shell work on it.
/// Pure state and rules: no X connection, so it is tested alone.
@MainActor
struct InputPipeline {
    /// Turns pointer, touch and touchpad events into touch changes (and the simulated finger).
    let translator: InputTranslator
    /// The keyboard's keysyms (nil until read).
    var keyboardMap: KeyboardMap?
    /// The XInput extension's major opcode (0: core events only).
    var xiOpcode: UInt8 = 0
    /// Whether touch events were selected on the window (XI 2.2).
    var touchSelected = false
    /// XI 2.1 scroll valuators by slave device (X11Shell+Scroll.swift).
    var scrollAxes: [Int32: X11Shell.ScrollAxes] = [:]
    /// Server times (milliseconds) to shell seconds.
    var timeMapper = ServerTimeMapper()
    /// A quick shake of the window (a shake gesture).
    var shakeDetector = WindowShakeDetector()
    /// Auto-repeated key presses, filtered (a held key is one press).
    var keyRepeats = KeyRepeatFilter()
    /// The changes of the events being handled, before they join a frame.
    var scratch: [TouchChange] = []
    /// Joins the changes of one device frame into one touch frame.
    var frames = TouchFrameBuilder()
    /// When the events being handled were read from the socket (shell seconds).
    var received = 0.0
    /// Pointer motion was read this turn.
    var motionSeen = false
    /// The last read stopped at its budget with the socket maybe not empty: no batch may follow.
    var readCut = false
    /// The last pointer motion of a read, while its finger is down (see `applyHeldMotion()`).
    var heldMotion: X11Shell.HeldMotion?
    /// Malformed events reported so far (the first few are reported).
    var malformedReported = 0
    /// The time of the last input fed to the scene (shell seconds).
    var lastFed = 0.0
    /// The time of the last touch frame fed, while touch frames follow each other.
    var lastTouchFrameTime: Double?

    init(translator: InputTranslator) {
        self.translator = translator
        scratch.reserveCapacity(8)
    }

    /// The event as it is fed to the scene, and notes it as fed. A touch frame right after
    /// another one is given a later time (by 1 µs if need be): in a trace, touch lines that share
    /// a time form one frame, and a recording must read back as it was fed.
    mutating func stamp(_ event: InputEvent) -> InputEvent {
        var event = event
        if case .touches(var frame) = event {
            if let previous = lastTouchFrameTime, frame.timestamp <= previous {
                frame.timestamp = quantize(previous + 0.000_001)
                event = .touches(frame)
            }
            lastTouchFrameTime = frame.timestamp
        } else {
            lastTouchFrameTime = nil
        }
        lastFed = max(lastFed, event.timestamp)
        return event
    }
}
