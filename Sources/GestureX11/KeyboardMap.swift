// The keyboard mapping (GetKeyboardMapping), read within its reply and looked up without
// xcb-keysyms: that library indexes the reply by the set-up's keycode range and the reply's
// keysyms-per-keycode, never by the reply's length, so a short reply is read past its end.
// Pure Swift (standard library only), unit tested and fuzzed with XReplyDecoder.

/// The keysyms of every keycode from `minKeycode`, `perKeycode` columns each.
struct KeyboardMap: Equatable {
    let minKeycode: Int
    let perKeycode: Int
    let keysyms: [UInt32]

    /// A GetKeyboardMapping reply for the keycodes `minKeycode`…`maxKeycode`; nil when it is
    /// malformed (no columns). Keycodes the reply does not hold have no symbol.
    init?(reply: UnsafeRawBufferPointer, minKeycode: Int, maxKeycode: Int) {
        guard maxKeycode >= minKeycode,
            let m = XReplyDecoder.keyboardMapping(reply, keycodes: maxKeycode - minKeycode + 1)
        else { return nil }
        self.minKeycode = minKeycode
        perKeycode = m.perKeycode
        keysyms = m.keysyms
    }

    init(minKeycode: Int, perKeycode: Int, keysyms: [UInt32]) {
        self.minKeycode = minKeycode
        self.perKeycode = perKeycode
        self.keysyms = keysyms
    }

    /// The keysym of `keycode` in `column` (group × 2 + shift level), by the core protocol's
    /// rules as Xlib and xcb-keysyms apply them: an empty second column of a group is the first
    /// one's upper case (a letter's), a group without symbols falls back to the first. 0 when
    /// there is none. (Case pairs are derived for Latin-1 only; keyboard maps list both levels
    /// of other scripts.)
    func keysym(keycode: Int, column: Int) -> UInt32 {
        guard perKeycode > 0, column >= 0, keycode >= minKeycode, !(column >= perKeycode && column > 3) else {
            return 0
        }
        let base = (keycode - minKeycode) * perKeycode
        guard base + perKeycode <= keysyms.count else { return 0 }
        let syms = keysyms[base..<(base + perKeycode)].map { $0 }
        var per = perKeycode
        var col = column
        if col < 4 {
            if col > 1 {
                while per > 2 && syms[per - 1] == 0 { per -= 1 }
                if per < 3 { col -= 2 }
            }
            if per <= (col | 1) || syms[col | 1] == 0 {
                let (lower, upper) = Self.convertCase(syms[col & ~1])
                if col & 1 == 0 { return lower }
                return upper == lower ? 0 : upper
            }
        }
        return col < syms.count ? syms[col] : 0
    }

    /// The lower- and upper-case forms of a Latin-1 keysym (others: itself twice).
    static func convertCase(_ sym: UInt32) -> (UInt32, UInt32) {
        switch sym {
        case 0x41...0x5a: return (sym + 0x20, sym)
        case 0x61...0x7a: return (sym, sym - 0x20)
        case 0xc0...0xde where sym != 0xd7: return (sym + 0x20, sym)
        case 0xe0...0xfe where sym != 0xf7: return (sym, sym - 0x20)
        default: return (sym, sym)
        }
    }
}
