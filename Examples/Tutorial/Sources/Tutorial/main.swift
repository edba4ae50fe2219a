import Foundation
import GestureX11

/// Standard error from any isolation (Swift 6: the C `stderr` global is shared mutable state).
nonisolated func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Reads a file off the main actor (UIKit apps do the same with a detached task or an actor).
func loadNotes(_ path: String) async -> String {
    await Task.detached {
        (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").first.map(String.init) ?? "-"
    }.value
}

@MainActor
final class ViewController {
    let view: View
    let tapView = View(frame: Rect(x: 20, y: 20, width: 160, height: 120))
    let swipeView = View(frame: Rect(x: 200, y: 20, width: 160, height: 120))
    let pinchView = View(frame: Rect(x: 20, y: 160, width: 160, height: 120))
    let rotateView = View(frame: Rect(x: 200, y: 160, width: 160, height: 120))
    let outputLabel = Label(frame: Rect(x: 20, y: 300, width: 340, height: 50))
    let notesLabel = Label(frame: Rect(x: 20, y: 360, width: 340, height: 40))
    let imageView = ImageView(frame: Rect(x: 420, y: 80, width: 300, height: 300))
    var originalRect = Rect.zero
    init(view: View) { self.view = view }
    func viewDidLoad() {
        for (v, color) in zip([tapView, swipeView, pinchView, rotateView], [Color.orange, .purple, .cyan, .yellow]) {
            v.backgroundColor = color
            view.addSubview(v)
        }
        outputLabel.textAlignment = .center
        outputLabel.numberOfLines = 2
        outputLabel.text = "Do something!"
        notesLabel.font = .systemFont(ofSize: 13)
        view.addSubview(outputLabel)
        view.addSubview(notesLabel)
        let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../../Resources")
        imageView.image = Image(contentsOfFile: resources.appendingPathComponent("flower.png").path)
        imageView.contentMode = .scaleAspectFit
        view.addSubview(imageView)
        originalRect = imageView.frame

        let tap = TapGestureRecognizer()
        tap.addAction { [unowned self] _ in foundTap() }
        tapView.addGestureRecognizer(tap)
        let swipe = SwipeGestureRecognizer()
        swipe.direction = .right
        swipe.addAction { [unowned self] _ in foundSwipe() }
        swipeView.addGestureRecognizer(swipe)
        let pinch = PinchGestureRecognizer()
        pinch.addAction { [unowned self, unowned pinch] _ in foundPinch(pinch) }
        pinchView.addGestureRecognizer(pinch)
        let rotation = RotationGestureRecognizer()
        rotation.addAction { [unowned self, unowned rotation] _ in foundRotation(rotation) }
        rotateView.addGestureRecognizer(rotation)
        let shake = ShakeGestureRecognizer()
        shake.addAction { [unowned self] _ in motionEnded() }
        view.addGestureRecognizer(shake)
        Task { notesLabel.text = await loadNotes(resources.appendingPathComponent("../README.md").path) }
    }

    func foundTap() { outputLabel.text = "Tapped" }
    func foundSwipe() { outputLabel.text = "Swiped" }

    func foundPinch(_ recognizer: PinchGestureRecognizer) {
        let scale = recognizer.scale
        outputLabel.text = "Pinched, Scale: \(scale.formatted2), Velocity: \(recognizer.velocity.formatted2)"
        imageView.transform = .identity
        imageView.frame = Rect(
            x: originalRect.midX - originalRect.width * scale / 2,
            y: originalRect.midY - originalRect.height * scale / 2,
            width: originalRect.width * scale, height: originalRect.height * scale)
    }

    func foundRotation(_ recognizer: RotationGestureRecognizer) {
        outputLabel.text =
            "Rotated, Radians: \(recognizer.rotation.formatted2), Velocity: \(recognizer.velocity.formatted2)"
        imageView.transform = AffineTransform(rotationAngle: recognizer.rotation)
    }

    func motionEnded() {
        outputLabel.text = "Shaken, not stirred"
        imageView.transform = .identity
        imageView.frame = originalRect
    }
}
extension Double { var formatted2: String { String(format: "%.2f", self) } }

do {
    let window = try GestureWindow(title: "Gestures", size: Size(width: 740, height: 420))
    let controller = ViewController(view: window.root)
    controller.viewDidLoad()
    exit(window.run())
} catch {
    printError("Tutorial: \(error)")
    exit(1)
}
