import GestureKit

/// A key chord such as `ctrl+alt+shift+q`: modifiers (`ctrl`, `alt`, `shift`, `super`) and one
/// key (a letter, a digit, or `F1`…`F12`), as X keysym and modifier mask.
public struct KeyChord: Equatable, Sendable, CustomStringConvertible {
    /// The X modifier mask the chord needs (Shift 1, Control 4, Mod1/Alt 8, Mod4/Super 0x40).
    public var modifiers: UInt32
    /// The key's keysym (lower case for letters).
    public var keysym: UInt
    public let description: String

    /// The default admin chord.
    public static let defaultAdmin = try! KeyChord(parsing: "ctrl+alt+shift+q")

    /// Parses `mod+mod+key` (case-insensitive); throws one line naming what was expected.
    public init(parsing text: String) throws(KioskConfigError) {
        let parts = text.lowercased().split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        var mods: UInt32 = 0
        for p in parts.dropLast() {
            switch p {
            case "ctrl", "control": mods |= 4
            case "alt": mods |= 8
            case "shift": mods |= 1
            case "super", "win": mods |= 0x40
            default:
                throw KioskConfigError(
                    "--admin-chord: \"\(p)\" is not a modifier (expected ctrl, alt, shift or super) in \"\(text)\"")
            }
        }
        let key = parts.last ?? ""
        var sym: UInt?
        if key.count == 1, let c = key.unicodeScalars.first, c.isASCII,
            ("a"..."z").contains(Character(c)) || ("0"..."9").contains(Character(c))
        {
            sym = UInt(c.value)
        } else if key.hasPrefix("f"), let n = Int(key.dropFirst()), (1...12).contains(n) {
            sym = 0xFFBE + UInt(n - 1)
        }
        guard let sym else {
            throw KioskConfigError("--admin-chord: expected a letter, a digit or F1…F12 as the last key of \"\(text)\"")
        }
        guard mods != 0 || sym >= 0xFFBE else {
            throw KioskConfigError(
                "--admin-chord: a letter or digit needs at least one modifier (a visitor's keyboard types it): \"\(text)\""
            )
        }
        modifiers = mods
        keysym = sym
        description = text.lowercased()
    }

    /// Whether `keysym` pressed with the modifier mask `mods` is this chord (Lock and NumLock
    /// ignored; letters in either case).
    public func matches(keysym pressed: UInt, modifiers mods: UInt32) -> Bool {
        let relevant: UInt32 = 1 | 4 | 8 | 0x40
        return Self.folded(pressed) == keysym && mods & relevant == modifiers
    }

    static func folded(_ sym: UInt) -> UInt { (0x41...0x5A).contains(sym) ? sym + 0x20 : sym }
}

/// A bad kiosk setting (`--admin-chord`, `--admin-pin`, the `--kiosk-config` file): one line.
public struct KioskConfigError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The kiosk's admin exit (UIKit has none: iOS Guided Access's triple-click plus passcode is the
/// model): the chord held down for ``hold`` seconds, then — with a PIN — the PIN typed on the
/// keyboard and Enter within ``pinTimeout`` seconds. A wrong PIN, Escape or the timeout goes back
/// to the kiosk. Auto-repeat presses of the held key do not restart the hold; releasing the key
/// or a modifier, or any other key, cancels it. While the PIN is asked for, keys go nowhere else.
public struct AdminExit: Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Exit with status 0.
        case exit
        /// The chord was held: the PIN is asked for.
        case pinRequested
        /// A wrong PIN, Escape or the timeout.
        case pinRejected
    }

    public let chord: KeyChord
    public let hold: Double
    public let pin: String?
    public var pinTimeout = 15.0

    private enum State: Equatable {
        case idle
        case holding(since: Double)
        case pin(entered: String, until: Double)
    }
    private var state = State.idle

    /// `pin`: digits only (4…12), or nil for none; throws one line otherwise.
    public init(chord: KeyChord = .defaultAdmin, hold: Double = 2, pin: String? = nil) throws(KioskConfigError) {
        guard hold.isFinite, hold >= 0, hold <= 60 else {
            throw KioskConfigError("--admin-hold: expected 0…60 seconds, got \(hold)")
        }
        if let pin, !(4...12).contains(pin.count) || !pin.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw KioskConfigError("--admin-pin (or GESTURES_ADMIN_PIN): expected 4 to 12 digits")
        }
        self.chord = chord
        self.hold = hold
        self.pin = pin
    }

    /// Whether keys go to the PIN now (the shell passes them nowhere else).
    public var asksForPIN: Bool {
        if case .pin = state { return true }
        return false
    }

    /// When ``advance(to:)`` must run next, if anything waits.
    public var deadline: Double? {
        switch state {
        case .idle: nil
        case .holding(let since): since + hold
        case .pin(_, let until): until
        }
    }

    /// A key press; true when the key was taken (the shell then does nothing else with it).
    public mutating func keyPressed(
        keysym: UInt, modifiers: UInt32, repeated: Bool, at time: Double
    ) -> (taken: Bool, outcome: Outcome?) {
        switch state {
        case .pin(let entered, let until):
            switch keysym {
            case 0x30...0x39, 0xFFB0...0xFFB9:
                let digit = Character(Unicode.Scalar(UInt8(0x30 + (keysym & 0xF))))
                state = .pin(entered: String((entered + String(digit)).suffix(12)), until: until)
                return (true, nil)
            case 0xFF0D, 0xFF8D:  // Return, KP_Enter
                state = .idle
                return (true, entered == pin ? .exit : .pinRejected)
            case 0xFF1B:  // Escape
                state = .idle
                return (true, .pinRejected)
            default:
                return (true, nil)
            }
        case .holding:
            if repeated && chord.matches(keysym: keysym, modifiers: modifiers) { return (true, nil) }
            state = .idle
            return keyPressed(keysym: keysym, modifiers: modifiers, repeated: false, at: time)
        case .idle:
            guard !repeated, chord.matches(keysym: keysym, modifiers: modifiers) else { return (false, nil) }
            state = .holding(since: time)
            if hold == 0 { return (true, advance(to: time)) }
            return (true, nil)
        }
    }

    /// A key release: the held chord's key or a modifier cancels the hold.
    public mutating func keyReleased(keysym: UInt) {
        guard case .holding = state else { return }
        let modifier = (0xFFE1...0xFFEE).contains(keysym) || keysym == 0xFE03  // Shift_L…Hyper_R, ISO_Level3
        if modifier || KeyChord.folded(keysym) == chord.keysym { state = .idle }
    }

    /// Runs the timers: the hold completes, or the PIN times out.
    public mutating func advance(to time: Double) -> Outcome? {
        switch state {
        case .idle:
            return nil
        case .holding(let since):
            guard time >= since + hold else { return nil }
            guard pin != nil else {
                state = .idle
                return .exit
            }
            state = .pin(entered: "", until: time + pinTimeout)
            return .pinRequested
        case .pin(_, let until):
            guard time >= until else { return nil }
            state = .idle
            return .pinRejected
        }
    }
}

