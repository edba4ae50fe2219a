import ArgumentParser
import GestureKit
import GestureTrace
import GesturesDemo

/// `gestures layout`: prints the demo's layout line for a window size.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Print the demo scene's layout line for a window size.",
        discussion: """
            {"type":"layout","width":W,"height":H,"regions":{"tap":[x,y,w,h],"swipe":...,"pinch":...,\
            "rotate":...,"label":...,"image":...}}
            """)

    @Option(help: ArgumentHelp("The window size, WIDTHxHEIGHT in points (default 1024x768).", valueName: "WxH"))
    var size: String?

    @Option(
        help: ArgumentHelp(
            "The picture (PNG or JPEG) whose aspect ratio the image keeps (default: the bundled flower.png).",
            valueName: "path"))
    var image: String?

    func run() throws {
        let size = try parseSizeOption(size) ?? Trace.defaultViewport
        let picture = try loadPicture(explicit: image, needed: true)
        let layout = DemoLayout(size: size, imageSize: picture?.size ?? DemoLayout.defaultImageSize)
        writeLine(layout.line)
    }
}
