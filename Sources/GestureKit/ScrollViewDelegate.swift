/// What a ``ScrollView`` tells its delegate. UIKit: `UIScrollViewDelegate`. Every method has a
/// default that does nothing (``viewForZooming(in:)``'s returns nil: no zooming).
///
/// Deviations: no `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)` (read the
/// lift velocity from ``ScrollView/panGestureRecognizer`` in
/// ``scrollViewDidEndDragging(_:willDecelerate:)``; a fling cannot be redirected), and no
/// scroll-to-top.
@MainActor
public protocol ScrollViewDelegate: AnyObject {
    /// The content offset changed (by a drag, a fling, a spring back, an animation or code).
    func scrollViewDidScroll(_ scrollView: ScrollView)
    /// The zoom scale changed.
    func scrollViewDidZoom(_ scrollView: ScrollView)
    /// The view that zooms: a subview of the scroll view, scaled by ``ScrollView/zoomScale``.
    /// Nil (the default) turns zooming off.
    func viewForZooming(in scrollView: ScrollView) -> View?
    /// A drag (a finger, or a scroll sequence of the wheel or touchpad) begins.
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// The drag ended; `decelerate` says whether the content goes on moving (a fling, or a spring
    /// back from past an edge), in which case ``scrollViewDidEndDecelerating(_:)`` follows.
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    /// The content starts to move on its own after a drag.
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView)
    /// The content came to rest after a drag (not called when a touch catches it first).
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    /// An animation of ``ScrollView/setContentOffset(_:animated:)`` ended.
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
    /// A pinch is about to zoom `view`.
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?)
    /// A zoom ended and, if it was past a limit, has sprung back: `scale` is where it rests
    /// (after a pinch, a double tap, or an animated ``ScrollView/setZoomScale(_:animated:)``).
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double)
}

extension ScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    public func scrollViewDidZoom(_ scrollView: ScrollView) {}
    public func viewForZooming(in scrollView: ScrollView) -> View? { nil }
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {}
    public func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) {}
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {}
}

/// Space around a scroll view's content. UIKit: `UIEdgeInsets`.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets()
}
