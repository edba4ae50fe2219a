import GestureKit

/// A key of the on-screen PIN pad.
public enum PinPadKey: Equatable, Hashable, Sendable {
    case digit(Int)
    case erase
    case ok
    case cancel
}

/// The kiosk's on-screen PIN pad (the admin exit's second step, ``AdminExit``): its geometry in
/// window points, shared by the shell (which hit-tests touches and clicks against it) and the
/// demo's renderer (which draws it). UIKit has no such view; it is a passcode keypad as iOS
/// draws one.
///
/// A panel in the middle of the window: a field with one dot per digit typed, then four rows of keys — `1 2 3`, `4 5 6`, `7 8 9`, `⌫ 0 OK` — and a Cancel row. A key
/// is a square of side `key`: 12 % of the window's shorter side, at least 44 points (Apple's
/// smallest touch target; less only where the window is too small for the pad) and at most 110. A press counts where it begins (a finger down, a
/// button press).
public struct PinPad: Equatable, Sendable {
    /// What the pad shows: how many digits are typed.
    public var entered: Int
    /// A line in the field instead of the placeholder, while no digit is typed: "Wrong PIN"
    /// after a miss, "Try again in N s" during a lockout (see ``AdminExit/pad(at:)``).
    public var message: String?
    /// False during a lockout: the digits and OK are drawn dimmed and do nothing (Cancel works).
    public var enabled: Bool
    public init(entered: Int, message: String? = nil, enabled: Bool = true) {
        self.entered = entered
        self.message = message
        self.enabled = enabled
    }

    /// The pad's geometry in a window of `size` points.
    public struct Layout: Equatable, Sendable {
        public var panel: Rect
        public var field: Rect
        public var keys: [(key: PinPadKey, rect: Rect)]

        public static func == (a: Layout, b: Layout) -> Bool {
            a.panel == b.panel && a.field == b.field && a.keys.map(\.key) == b.keys.map(\.key)
                && a.keys.map(\.rect) == b.keys.map(\.rect)
        }

        /// The key under `point` (nil: none).
        public func key(at point: Point) -> PinPadKey? {
            keys.first { $0.rect.contains(point) }?.key
        }

        /// The centre of `key`'s rectangle.
        public func center(of key: PinPadKey) -> Point? {
            keys.first { $0.key == key }.map { Point(x: $0.rect.midX, y: $0.rect.midY) }
        }
    }

    public static func layout(in size: Size) -> Layout {
        // The panel is 3.8 keys wide and 7.6 high: it fits a window however small.
        let key = min(
            110, max(44, 0.12 * min(size.width, size.height)), 0.95 * size.height / 7.6, 0.95 * size.width / 3.8)
        let gap = key * 0.2
        let width = 3 * key + 4 * gap
        let height = 6 * key + 8 * gap  // field, 4 rows of keys, cancel
        let panel = Rect(x: (size.width - width) / 2, y: (size.height - height) / 2, width: width, height: height)
        let field = Rect(x: panel.minX + gap, y: panel.minY + gap, width: width - 2 * gap, height: key)
        let rows: [[PinPadKey]] = [
            [.digit(1), .digit(2), .digit(3)], [.digit(4), .digit(5), .digit(6)], [.digit(7), .digit(8), .digit(9)],
            [.erase, .digit(0), .ok],
        ]
        var keys: [(PinPadKey, Rect)] = []
        for (r, row) in rows.enumerated() {
            for (c, k) in row.enumerated() {
                let x = panel.minX + gap + Double(c) * (key + gap)
                let y = field.maxY + 2 * gap + Double(r) * (key + gap)
                keys.append((k, Rect(x: x, y: y, width: key, height: key)))
            }
        }
        let cancelY = field.maxY + 2 * gap + 4 * (key + gap)
        keys.append((.cancel, Rect(x: field.minX, y: cancelY, width: field.width, height: key)))
        return Layout(panel: panel, field: field, keys: keys)
    }
}
