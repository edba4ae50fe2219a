/// Swipe directions. UIKit: `UISwipeGestureRecognizer.Direction`.
public struct SwipeDirection: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let right = SwipeDirection(rawValue: 1 << 0)
    public static let left = SwipeDirection(rawValue: 1 << 1)
    public static let up = SwipeDirection(rawValue: 1 << 2)
    public static let down = SwipeDirection(rawValue: 1 << 3)
    /// Log names, in the order right, left, up, down.
    public static let named: [(String, SwipeDirection)] = [("right", .right), ("left", .left), ("up", .up), ("down", .down)]
    public var description: String {
        Self.named.filter { contains($0.1) }.map(\.0).joined(separator: " ")
    }
    public init?(name: String) {
        guard let d = Self.named.first(where: { $0.0 == name }) else { return nil }
        self = d.1
    }
}
