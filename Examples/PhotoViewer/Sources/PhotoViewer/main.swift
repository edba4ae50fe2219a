import Foundation
import GestureX11

/// Standard error from any isolation (Swift 6: the C `stderr` global is shared mutable state).
nonisolated func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// UIKit's photo-viewer pattern: the controller owns a scroll view with an image view inside,
/// is its delegate, names the image view as the view that zooms, fits the photo at the smallest
/// zoom and keeps it centred while it is smaller than the screen.
@MainActor
final class PhotoViewController: ScrollViewDelegate {
    let view: View
    let scrollView = ScrollView()
    let imageView: ImageView

    init(view: View, image: Image) {
        self.view = view
        imageView = ImageView(image: image)
    }

    func viewDidLoad() {
        scrollView.frame = view.bounds
        scrollView.backgroundColor = Color(white: 0.12)
        scrollView.delegate = self
        // UIKit leaves double-tap zoom to the app; GestureKit's scroll view has it built in.
        scrollView.zoomsOnDoubleTap = true
        scrollView.addSubview(imageView)
        scrollView.contentSize = imageView.bounds.size
        view.addSubview(scrollView)
        viewDidLayoutSubviews()
    }

    /// After the window changed size: the smallest zoom shows the whole photo, the largest four
    /// times its pixels (or twice the fit, for a small photo), and the photo starts fitted.
    func viewDidLayoutSubviews() {
        scrollView.frame = view.bounds
        let photo = imageView.bounds.size
        guard photo.width > 0, photo.height > 0 else { return }
        let fit = min(view.bounds.width / photo.width, view.bounds.height / photo.height)
        scrollView.minimumZoomScale = fit
        scrollView.maximumZoomScale = max(4, 2 * fit)
        scrollView.zoomScale = fit
        centre()
        scrollView.contentOffset = Point(x: -scrollView.contentInset.left, y: -scrollView.contentInset.top)
    }

    func viewForZooming(in scrollView: ScrollView) -> View? { imageView }

    func scrollViewDidZoom(_ scrollView: ScrollView) { centre() }

    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {
        printError(String(format: "PhotoViewer: zoom %.2f", scale))
    }

    /// Insets the content by half the room left around it, so a photo smaller than the screen
    /// sits in the middle (UIKit apps do the same in `scrollViewDidZoom`).
    private func centre() {
        let dx = max(0, (scrollView.bounds.width - scrollView.contentSize.width) / 2)
        let dy = max(0, (scrollView.bounds.height - scrollView.contentSize.height) / 2)
        scrollView.contentInset = EdgeInsets(top: dy, left: dx, bottom: dy, right: dx)
    }
}

// The photo: the first argument, else the repository's flower.
let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "../../../../Resources")
let path = CommandLine.arguments.dropFirst().first ?? resources.appendingPathComponent("flower.png").path
guard let image = Image(contentsOfFile: path) else {
    printError("PhotoViewer: cannot read a PNG or JPEG picture at \(path)")
    exit(2)
}
do {
    let window = try GestureWindow(title: "Photo", size: Size(width: 800, height: 600))
    let controller = PhotoViewController(view: window.root, image: image)
    controller.viewDidLoad()
    window.onResize = { _ in controller.viewDidLayoutSubviews() }
    exit(window.run())
} catch {
    printError("PhotoViewer: \(error)")
    exit(1)
}
