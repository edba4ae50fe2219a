/// Tells a held key's auto-repeats from presses: a kiosk's visitor is someone who presses a key,
/// not a key that stays down (a book on the keyboard), so only the first press counts as
/// activity. A press is a repeat when the server flags it (XInput 2's `KeyRepeat`, XKB
/// detectable auto-repeat), when its key is already down (repeats without releases), or when it
/// comes at the very time of its own key's release (core events' release–press pairs).
public struct KeyRepeatFilter: Sendable {
    private var down: Set<UInt8> = []
    private var lastRelease: (keycode: UInt8, time: UInt32)?

    public init() {}

    /// Whether this key event is an auto-repeat (a release never is); follows which keys are down.
    public mutating func isRepeat(keycode: UInt8, pressed: Bool, time: UInt32, flagged: Bool) -> Bool {
        guard pressed else {
            down.remove(keycode)
            lastRelease = (keycode, time)
            return false
        }
        let pair = lastRelease.map { $0.keycode == keycode && $0.time == time } ?? false
        lastRelease = nil
        let alreadyDown = !down.insert(keycode).inserted
        return flagged || alreadyDown || pair
    }
}