extension AdminExit {
    /// The admin gesture (``CornerPress``) completed: as the chord held — the PIN is asked for
    /// when one is set, else the exit.
    public mutating func gestureCompleted(at time: Double) -> Outcome {
        guard pin != nil else {
            state = .idle
            return .exit
        }
        state = .pin(entered: "", until: time + pinTimeout)
        return .pinRequested
    }
}

/// The admin exit for a kiosk without a keyboard: two fingers held in opposite corners of the
/// window at once (top-left and bottom-right, or top-right and bottom-left) for ``hold``
/// seconds — a visitor does not do that by accident, a cleaner wiping the glass lifts a hand.
/// A corner is a square of side ``cornerSide(for:)`` (10 % of the shorter side, at least
/// 48 points). Fingers that leave their corner, or lift, start it over; after it fires, the
/// fingers must all lift before it can fire again. Only real touches count (not the tour, not
/// a replay).
public struct CornerPress: Sendable {
    /// Seconds the two corners are held (0: the corner gesture is off).
    public var hold: Double
    private var down: [Int: (location: Point, since: Double)] = [:]
    private var size = Size.zero
    private var fired = false

    public init(hold: Double = 5) {
        self.hold = hold
    }

    /// The side of a corner square for a window of `size` points.
    public static func cornerSide(for size: Size) -> Double {
        max(48, 0.1 * min(size.width, size.height))
    }

    /// Follows the touches of `frame` in a window of `size` points.
    public mutating func handle(_ frame: TouchFrame, size: Size) {
        guard hold > 0 else { return }
        self.size = size
        for c in frame.changes {
            switch c.phase {
            case .began: down[c.id] = (c.location, frame.timestamp)
            case .moved: down[c.id]?.location = c.location
            case .ended, .cancelled: down[c.id] = nil
            }
        }
        if down.isEmpty { fired = false }
    }

    /// When the gesture completes if the fingers stay (nil: no pair of opposite corners held).
    public var deadline: Double? {
        guard hold > 0, !fired else { return nil }
        let side = Self.cornerSide(for: size)
        func corner(_ p: Point) -> Int? {
            let left = p.x <= side
            let right = p.x >= size.width - side
            let top = p.y <= side
            let bottom = p.y >= size.height - side
            switch (left, right, top, bottom) {
            case (true, false, true, false): return 0  // top-left
            case (false, true, false, true): return 2  // bottom-right
            case (false, true, true, false): return 1  // top-right
            case (true, false, false, true): return 3  // bottom-left
            default: return nil
            }
        }
        var earliest: [Int: Double] = [:]
        for (_, d) in down {
            guard let c = corner(d.location) else { continue }
            earliest[c] = max(earliest[c] ?? -.infinity, d.since)
        }
        var best: Double?
        for (a, b) in [(0, 2), (1, 3)] {
            if let ta = earliest[a], let tb = earliest[b] { best = min(best ?? .infinity, max(ta, tb) + hold) }
        }
        return best
    }

    /// True once, when the held corners reach ``hold`` at `time`.
    public mutating func advance(to time: Double) -> Bool {
        guard let d = deadline, time >= d else { return false }
        fired = true
        return true
    }
}
