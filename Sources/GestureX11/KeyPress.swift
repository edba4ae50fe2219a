/// A key pressed or released in the window. UIKit: a `UIPress` with its `UIKey` (delivered by
/// `pressesBegan(_:with:)` / `pressesEnded(_:with:)`); here one closure, ``GestureWindow/onKey``,
/// hears every key (UIKit's `UIKeyCommand`s are a `switch` on ``characters`` and ``modifiers``).
public struct KeyPress: Sendable, Equatable {
    /// The X keysym (for letters, the lower-case one unless Shift is held). Constants for keys
    /// without characters: ``escape``, ``returnKey``, ``leftArrow``, ….
    public var keysym: UInt32
    /// What the key types, "" for keys that type nothing (arrows, Escape, F-keys). UIKit:
    /// `UIKey.characters`.
    public var characters: String
    /// UIKit: `UIKey.modifierFlags`.
    public var modifiers: KeyModifiers
    /// True for a press (UIKit: `pressesBegan`), false for a release (`pressesEnded`).
    public var isDown: Bool
    /// True for the auto-repeat of a held key.
    public var isRepeat: Bool

    public init(keysym: UInt32, modifiers: KeyModifiers = [], isDown: Bool = true, isRepeat: Bool = false) {
        self.keysym = keysym
        self.modifiers = modifiers
        self.isDown = isDown
        self.isRepeat = isRepeat
        characters = Self.characters(of: keysym)
    }

    /// Latin-1 keysyms are their code points; Unicode keysyms are 0x1000000 + the code point;
    /// Return, Tab and Backspace type their control characters.
    static func characters(of keysym: UInt32) -> String {
        let scalar: UInt32? =
            switch keysym {
            case 0x20...0x7E, 0xA0...0xFF: keysym
            case 0x100_0000...0x110_FFFF: keysym - 0x100_0000
            case returnKey, 0xFF8D: 0x0D
            case tab: 0x09
            case backspace: 0x08
            default: nil
            }
        return scalar.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? ""
    }

    public static let escape: UInt32 = 0xFF1B
    public static let returnKey: UInt32 = 0xFF0D
    public static let tab: UInt32 = 0xFF09
    public static let backspace: UInt32 = 0xFF08
    public static let delete: UInt32 = 0xFFFF
    public static let leftArrow: UInt32 = 0xFF51
    public static let upArrow: UInt32 = 0xFF52
    public static let rightArrow: UInt32 = 0xFF53
    public static let downArrow: UInt32 = 0xFF54
    public static let space: UInt32 = 0x20
}

/// UIKit: `UIKeyModifierFlags`.
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1)
    public static let control = KeyModifiers(rawValue: 2)
    /// Alt (X's Mod1). UIKit: `.alternate`.
    public static let alternate = KeyModifiers(rawValue: 4)
    /// The Super/Windows key (X's Mod4). UIKit: `.command`.
    public static let command = KeyModifiers(rawValue: 8)

    /// From an X modifier mask.
    init(x mask: UInt32) {
        var m: KeyModifiers = []
        if mask & 1 != 0 { m.insert(.shift) }
        if mask & 4 != 0 { m.insert(.control) }
        if mask & 8 != 0 { m.insert(.alternate) }
        if mask & 64 != 0 { m.insert(.command) }
        self = m
    }
}
