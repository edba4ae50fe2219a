/// Edges of a rectangle. UIKit: `UIRectEdge`.
public struct RectEdge: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let top = RectEdge(rawValue: 1 << 0)
    public static let left = RectEdge(rawValue: 1 << 1)
    public static let bottom = RectEdge(rawValue: 1 << 2)
    public static let right = RectEdge(rawValue: 1 << 3)
    public static let all: RectEdge = [.top, .left, .bottom, .right]
    /// Log names, in the order left, right, top, bottom.
    public static let named: [(String, RectEdge)] = [("left", .left), ("right", .right), ("top", .top), ("bottom", .bottom)]
    public var description: String {
        Self.named.filter { contains($0.1) }.map(\.0).joined(separator: " ")
    }
    public init?(name: String) {
        guard let d = Self.named.first(where: { $0.0 == name }) else { return nil }
        self = d.1
    }
}
