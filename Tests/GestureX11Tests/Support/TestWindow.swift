import GestureKit
import GestureX11

extension TestXServer {
    /// A library window on this server at scale 1 (points are pixels), not yet running.
    @MainActor
    func window(title: String, size: Size) throws -> GestureWindow {
        var options = ShellOptions()
        options.display = display
        options.scale = 1
        return try GestureWindow(title: title, size: size, options: options)
    }
}
