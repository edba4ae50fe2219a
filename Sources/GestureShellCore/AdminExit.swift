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

/// A bad kiosk setting (`--admin-chord`, the admin PIN, the `--kiosk-config` file): one line.
public struct KioskConfigError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The kiosk's admin exit (UIKit has none: iOS Guided Access's triple-click plus passcode is the
/// model). The admin gesture — the chord held down for ``hold`` seconds, two fingers held in
/// opposite corners (``CornerPress``) or the four corners tapped in order (``CornerTaps``) —
/// opens the PIN pad; the PIN typed (keyboard digits and Enter, or the on-screen ``PinPad``)
/// within ``pinTimeout`` seconds exits with status 0.
///
/// Safe by default: **without a PIN the kiosk cannot be exited** — the gesture is only logged
/// (``Outcome/noPIN``); the administrator stops the unit (`systemctl --user stop`, status 143)
/// or sets a PIN (`--admin-pin-file`, `GESTURES_ADMIN_PIN`).
///
/// Wrong PINs back off (``lockout(afterMisses:)``): after 3 misses in a row every further miss
/// locks the pad for 30 s, doubling each time up to an hour; while locked the gesture is refused
/// (``Outcome/lockedOut(remaining:)``). Worst case for someone guessing a 4-digit PIN: misses
/// 1–3 free, then 30 + 60 + … + 1920 s (misses 3–9: 63.5 min in all), then 1 h per guess — 10 000
/// guesses take 9 991 h + 1.06 h of lockouts plus the typing, ≈ 416 days (13.7 months); on
/// average half of that (≈ 7 months). The count of misses resets only with the right PIN; a
/// restart does not reset it: the kiosk keeps the count and the lockout's end on disk
/// (``PinLockoutFile``) and takes them up at start (``restore(misses:lockedFor:at:)``), since a
/// crash, the watchdog or a power cut restarts it. Escape, the pad's timeout or a gesture
/// during entry cancel without counting a miss.
///
/// A wrong PIN leaves the pad up, its digits cleared and its timeout started again, saying
/// "Wrong PIN" (until the next digit); during a lockout it says "Try again in N s" (counting
/// down) and its digits and OK do nothing — OK is refused as ``Outcome/lockedOut(remaining:)``,
/// so every refusal is logged — and the pad goes away on Cancel, Escape or its timeout as ever.
/// (Closing the pad after each miss made the visitor make the admin gesture again for each try
/// and hid why the PIN was refused.)
///
/// Auto-repeat presses of the held key do not restart the hold; releasing the key or a
/// modifier, or any other key, cancels it. While the PIN is asked for, keys go nowhere else.
public struct AdminExit: Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Exit with status 0.
        case exit
        /// The gesture was made: the PIN pad is up.
        case pinRequested
        /// A wrong PIN (`misses`: wrong PINs in a row so far; `lockedFor`: the lockout it
        /// started, seconds, 0 for none).
        case pinRejected(misses: Int, lockedFor: Double)
        /// Escape, the pad's cancel or its timeout: the pad is gone, no miss counted.
        case pinCancelled
        /// The gesture was made but no PIN is configured: nothing happens but the log line.
        case noPIN
        /// The gesture was made during a lockout: refused (`remaining` seconds of it left).
        case lockedOut(remaining: Double)
    }

    public let chord: KeyChord
    public let hold: Double
    public let pin: String?
    /// Seconds the PIN pad waits for the PIN (default 30).
    public var pinTimeout = 30.0

    private enum State: Equatable {
        case idle
        case holding(since: Double)
        case pin(entered: String, until: Double)
    }
    private var state = State.idle
    /// Wrong PINs in a row.
    public private(set) var misses = 0
    /// The gesture is refused until then (shell seconds).
    public private(set) var lockedUntil = -Double.infinity
    /// The pad shows "Wrong PIN" (a miss since the last digit typed).
    private var showsMiss = false
    /// When the lockout countdown on the pad next changes (nil: no countdown shown).
    private var refreshAt: Double?

    /// `pin`: digits only (4…12), or nil for none; throws one line otherwise.
    public init(chord: KeyChord = .defaultAdmin, hold: Double = 2, pin: String? = nil) throws(KioskConfigError) {
        guard hold.isFinite, hold >= 0, hold <= 60 else {
            throw KioskConfigError("--admin-hold: expected 0…60 seconds, got \(hold)")
        }
        if let pin, !(4...12).contains(pin.count) || !pin.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw KioskConfigError("the admin PIN (--admin-pin-file or GESTURES_ADMIN_PIN): expected 4 to 12 digits")
        }
        self.chord = chord
        self.hold = hold
        self.pin = pin
    }

    /// The lockout, seconds, that the `misses`-th wrong PIN in a row starts: none for the first
    /// two, 30 s for the third, then doubling up to 3600 s.
    public static func lockout(afterMisses misses: Int) -> Double {
        guard misses >= 3 else { return 0 }
        let doublings = min(misses - 3, 7)  // 30·2^7 = 3840 > 3600
        return min(3600, 30 * Double(1 << doublings))
    }

    /// Takes up the backoff a previous run left (``PinLockoutFile``): `misses` wrong PINs in a
    /// row, the gesture refused for `remaining` more seconds from shell time `time` (0: no
    /// lockout runs). The next miss goes on doubling from there.
    public mutating func restore(misses: Int, lockedFor remaining: Double, at time: Double) {
        self.misses = max(0, misses)
        lockedUntil = remaining > 0 ? time + remaining : -Double.infinity
    }

    /// Whether keys and pad presses go to the PIN now (the shell passes them nowhere else).
    public var asksForPIN: Bool {
        if case .pin = state { return true }
        return false
    }

    /// The digits typed so far while the pad is up (nil: it is not).
    public var enteredCount: Int? {
        if case .pin(let entered, _) = state { return entered.count }
        return nil
    }

    /// When ``advance(to:)`` must run next, if anything waits (the pad's countdown included).
    public var deadline: Double? {
        switch state {
        case .idle: nil
        case .holding(let since): since + hold
        case .pin(_, let until): min(until, refreshAt ?? until)
        }
    }

    /// What the PIN pad shows at `time` (nil: it is not up).
    public func pad(at time: Double) -> PinPad? {
        guard case .pin(let entered, _) = state else { return nil }
        if time < lockedUntil {
            let seconds = Int((lockedUntil - time).rounded(.up))
            return PinPad(entered: 0, message: "Try again in \(seconds) s", enabled: false)
        }
        return PinPad(entered: entered.count, message: showsMiss ? "Wrong PIN" : nil)
    }

    /// When the countdown shown at `time` changes next: each whole second of the lockout left,
    /// and its end.
    private func nextRefresh(after time: Double) -> Double? {
        guard time < lockedUntil else { return nil }
        return lockedUntil - ((lockedUntil - time).rounded(.up) - 1)
    }

    /// A key press; true when the key was taken (the shell then does nothing else with it).
    public mutating func keyPressed(
        keysym: UInt, modifiers: UInt32, repeated: Bool, at time: Double
    ) -> (taken: Bool, outcome: Outcome?) {
        switch state {
        case .pin:
            switch keysym {
            case 0x30...0x39, 0xFFB0...0xFFB9:
                return (true, padPressed(.digit(Int(keysym & 0xF)), at: time))
            case 0xFF0D, 0xFF8D:  // Return, KP_Enter
                return (true, padPressed(.ok, at: time))
            case 0xFF08:  // BackSpace
                return (true, padPressed(.erase, at: time))
            case 0xFF1B:  // Escape
                return (true, padPressed(.cancel, at: time))
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

    /// A key of the PIN pad (or its keyboard equivalent) while the pad is up.
    public mutating func padPressed(_ key: PinPadKey, at time: Double) -> Outcome? {
        guard case .pin(let entered, let until) = state else { return nil }
        if time < lockedUntil && key != .cancel {
            // Entry is off during the lockout; OK is a refusal to log.
            return key == .ok ? .lockedOut(remaining: lockedUntil - time) : nil
        }
        switch key {
        case .digit(let d):
            showsMiss = false
            state = .pin(entered: String((entered + String(d)).suffix(12)), until: until)
            return nil
        case .erase:
            state = .pin(entered: String(entered.dropLast()), until: until)
            return nil
        case .cancel:
            close()
            return .pinCancelled
        case .ok:
            if entered == pin {
                close()
                misses = 0
                return .exit
            }
            misses += 1
            let lock = Self.lockout(afterMisses: misses)
            if lock > 0 { lockedUntil = time + lock }
            // The pad stays up, cleared, for another try (after the lockout, if one started).
            state = .pin(entered: "", until: time + pinTimeout)
            showsMiss = true
            refreshAt = nextRefresh(after: time)
            return .pinRejected(misses: misses, lockedFor: lock)
        }
    }

    /// A key release: the held chord's key or a modifier cancels the hold.
    public mutating func keyReleased(keysym: UInt) {
        guard case .holding = state else { return }
        let modifier = (0xFFE1...0xFFEE).contains(keysym) || keysym == 0xFE03  // Shift_L…Hyper_R, ISO_Level3
        if modifier || KeyChord.folded(keysym) == chord.keysym { state = .idle }
    }

    /// Runs the timers: the hold completes, or the PIN pad times out.
    public mutating func advance(to time: Double) -> Outcome? {
        switch state {
        case .idle:
            return nil
        case .holding(let since):
            guard time >= since + hold else { return nil }
            state = .idle
            return gestureCompleted(at: time)
        case .pin(_, let until):
            guard time >= until else {
                refreshAt = nextRefresh(after: time)
                return nil
            }
            close()
            return .pinCancelled
        }
    }

    /// The admin gesture was made (the chord held, ``CornerPress``, ``CornerTaps``): the PIN
    /// pad comes up when a PIN is set and no lockout runs; else the refusal to log.
    public mutating func gestureCompleted(at time: Double) -> Outcome? {
        if asksForPIN { return nil }
        guard pin != nil else {
            state = .idle
            return .noPIN
        }
        guard time >= lockedUntil else {
            state = .idle
            return .lockedOut(remaining: lockedUntil - time)
        }
        state = .pin(entered: "", until: time + pinTimeout)
        return .pinRequested
    }

    /// The pad goes away.
    private mutating func close() {
        state = .idle
        showsMiss = false
        refreshAt = nil
    }
}
