/// Recognizes a shake. UIKit has no recognizer for it: there a view controller overrides
/// `motionEnded(.motionShake, with:)`. Here it is a discrete recognizer so that shakes go
/// through the same actions and event log: a motion event (the shell's Ctrl+Z or a shaken
/// window, or a `shake` trace line) makes every enabled shake recognizer in the view tree go
/// `possible → ended` once. It takes no touches.
@MainActor
public final class ShakeGestureRecognizer: GestureRecognizer {
    public required init(name: String? = nil) {
        super.init(builtIn: .shake, name: name, continuous: false)
    }

    public override var logValues: GestureValues { .shake }
    public override var acceptsTouches: Bool { false }
    public override var numberOfTouches: Int { 0 }
}
