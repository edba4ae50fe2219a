import GestureKit

/// What a key press does in the shell.
public enum KeyAction: Hashable, Sendable {
    /// A keyboard alternative handed to the scene (`ShellScene.perform`).
    case command(KeyCommand)
    /// Ctrl+Z: a shake, fed to the scene as input (`InputEvent.shake`, so it is recorded).
    case shake
    /// `q`, Ctrl+Q or Escape: quit with status 0 (not in kiosk mode).
    case quit
    /// F11: toggle EWMH fullscreen (not in kiosk mode).
    case toggleFullscreen
}

/// The key bindings of docs/DESIGN.md §5 (WCAG 2.5.1 keyboard alternatives), by X keysym.
///
/// | keys | action |
/// |---|---|
/// | `+` `=` KP_Add | scale up |
/// | `-` KP_Subtract | scale down |
/// | `[` `{` | rotate counter-clockwise |
/// | `]` `}` | rotate clockwise |
/// | arrows (and keypad arrows) | move the image 10 pt |
/// | Ctrl+Z | shake |
/// | `u`, Backspace | undo the last gesture or key on the image (Ctrl+Z stays the shake) |
/// | `q`, Ctrl+Q, Escape | quit (ignored in kiosk mode) |
/// | F11 | toggle fullscreen (ignored in kiosk mode) |
public enum KeyBindings {
    /// The bindings for people, in the order of the table above: what to press and what it does.
    /// `gestures run --help` and the man page (generated from the help, scripts/make-man) list
    /// exactly these, so a binding added to ``action(keysym:modifiers:kiosk:)`` is added here too.
    public static let summary: [(keys: String, action: String)] = [
        ("+, = or keypad +", "scale the flower up"),
        ("- or keypad -", "scale the flower down"),
        ("[ or {", "rotate counter-clockwise"),
        ("] or }", "rotate clockwise"),
        ("arrow keys", "move the flower 10 points"),
        ("Ctrl+Z", "shake (the flower goes back)"),
        ("u or Backspace", "undo the last gesture or key on the flower"),
        ("F11", "toggle fullscreen (not in kiosk mode)"),
        ("q, Ctrl+Q or Escape", "quit (not in kiosk mode)"),
    ]

    /// The distance an arrow key moves the image, points.
    public static let moveStep = 10.0

    /// The action for `keysym` pressed with the X modifier mask `mods`, if any.
    public static func action(keysym: UInt, modifiers mods: UInt32, kiosk: Bool) -> KeyAction? {
        let control = mods & ModifierBits.control != 0
        switch keysym {
        case 0x2B, 0x3D, 0xFFAB: return .command(.scaleUp)  // plus, equal, KP_Add
        case 0x2D, 0xFFAD: return .command(.scaleDown)  // minus, KP_Subtract
        case 0x5B, 0x7B: return .command(.rotateCounterClockwise)  // bracketleft, braceleft
        case 0x5D, 0x7D: return .command(.rotateClockwise)  // bracketright, braceright
        case 0xFF51, 0xFF96: return .command(.move(dx: -moveStep, dy: 0))  // Left, KP_Left
        case 0xFF52, 0xFF97: return .command(.move(dx: 0, dy: -moveStep))  // Up
        case 0xFF53, 0xFF98: return .command(.move(dx: moveStep, dy: 0))  // Right
        case 0xFF54, 0xFF99: return .command(.move(dx: 0, dy: moveStep))  // Down
        case 0x7A, 0x5A: return control ? .shake : nil  // z, Z
        case 0x75, 0x55, 0xFF08: return control ? nil : .command(.undo)  // u, U, BackSpace
        case 0x71, 0x51: return kiosk ? nil : .quit  // q, Q (with or without Ctrl)
        case 0xFF1B: return kiosk ? nil : .quit  // Escape
        case 0xFFC8: return kiosk ? nil : .toggleFullscreen  // F11
        default: return nil
        }
    }
}
